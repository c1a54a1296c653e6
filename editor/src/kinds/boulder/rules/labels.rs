//! The texts and the colour the rule editor's parts share (its list and rule view in
//! `ui`, its blocks in `ui_blocks`, its JSON views in `ui_json`): the labels of a
//! block's token, the explanation of a value chip, and the colour of warnings. They sit below
//! those parts so that each imports them and none imports another for them.

use eframe::egui::Color32;
use tilesmith_engine::kind::boulder::{Pattern, TokenPattern, TokenWrite, ValueName, Write};

use super::panel::Side;

/// The colour of warnings: rules that never match, unapplied JSON text, JSON warnings.
pub(super) const WARN: Color32 = Color32::from_rgb(240, 190, 60);

/// The label of an original block's token: `stone`, `mud|path`, `*`, `#3`.
pub(super) fn pattern_label(p: &Pattern) -> String {
    match &p.token {
        TokenPattern::Any => "*".into(),
        TokenPattern::OneOf(ts) => ts.iter().map(|t| t.name()).collect::<Vec<_>>().join("|"),
        TokenPattern::Index(k) => format!("#{k}"),
    }
}

/// The label of a result block's token: `gem`, or `=k` for "copy the token of block k".
pub(super) fn write_label(w: &Write) -> String {
    match w.token {
        TokenWrite::Set(t) => t.name().into(),
        TokenWrite::Copy(k) => format!("={k}"),
    }
}

/// The explanation shown when hovering a value chip (spec boulder §4.5).
pub(super) fn value_help(side: Side, name: ValueName, n: i64) -> String {
    let global = matches!(name, ValueName::Global(_));
    let what = if global {
        format!("the global {}", name.name())
    } else {
        format!("{} on this field", name.name())
    };
    match (side, n) {
        (Side::Original, 0) => format!("{what} must be 0"),
        (Side::Original, n) => format!("{what} must be at least {n}"),
        (Side::Result, 0) => format!("set {what} to 0"),
        (Side::Result, n) if n > 0 => format!(
            "add {n} to {what}{}",
            if global {
                " (once per field written)"
            } else {
                ""
            }
        ),
        (Side::Result, n) => format!("subtract {} from {what}, not below 0", -n),
    }
}
