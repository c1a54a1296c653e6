//! `tilesmith solve CAMPAIGN.json` (issue #29): every level of a campaign solved, one row of a
//! table each (level, result, steps, shortest, unique, shortcut against its intended replay,
//! seconds), then the exit code of the first level that is not solved.
//!
//! Each level is solved by this program run again on it (`solve LEVEL --all` for a
//! one-player level, with the campaign command's `--time`, `--memory`, `--max-steps` and
//! `--seed`), so that it gets the whole memory budget and leaves nothing behind for the next
//! one, and the row is read from that command's one JSON line. A level's intended replay
//! beside it (`NAME.intended.replay.json`) is compared as `solve` compares it.

use std::path::Path;
use std::process::{Command, ExitCode};

use serde_json::Value;
use tilesmith_engine::campaign::{Campaign, resolve_entry};

use super::common::print_problems;
use super::solve::{SolveArgs, UNKNOWN, UNSOLVABLE};

/// One level's row: its path as the campaign names it, the solve command's line (`None`
/// when it printed none) and its exit code.
struct Row {
    path: String,
    line: Option<Value>,
    code: i32,
    /// The first line the command said on standard error (why it failed).
    why: Option<String>,
}

/// `tilesmith solve CAMPAIGN.json`: prints the table, returns the exit code (0 when every
/// level is solved or its two-player value proved; else the first that applies of 1 an
/// error, 2 a level unsolvable, 3 a level unknown).
pub(super) fn solve_campaign(a: &SolveArgs) -> ExitCode {
    let campaign = match Campaign::load(&a.level) {
        Ok(c) => c,
        Err(p) => {
            print_problems(&a.level, &p);
            return ExitCode::FAILURE;
        }
    };
    if a.record.is_some() || a.from.is_some() || a.intended.is_some() || a.exhaustive {
        eprintln!(
            "tilesmith: solve: --record, --from, --intended and --exhaustive apply to one level, not a campaign"
        );
        return ExitCode::FAILURE;
    }
    let rows: Vec<Row> = campaign
        .entries
        .iter()
        .map(|e| solve_one(a, &resolve_entry(&a.level, &e.path), &e.path))
        .collect();
    println!(
        "{:<40} {:<11} {:>6} {:<8} {:<7} {:<9} {:>8}",
        "level", "result", "steps", "shortest", "unique", "shortcut", "seconds"
    );
    for r in &rows {
        println!("{}", row_text(r));
    }
    let codes: Vec<i32> = rows.iter().map(|r| r.code).collect();
    let first = [1, i32::from(UNSOLVABLE), i32::from(UNKNOWN)]
        .into_iter()
        .find(|c| codes.contains(c));
    match first {
        Some(c) => ExitCode::from(u8::try_from(c).unwrap_or(1)),
        None => ExitCode::SUCCESS,
    }
}

/// Solves the level `file` (named `path` in the campaign) by running this program on it.
fn solve_one(a: &SolveArgs, file: &Path, path: &str) -> Row {
    // A campaign is no level (`check` says so too); solving it here would start again.
    if tilesmith_engine::campaign::is_campaign_file(file) {
        return Row {
            path: path.to_string(),
            line: None,
            code: 1,
            why: Some("a campaign is not a level of a campaign".into()),
        };
    }
    let Ok(exe) = std::env::current_exe() else {
        return Row {
            path: path.to_string(),
            line: None,
            code: 1,
            why: Some("cannot run this program again".into()),
        };
    };
    let mut args: Vec<String> = vec!["solve".into(), file.display().to_string()];
    let mut opt = |name: &str, v: Option<String>| {
        if let Some(v) = v {
            args.push(name.into());
            args.push(v);
        }
    };
    opt("--time", a.time.map(|t| t.to_string()));
    opt("--memory", a.memory.map(|m| m.to_string()));
    opt("--max-steps", a.max_steps.map(|m| m.to_string()));
    opt("--seed", Some(a.seed.to_string()));
    // `--all` counts the shortest solutions of a one-player level; a two-player one refuses
    // it, so it is asked again without.
    let run = |all: bool| {
        let mut c = Command::new(&exe);
        c.args(&args);
        if all {
            c.arg("--all");
        }
        c.output()
    };
    let out = match run(true) {
        Ok(o) if o.status.code() == Some(1) && is_two_player_refusal(&o.stderr) => run(false),
        other => other,
    };
    let Ok(out) = out else {
        return Row {
            path: path.to_string(),
            line: None,
            code: 1,
            why: Some("cannot run this program again".into()),
        };
    };
    let why = String::from_utf8_lossy(&out.stderr)
        .lines()
        .next()
        .map(|l| l.trim_start_matches("tilesmith: solve: ").to_string());
    let line = String::from_utf8_lossy(&out.stdout)
        .lines()
        .next()
        .and_then(|l| serde_json::from_str(l).ok());
    Row {
        path: path.to_string(),
        line,
        code: out.status.code().unwrap_or(1),
        why,
    }
}

/// True when `solve --all` refused a level because it has two players.
fn is_two_player_refusal(stderr: &[u8]) -> bool {
    String::from_utf8_lossy(stderr).contains("apply to one-player levels")
}

/// One row of the table: what the level's solve line says.
fn row_text(r: &Row) -> String {
    let Some(v) = &r.line else {
        return format!(
            "{:<40} error: {}",
            r.path,
            r.why.as_deref().unwrap_or("no answer")
        );
    };
    let text = |k: &str| match v.get(k) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Bool(b)) => if *b { "yes" } else { "no" }.to_string(),
        Some(Value::Number(n)) => n.to_string(),
        _ => "-".to_string(),
    };
    let result = match v.get("for") {
        Some(Value::String(p)) => format!("{} ({p})", text("result")),
        _ => text("result"),
    };
    let steps = match v.get("steps") {
        Some(_) => text("steps"),
        None => text("plies"),
    };
    let shortcut = match v.get("intended") {
        Some(i) => match i.get("shortcut").and_then(Value::as_bool) {
            Some(true) => format!(
                "yes (-{})",
                i.get("shorter_by").map_or(0, |n| n.as_u64().unwrap_or(0))
            ),
            Some(false) => "no".into(),
            None => "-".into(),
        },
        None => "-".into(),
    };
    let seconds = v
        .get("seconds")
        .and_then(Value::as_f64)
        .map_or("-".into(), |s| format!("{s:.3}"));
    format!(
        "{:<40} {:<11} {:>6} {:<8} {:<7} {:<9} {:>8}",
        r.path,
        result,
        steps,
        text("shortest"),
        text("unique"),
        shortcut,
        seconds
    )
}
