//! Animated GIFs of a play: the map at the start, then one frame per step (per tick or turn;
//! for a kind whose steps are frames, every `every`-th step and the last), encoded by the
//! `gif` crate (its own palette quantisation per frame; a frame of at most 256 colours keeps
//! them exactly).

use std::io::Write;

use tilesmith_engine::observe::Phase;
use tilesmith_engine::{Input, StepReport};

use super::{Options, Renderer};
use crate::doc::ui::KindUi;
use crate::state::EditorState;

/// One step of a play to export.
#[derive(Clone, Debug)]
pub enum Step {
    /// An input of the kind's table (or a replay's recorded input).
    Input(Input),
    /// A word read in the position where it is played (a board move such as `c3-d4`).
    Word(String),
}

/// How a GIF is made.
#[derive(Clone, Copy, Debug)]
pub struct GifOptions {
    /// What each frame draws; `overlays` also adds the caption band naming the step's input
    /// and the rules that fired.
    pub frame: Options,
    /// Frames per second (1 to 100; a GIF's delay is in hundredths of a second).
    pub fps: u32,
    /// One frame every this many steps (1 = every step); the last step always has a frame.
    pub every: u64,
}

/// The number of frames a play of `steps` steps gives: the start, every `every`-th step, and
/// the last step.
pub fn frame_count(steps: u64, every: u64) -> u64 {
    let every = every.max(1);
    1 + steps / every + u64::from(!steps.is_multiple_of(every))
}

/// The most frames a GIF may have (issue #30, "Bounded commands").
pub const MAX_GIF_FRAMES: u64 = 10_000;
/// The most pixels a GIF may have over all its frames: 1 Gi pixels, about half a minute of
/// encoding here. A 40 × 22 boulder map at 16 pixels per cell (225 280 pixels a frame) may
/// have 4 766 frames.
pub const MAX_GIF_PIXELS: u64 = 1024 * 1024 * 1024;

/// Refuses, before anything is drawn or written, a GIF of `steps` steps (a frame every
/// `every`) at `w` × `h` pixels a frame that would have more than [`MAX_GIF_FRAMES`] frames or
/// [`MAX_GIF_PIXELS`] pixels in all. The count is [`frame_count`]: a game that ends early
/// gives fewer frames, but the limit holds for the steps asked for.
///
/// # Errors
/// A message naming the figures and what to change (`--every`, `--scale`, fewer steps).
pub fn check_gif_size(steps: u64, every: u64, (w, h): (u32, u32)) -> Result<(), String> {
    let frames = frame_count(steps, every);
    if frames > MAX_GIF_FRAMES {
        return Err(format!(
            "{steps} steps give {frames} frames, over the limit of {MAX_GIF_FRAMES}: use a \
             larger --every or fewer steps"
        ));
    }
    let pixels = frames.saturating_mul(u64::from(w) * u64::from(h));
    if pixels > MAX_GIF_PIXELS {
        return Err(format!(
            "{frames} frames of {w} × {h} pixels are {pixels} pixels, over the limit of \
             {MAX_GIF_PIXELS}: use a smaller --scale, a larger --every or fewer steps"
        ));
    }
    Ok(())
}

/// The caption of a step: its number, its input's word and the rules that fired.
fn caption(n: u64, word: Option<&str>, report: Option<&StepReport>) -> String {
    let mut s = format!("step {n}");
    if let Some(w) = word {
        s.push_str(&format!(" {w}"));
    }
    let rules: Vec<String> = report
        .map(|r| {
            r.fired
                .iter()
                .map(|f| match (&f.name, &f.phase) {
                    (Some(name), _) => name.clone(),
                    (None, Phase::Pre(i)) => format!("pre rule {i}"),
                    (None, Phase::Post(i)) => format!("post rule {i}"),
                    (None, p) => format!("{p:?}"),
                })
                .collect()
        })
        .unwrap_or_default();
    if !rules.is_empty() {
        s.push_str(&format!(": {}", rules.join(", ")));
    }
    s
}

