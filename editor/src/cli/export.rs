//! `tilesmith render` (a level as a PNG) and `tilesmith gif` (a play as an animated GIF),
//! headless. Bad levels print located problems and exit 1; an image over the size limits
//! exits 2 with a message saying the limit. See `docs/export.md`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use tilesmith_editor::doc::registry::Kinds;
use tilesmith_editor::doc::ui::KindUis;
use tilesmith_editor::export::gif::{GifOptions, Step, write_play};
use tilesmith_editor::export::{Options, Renderer, open, write_png};
use tilesmith_engine::input::split_inputs;
use tilesmith_engine::json_text::StagedFile;
use tilesmith_engine::replay::Replay;
use tilesmith_engine::{Document, Input, LoadError, Problem, load_file, parse_inputs};

use super::common::print_problems;

/// Arguments of `tilesmith render`.
#[derive(Debug, clap::Args)]
pub struct RenderArgs {
    /// The level file (any kind).
    pub level: PathBuf,
    /// The PNG file to write.
    #[arg(long)]
    pub out: PathBuf,
    /// Pixels per cell (1 to 256): the image is width × SCALE by height × SCALE pixels.
    #[arg(long, default_value_t = 16,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(tilesmith_editor::export::MAX_SCALE)))]
    pub scale: u32,
    /// Draw the canvas's grid lines (at 6 pixels per cell and more).
    #[arg(long)]
    pub grid: bool,
}

/// Arguments of `tilesmith gif`.
#[derive(Debug, clap::Args)]
pub struct GifArgs {
    /// The level file (not needed with `--replay`).
    #[arg(required_unless_present = "replay")]
    pub level: Option<PathBuf>,
    /// The inputs, one per step, in the words of `tilesmith run --inputs`.
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    pub inputs: String,
    /// Play a replay file's level, seed and inputs instead.
    #[arg(long, conflicts_with_all = ["level", "inputs", "seed"])]
    pub replay: Option<PathBuf>,
    /// Seed of the random number generator.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The GIF file to write.
    #[arg(long)]
    pub out: PathBuf,
    /// Pixels per cell (1 to 256).
    #[arg(long, default_value_t = 16,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(tilesmith_editor::export::MAX_SCALE)))]
    pub scale: u32,
    /// Frames per second (1 to 100).
    #[arg(long, default_value_t = 4)]
    pub fps: u32,
    /// One frame every N steps (for kinds whose steps are frames, such as falling blocks);
    /// the last step always has a frame.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub every: u64,
    /// Outline the cells each step changed and name the step's input and the rules that
    /// fired in a caption band below the map.
    #[arg(long)]
    pub highlight: bool,
    /// Draw the canvas's grid lines.
    #[arg(long)]
    pub grid: bool,
}

/// Loads a level, or prints its problems and gives the exit code.
fn load_level(file: &Path) -> Result<Document, ExitCode> {
    let fail = |p: Vec<Problem>| {
        print_problems(file, &p);
        ExitCode::FAILURE
    };
    let doc = match load_file(file) {
        Ok(d) => d,
        Err(LoadError::Io(e)) => {
            eprintln!("{}:1:1: cannot read the file: {e}", file.display());
            return Err(ExitCode::FAILURE);
        }
        Err(LoadError::Problems(p)) => return Err(fail(p)),
    };
    let errors: Vec<Problem> = doc.check().into_iter().filter(Problem::is_error).collect();
    if !errors.is_empty() {
        return Err(fail(errors));
    }
    Ok(doc)
}

/// A message for an image of `file` that cannot be made (too large for the limits of
/// `docs/reliability.md`): exit 1, as for any level the command cannot turn into an image.
/// (A `--scale` outside 1 to 256 is a usage error, refused by the argument parser: exit 2.)
fn too_large(file: &std::path::Path, msg: &str) -> ExitCode {
    eprintln!("{}: {msg}", file.display());
    ExitCode::FAILURE
}

/// `tilesmith render`, drawing with `lists` (the kinds and their UIs).
pub fn render(a: &RenderArgs, lists: (Kinds, KindUis)) -> ExitCode {
    let doc = match load_level(&a.level) {
        Ok(d) => d,
        Err(c) => return c,
    };
    let (st, mut kind) = match open(lists, &doc.value) {
        Ok(x) => x,
        Err(p) => {
            print_problems(&a.level, &p);
            return ExitCode::FAILURE;
        }
    };
    let opts = Options {
        scale: a.scale,
        grid: a.grid,
        overlays: false,
    };
    let image = match Renderer::new().render(&st, kind.as_mut(), &opts, None) {
        Ok(p) => p,
        Err(e) => return too_large(&a.level, &e),
    };
    match write_png(&image, &a.out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

/// The steps of `--inputs` for a level: inputs of the kind's table, or words read as played.
fn steps_of(doc: &Document, text: &str) -> Result<Vec<Step>, String> {
    if doc.kind.positional_inputs() {
        let runs = split_inputs(text).map_err(|e| format!("--inputs: {e}"))?;
        Ok(runs
            .iter()
            .flat_map(|r| (0..r.count).map(|_| Step::Word(r.word.to_string())))
            .collect())
    } else {
        let inputs = parse_inputs(doc.kind, text).map_err(|e| format!("--inputs: {e}"))?;
        Ok(inputs.into_iter().map(Step::Input).collect())
    }
}

/// The level, steps and seed of a `gif` command, or the exit code after printing why not.
fn play_of(a: &GifArgs) -> Result<(PathBuf, Document, Vec<Step>, u64), ExitCode> {
    if let Some(r) = &a.replay {
        let replay = Replay::load(r).map_err(|e| {
            match e {
                LoadError::Io(e) => eprintln!("{}:1:1: cannot read the file: {e}", r.display()),
                LoadError::Problems(p) => print_problems(r, &p),
            }
            ExitCode::FAILURE
        })?;
        let doc = replay.document().map_err(|e| {
            match e {
                LoadError::Io(e) => eprintln!("{}: cannot read its level: {e}", r.display()),
                LoadError::Problems(p) => print_problems(r, &p),
            }
            ExitCode::FAILURE
        })?;
        let steps = (0..replay.ticks)
            .map(|t| {
                Step::Input(
                    replay
                        .inputs
                        .get(t as usize)
                        .copied()
                        .unwrap_or(Input::Wait),
                )
            })
            .collect();
        return Ok((r.clone(), doc, steps, replay.seed));
    }
    let Some(level) = &a.level else {
        eprintln!("tilesmith: gif needs a LEVEL file or --replay FILE");
        return Err(ExitCode::FAILURE);
    };
    let doc = load_level(level)?;
    let steps = steps_of(&doc, &a.inputs).map_err(|e| {
        eprintln!("tilesmith: {e}");
        ExitCode::FAILURE
    })?;
    Ok((level.clone(), doc, steps, a.seed))
}

/// `tilesmith gif`, drawing with `lists` (the kinds and their UIs).
pub fn gif(a: &GifArgs, lists: (Kinds, KindUis)) -> ExitCode {
    let (file, doc, steps, seed) = match play_of(a) {
        Ok(x) => x,
        Err(c) => return c,
    };
    let (mut st, mut kind) = match open(lists, &doc.value) {
        Ok(x) => x,
        Err(p) => {
            print_problems(&file, &p);
            return ExitCode::FAILURE;
        }
    };
    let (w, h) = st.map_size();
    let band = if a.highlight {
        tilesmith_editor::export::CAPTION_PX
    } else {
        0
    };
    let size = match tilesmith_editor::export::image_size(w, h, a.scale, band) {
        Ok(size) => size,
        Err(e) => return too_large(&file, &e),
    };
    if let Err(e) = tilesmith_editor::export::gif::check_gif_size(steps.len() as u64, a.every, size)
    {
        eprintln!("{}: {e}", file.display());
        return ExitCode::FAILURE;
    }
    if !(1..=100).contains(&a.fps) {
        eprintln!("tilesmith: --fps {}: must be 1 to 100", a.fps);
        return ExitCode::from(2);
    }
    let go = GifOptions {
        frame: Options {
            scale: a.scale,
            grid: a.grid,
            overlays: a.highlight,
        },
        fps: a.fps,
        every: a.every,
    };
    // Written beside the target and put in place only when whole (an error leaves no partial
    // GIF, and an old file of that name as it was).
    let mut staged = match StagedFile::new(&a.out) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("{}: cannot write: {e}", a.out.display());
            return ExitCode::FAILURE;
        }
    };
    let out = std::io::BufWriter::new(staged.file());
    let total = steps.len() as u64;
    let bar = indicatif::ProgressBar::new(total);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} steps, {eta} left")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let result = write_play(
        &mut st,
        kind.as_mut(),
        (&steps, seed),
        &go,
        out,
        &mut |done, _| {
            bar.set_position(done);
            true
        },
    );
    bar.finish_and_clear();
    match result.and_then(|frames| {
        staged
            .commit()
            .map(|()| frames.unwrap_or(0))
            .map_err(|e| format!("{}: cannot write: {e}", a.out.display()))
    }) {
        Ok(frames) => {
            eprintln!("{}: {frames} frames for {total} steps", a.out.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{}: {e}", file.display());
            ExitCode::FAILURE
        }
    }
}