/// Plays `steps` from the start of the design in `st` (RNG seed `seed`) and writes the GIF to
/// `out` (whole only when this gives `Ok(Some(_))`: the caller stages the file, see
/// [`tilesmith_engine::json_text::StagedFile`]). `progress(done, total)` is called after each step; when it returns false the export
/// stops (cancelled) and gives `Ok(None)`. Gives the number of frames written.
///
/// # Errors
/// The design's first problem when it cannot be played, a word that is no legal input where it
/// is played, an image too large, or an encoding or write error.
pub fn write_play<W: Write>(
    st: &mut EditorState,
    kind: &mut dyn KindUi,
    (steps, seed): (&[Step], u64),
    go: &GifOptions,
    out: W,
    progress: &mut dyn FnMut(u64, u64) -> bool,
) -> Result<Option<u64>, String> {
    if !(1..=100).contains(&go.fps) {
        return Err(format!("--fps {}: must be 1 to 100", go.fps));
    }
    st.doc.start_play(seed).map_err(|p| {
        p.first()
            .map_or("the level cannot be played".into(), |p| p.render("level"))
    })?;
    let mut renderer = Renderer::new();
    let with_caption = go.frame.overlays;
    // The limits are checked before the first frame is drawn.
    let (w, h) = super::frame_size(st, &go.frame, with_caption)?;
    check_gif_size(steps.len() as u64, go.every, (w, h))?;
    let first = renderer.render(st, kind, &go.frame, with_caption.then_some("start"))?;
    let (gw, gh) = (
        u16::try_from(w).map_err(|_| "the GIF would be wider than 65535 pixels")?,
        u16::try_from(h).map_err(|_| "the GIF would be higher than 65535 pixels")?,
    );
    let mut enc = ::gif::Encoder::new(out, gw, gh, &[]).map_err(|e| e.to_string())?;
    enc.set_repeat(::gif::Repeat::Infinite)
        .map_err(|e| e.to_string())?;
    let delay = (100 / go.fps).max(1) as u16;
    let mut put = |p: &tiny_skia::Pixmap| -> Result<(), String> {
        let mut rgba = super::rgba(p);
        let mut f = ::gif::Frame::from_rgba_speed(gw, gh, &mut rgba, 10);
        f.delay = delay;
        enc.write_frame(&f).map_err(|e| e.to_string())
    };
    put(&first)?;
    let mut frames = 1;
    let total = steps.len() as u64;
    let mut last_framed = 0;
    let mut played = 0;
    for (i, step) in steps.iter().enumerate() {
        let n = i as u64 + 1;
        let game = &st.doc.play().ok_or("the play stopped")?.game;
        let (input, word) = match step {
            Step::Input(input) => (*input, game.input_word(*input)),
            Step::Word(wd) => (
                game.read_input(wd)
                    .map_err(|e| format!("--inputs: step {n}: {e}"))?,
                Some(wd.clone()),
            ),
        };
        // A game that is over takes no more steps (as `tilesmith run` plays).
        if !game.takes_turns() && !matches!(input, Input::Undo | Input::Restart) {
            break;
        }
        st.doc.play_step(input);
        played = n;
        if n.is_multiple_of(go.every.max(1)) || n == total {
            let text = with_caption.then(|| {
                let report = st.doc.play().and_then(|p| p.report.as_ref());
                caption(n, word.as_deref(), report)
            });
            put(&renderer.render(st, kind, &go.frame, text.as_deref())?)?;
            frames += 1;
            last_framed = n;
        }
        if !progress(n, total) {
            return Ok(None);
        }
    }
    // The game ended between frames: its last step still gets one.
    if played > last_framed {
        let text = with_caption.then(|| {
            let report = st.doc.play().and_then(|p| p.report.as_ref());
            caption(played, None, report)
        });
        put(&renderer.render(st, kind, &go.frame, text.as_deref())?)?;
        frames += 1;
    }
    // The trailer and the buffered bytes are written here, where their errors are seen (a
    // dropped encoder writes them and ignores the errors).
    let mut out = enc.into_inner().map_err(|e| e.to_string())?;
    out.flush().map_err(|e| e.to_string())?;
    Ok(Some(frames))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_count_is_start_plus_every_nth_plus_last() {
        assert_eq!(frame_count(5, 1), 6);
        assert_eq!(frame_count(10, 5), 3);
        assert_eq!(frame_count(11, 5), 4);
        assert_eq!(frame_count(0, 3), 1);
    }
}
