//! `tilesmith render` and `tilesmith gif` as a user runs them: image sizes, the colours of
//! known cells (worked out from each kind's look: base colours and glyph geometry), GIF frame
//! counts, the play highlight, and the errors for bad input.

#![allow(clippy::unwrap_used)] // test helpers panic on purpose when a fixture is wrong

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::{Value, json};
use tiny_skia::Pixmap;

fn tilesmith(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tilesmith"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tilesmith-export-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn write(name: &str, v: &Value) -> PathBuf {
    let p = tmp(name);
    std::fs::write(&p, serde_json::to_string_pretty(v).unwrap()).unwrap();
    p
}

fn ok(o: &Output) {
    assert!(
        o.status.success(),
        "exit {:?}, stderr {}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
}

fn render(level: &std::path::Path, out: &str, extra: &[&str]) -> Pixmap {
    let out = tmp(out);
    let mut args = vec![
        "render",
        level.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    ok(&tilesmith(&args));
    Pixmap::load_png(&out).unwrap()
}

fn rgb(p: &Pixmap, x: u32, y: u32) -> [u8; 3] {
    let c = p.pixel(x, y).unwrap().demultiply();
    [c.red(), c.green(), c.blue()]
}

/// The frames of a GIF as RGBA buffers (width, height, frames).
fn gif_frames(path: &std::path::Path) -> (u32, u32, Vec<Vec<u8>>) {
    let mut opts = gif::DecodeOptions::new();
    opts.set_color_output(gif::ColorOutput::RGBA);
    let mut d = opts.read_info(std::fs::File::open(path).unwrap()).unwrap();
    let (w, h) = (d.width() as u32, d.height() as u32);
    let mut frames = Vec::new();
    while let Some(f) = d.read_next_frame().unwrap() {
        assert_eq!((f.width as u32, f.height as u32), (w, h), "whole frames");
        frames.push(f.buffer.to_vec());
    }
    (w, h, frames)
}

fn px(frame: &[u8], w: u32, x: u32, y: u32) -> [u8; 3] {
    let i = ((y * w + x) * 4) as usize;
    [frame[i], frame[i + 1], frame[i + 2]]
}

fn boulder_level() -> Value {
    json!({
        "kind": "boulder",
        "width": 3,
        "height": 2,
        "gems": [1, 2, 3],
        "ticks": [100, 50, 20],
        "map": [["gem", "wall", "mud"], ["me", "mud", "path"]]
    })
}

#[test]
fn boulder_render_size_and_token_colours() {
    let level = write("boulder.json", &boulder_level());
    let p = render(&level, "boulder.png", &["--scale", "32"]);
    assert_eq!(
        (p.width(), p.height()),
        (96, 64),
        "3 × 2 cells at 32 pixels"
    );
    // Gem (boulder look): the path colour in the corners, a white diamond, and the gem's
    // base colour (40, 220, 230) inside the inner diamond, 0.16..0.84 of the cell.
    assert_eq!(rgb(&p, 16, 16), [40, 220, 230]);
    assert_eq!(
        rgb(&p, 1, 1),
        [22, 22, 26],
        "path colour outside the diamond"
    );
    // The white rim: between the outer (0.06) and inner (0.16) diamond on the middle row:
    // pixel 3 (centre 3.5 = 0.109 of the cell).
    assert_eq!(rgb(&p, 3, 16), [255, 255, 255]);
    // Wall: base (70, 76, 96); a frame (120, 128, 150) inset 0.1 of the cell (3.2 px) and
    // 0.08 × 32 = 2.56 px wide: pixel 4 (centre 4.5) of the cell is on it.
    assert_eq!(rgb(&p, 32 + 16, 16), [70, 76, 96]);
    assert_eq!(rgb(&p, 32 + 4, 16), [120, 128, 150]);
    // Path: its base colour everywhere.
    assert_eq!(rgb(&p, 64 + 16, 32 + 16), [22, 22, 26]);
    // At 4 pixels per cell (under the 10-pixel glyph size) each cell is its base colour.
    let small = render(&level, "boulder-small.png", &["--scale", "4"]);
    assert_eq!((small.width(), small.height()), (12, 8));
    assert_eq!(rgb(&small, 1, 1), [40, 220, 230]);
    assert_eq!(rgb(&small, 9, 1), [122, 84, 48], "mud");
    assert_eq!(rgb(&small, 1, 5), [255, 214, 0], "me");
}

#[test]
fn boulder_gif_frames_and_highlight() {
    let level = write("boulder-gif.json", &boulder_level());
    let out = tmp("boulder.gif");
    let o = tilesmith(&[
        "gif",
        level.to_str().unwrap(),
        "--inputs",
        "R R",
        "--scale",
        "32",
        "--highlight",
        "--out",
        out.to_str().unwrap(),
    ]);
    ok(&o);
    let (w, h, frames) = gif_frames(&out);
    assert_eq!(frames.len(), 3, "the start and one frame per step");
    assert_eq!(w, 96);
    assert!(h > 64, "a caption band below the 64-pixel map: {h}");
    // Frame 0: me at (0, 1), drawn on its base colour (255, 214, 0) at the cell's corner.
    assert_eq!(px(&frames[0], w, 34 - 32, 32 + 30), [255, 214, 0]);
    // Step 1: me walks right into the mud at (1, 1); both cells changed, so both carry the
    // yellow (255, 255, 0) play highlight, 3 pixels wide inside the cell shrunk by 1.
    assert_eq!(px(&frames[1], w, 2, 32 + 16), [255, 255, 0]);
    assert_eq!(px(&frames[1], w, 32 + 2, 32 + 16), [255, 255, 0]);
    // The cell left behind is path now (its centre).
    assert_eq!(px(&frames[1], w, 16, 32 + 16), [22, 22, 26]);
    // Untouched wall: no highlight.
    assert_eq!(px(&frames[1], w, 32 + 16, 16), [70, 76, 96]);
    // Without --highlight: no caption band, no outline.
    let plain = tmp("boulder-plain.gif");
    ok(&tilesmith(&[
        "gif",
        level.to_str().unwrap(),
        "--inputs",
        "R",
        "--scale",
        "32",
        "--out",
        plain.to_str().unwrap(),
    ]));
    let (w, h, frames) = gif_frames(&plain);
    assert_eq!((w, h, frames.len()), (96, 64, 2));
    assert_ne!(px(&frames[1], w, 2, 32 + 16), [255, 255, 0]);
}

#[test]
fn baba_render_and_gif() {
    let level = write(
        "baba.json",
        &json!({
            "kind": "baba",
            "width": 4,
            "height": 3,
            "map": [
                ["text_baba", "text_is", "text_you", null],
                [null, "baba", null, null],
                [null, null, null, null]
            ]
        }),
    );
    // At 8 pixels per cell (under baba's 10-pixel drawing size) cells are their top tile's
    // colour: baba (245, 245, 245), an empty cell (21, 24, 31).
    let p = render(&level, "baba.png", &["--scale", "8"]);
    assert_eq!((p.width(), p.height()), (32, 24));
    assert_eq!(rgb(&p, 8 + 4, 8 + 4), [245, 245, 245]);
    assert_eq!(rgb(&p, 24 + 4, 16 + 4), [21, 24, 31]);
    // At 32 pixels the text tiles get their letters: the noun's cell holds more than one
    // colour.
    let big = render(&level, "baba-big.png", &["--scale", "32"]);
    assert_eq!((big.width(), big.height()), (128, 96));
    let mut colours = std::collections::HashSet::new();
    for y in 0..32 {
        for x in 0..32 {
            colours.insert(rgb(&big, x, y));
        }
    }
    assert!(colours.len() > 2, "a text tile with letters: {colours:?}");
    assert_eq!(rgb(&big, 96 + 16, 64 + 16), [21, 24, 31]);
    // A turn moving baba right: 2 steps give 3 frames; baba now at (3, 1).
    let out = tmp("baba.gif");
    ok(&tilesmith(&[
        "gif",
        level.to_str().unwrap(),
        "--inputs",
        "R R",
        "--scale",
        "8",
        "--out",
        out.to_str().unwrap(),
    ]));
    let (w, h, frames) = gif_frames(&out);
    assert_eq!((w, h, frames.len()), (32, 24, 3));
    assert_eq!(px(&frames[2], w, 24 + 4, 8 + 4), [245, 245, 245]);
    assert_eq!(px(&frames[2], w, 8 + 4, 8 + 4), [21, 24, 31]);
}

/// Colour words (Tier 2, spec §5.13) recolour what they apply to, in the exporter as on the
/// canvas (one drawing): BABA IS RED draws baba in red (229, 83, 59) and LEVEL IS BLUE shades
/// the background with blue (65, 105, 225): 0.7 × (21, 24, 31) + 0.3 × (65, 105, 225) =
/// (34, 48, 89) rounded.
#[test]
fn baba_colour_words_tint_objects_and_the_level() {
    let level = write(
        "baba-colours.json",
        &json!({
            "kind": "baba",
            "width": 4,
            "height": 3,
            "map": [
                ["text_baba", "text_is", "text_red", null],
                ["text_level", "text_is", "text_blue", null],
                [null, "baba", null, null]
            ]
        }),
    );
    let p = render(&level, "baba-colours.png", &["--scale", "8"]);
    assert_eq!(rgb(&p, 8 + 4, 16 + 4), [229, 83, 59], "baba is red");
    assert_eq!(rgb(&p, 24 + 4, 16 + 4), [34, 48, 89], "the level is blue");
    // Drawn at 32 pixels: baba's figure body takes the red, none of its white is left.
    let big = render(&level, "baba-colours-big.png", &["--scale", "32"]);
    let cell: Vec<[u8; 3]> = (64..96)
        .flat_map(|y| (32..64).map(move |x| (x, y)))
        .map(|(x, y)| rgb(&big, x, y))
        .collect();
    assert!(cell.contains(&[229, 83, 59]), "red body");
    assert!(!cell.contains(&[245, 245, 245]), "no white left");
    // Without the colour rules, the same baba is white.
    let plain = write(
        "baba-white.json",
        &json!({"kind": "baba", "width": 2, "height": 1, "map": [["baba", null]]}),
    );
    let w = render(&plain, "baba-white.png", &["--scale", "8"]);
    assert_eq!(rgb(&w, 4, 4), [245, 245, 245]);
    assert_eq!(rgb(&w, 12, 4), [21, 24, 31]);
}

fn falling_level() -> Value {
    json!({
        "kind": "falling",
        "width": 4,
        "height": 6,
        "blocks": [
            {"name": "I", "color": [0, 220, 240], "form": "square"}
        ],
        "tumos": [{
            "name": "I",
            "states": [[[-1, -1], [0, 0]]]
        }],
        "legend": {"X": "I"},
        "field": ["....", "....", "....", "....", "....", "X..X"]
    })
}

#[test]
fn falling_render_square_block() {
    let level = write("falling.json", &falling_level());
    let p = render(&level, "falling.png", &["--scale", "32"]);
    assert_eq!((p.width(), p.height()), (128, 192));
    // A square block (falling look): inset 4 % (1.28 px), a dark edge up to 2 px inside
    // that, the block's colour (0, 220, 240) out to the bevel at 0.04 + 0.18 × 0.92 of the
    // cell (6.6 px), and the bevel 1.15 times brighter (saturating): (0, 253, 255).
    let (x0, y0) = (0, 5 * 32);
    assert_eq!(rgb(&p, x0 + 4, y0 + 16), [0, 220, 240]);
    assert_eq!(rgb(&p, x0 + 16, y0 + 16), [0, 253, 255]);
    // An empty cell of the well: (18, 20, 28).
    assert_eq!(rgb(&p, 32 + 16, 16), [18, 20, 28]);
}

#[test]
fn falling_gif_every_nth_frame() {
    let level = write("falling-gif.json", &falling_level());
    let out = tmp("falling.gif");
    ok(&tilesmith(&[
        "gif",
        level.to_str().unwrap(),
        "--inputs",
        ".*10",
        "--every",
        "4",
        "--scale",
        "8",
        "--out",
        out.to_str().unwrap(),
    ]));
    let (w, h, frames) = gif_frames(&out);
    // Start, steps 4 and 8, and the last step 10.
    assert_eq!((w, h, frames.len()), (32, 48, 4));
}

#[test]
fn board_render_and_gif() {
    let level =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../levels/board/tic-tac-toe-x-to-win.json");
    let p = render(&level, "board.png", &["--scale", "20"]);
    assert_eq!(p.width() % 20, 0);
    assert_eq!(p.height() % 20, 0);
    // The board's squares are drawn in the board look's plain square colour somewhere, and
    // the coordinate margin in the off-board colour.
    let mut seen = std::collections::HashSet::new();
    for y in 0..p.height() {
        for x in 0..p.width() {
            seen.insert(rgb(&p, x, y));
        }
    }
    assert!(seen.contains(&[222, 204, 170]), "plain squares");
    assert!(seen.contains(&[34, 34, 40]), "the margin");
    let out = tmp("board.gif");
    ok(&tilesmith(&[
        "gif",
        level.to_str().unwrap(),
        "--inputs",
        "@c3",
        "--scale",
        "20",
        "--out",
        out.to_str().unwrap(),
    ]));
    let (w, h, frames) = gif_frames(&out);
    assert_eq!((w, h, frames.len()), (p.width(), p.height(), 2));
    assert_ne!(frames[0], frames[1], "the move shows");
}

#[test]
fn bad_input_is_located_and_absurd_sizes_are_refused() {
    let bad = tmp("bad.json");
    std::fs::write(&bad, "{\"kind\": \"boulder\", \"width\": 2,,}").unwrap();
    let o = tilesmith(&[
        "render",
        bad.to_str().unwrap(),
        "--out",
        tmp("x.png").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("bad.json:1:"), "{err}");
    let level = write("big.json", &boulder_level());
    let o = tilesmith(&[
        "render",
        level.to_str().unwrap(),
        "--scale",
        "100000",
        "--out",
        tmp("y.png").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--scale"));
    let o = tilesmith(&[
        "gif",
        level.to_str().unwrap(),
        "--inputs",
        "Q",
        "--out",
        tmp("z.gif").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
}

/// Issue #31 defect 5: a GIF that fails part way (a word that is no legal move, after the
/// first frame was written) leaves no partial file, and an old file of that name as it was;
/// the same for a PNG that cannot be made.
#[test]
fn a_failed_export_leaves_no_partial_file_and_the_old_one_untouched() {
    let level = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../levels/board/tic-tac-toe.zrf");
    let fresh = tmp("failed-fresh.gif");
    let _ = std::fs::remove_file(&fresh);
    let o = tilesmith(&[
        "gif",
        level.to_str().unwrap(),
        "--inputs",
        "@b2 b2",
        "--out",
        fresh.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("\"b2\" is not legal"));
    assert!(
        !fresh.exists(),
        "a partial GIF was left at {}",
        fresh.display()
    );
    let old = tmp("failed-old.gif");
    std::fs::write(&old, b"an older export").unwrap();
    let o = tilesmith(&[
        "gif",
        level.to_str().unwrap(),
        "--inputs",
        "@b2 b2",
        "--out",
        old.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(std::fs::read(&old).unwrap(), b"an older export");
    // No temporary file is left beside them either.
    let dir = fresh.parent().unwrap();
    let left: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "temporary files left: {left:?}");
    // A whole GIF still replaces the old file.
    let o = tilesmith(&[
        "gif",
        level.to_str().unwrap(),
        "--inputs",
        "@b2",
        "--out",
        old.to_str().unwrap(),
    ]);
    ok(&o);
    let (_, _, frames) = gif_frames(&old);
    assert_eq!(frames.len(), 2, "the start and one ply");
}

#[test]
fn a_gif_over_its_frame_or_pixel_limit_is_refused_before_anything_is_written() {
    // The 3 × 2 level: 10 000 steps at every step are 10 001 frames (the start and one a
    // step), one over MAX_GIF_FRAMES; at --every 2 they are 5 001 frames and fit.
    let level = write("boulder-limit.json", &boulder_level());
    let out = tmp("limit.gif");
    let _ = std::fs::remove_file(&out);
    let o = tilesmith(&[
        "gif",
        level.to_str().unwrap(),
        "--inputs",
        "R L*5000 R*4999",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(
        err.contains("10000 steps give 10001 frames, over the limit of 10000"),
        "{err}"
    );
    assert!(!out.exists(), "nothing is written");
    // At 256 pixels a cell a frame is 768 × 512 = 393 216 pixels: 2 731 frames (2 730
    // steps) are 1 073 872 896 pixels, over 1 Gi (1 073 741 824); 2 730 frames fit.
    let o = tilesmith(&[
        "gif",
        level.to_str().unwrap(),
        "--inputs",
        ".*2730",
        "--scale",
        "256",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(
        err.contains("2731 frames of 768 × 512 pixels are 1073872896 pixels, over the limit"),
        "{err}"
    );
    assert!(!out.exists(), "nothing is written");
}

#[test]
fn a_pasta_program_renders_as_its_cards() {
    // A kind without a grid draws its own canvas: the image is 60 × 38 cells of --scale
    // pixels (NO_GRID_CELLS), 960 × 608 at 16. The program of the shipped level, in line order:
    // Increment (a Parameter card), Reorder, AddFlag, MoveFlag (Flag cards), ForkBomb,
    // Debug (Life), then TradeOff, Bug (Life) on a second row: each card's title band has its
    // category's colour (docs/pasta-editor.md).
    let level = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../levels/pasta/program-after-placement.json");
    let p = render(&level, "pasta.png", &[]);
    assert_eq!((p.width(), p.height()), (960, 608));
    let parameter = [120, 95, 200];
    let flag = [40, 135, 115];
    let life = [185, 70, 115];
    assert_eq!(rgb(&p, 20, 50), parameter, "Increment");
    assert_eq!(rgb(&p, 170, 50), flag, "Reorder");
    assert_eq!(rgb(&p, 615, 50), life, "ForkBomb");
    assert_eq!(rgb(&p, 20, 210), life, "TradeOff, on the second row");
    // Nothing is drawn below the second row.
    assert_eq!(rgb(&p, 20, 400), rgb(&p, 950, 600), "background");
}

#[test]
fn an_image_over_the_pixel_limit_is_refused_with_exit_1_and_a_bad_scale_with_exit_2() {
    // 65 cells wide at 256 pixels a cell is 16 640 pixels, over MAX_SIDE_PX (16 384): the
    // level cannot be drawn at that scale, an error of this level (exit 1, its file named),
    // as a GIF over its limits is (issue #30, "Bounded commands").
    let mut row = vec![json!("path"); 65];
    row[0] = json!("me");
    let wide = json!({"kind": "boulder", "width": 65, "height": 1, "gems": [1, 2, 3],
        "ticks": [100, 50, 20], "map": [row]});
    let level = write("boulder-wide.json", &wide);
    let out = tmp("wide.png");
    let _ = std::fs::remove_file(&out);
    for cmd in ["render", "gif"] {
        let o = tilesmith(&[
            cmd,
            level.to_str().unwrap(),
            "--scale",
            "256",
            "--out",
            out.to_str().unwrap(),
        ]);
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert_eq!(o.status.code(), Some(1), "{cmd}: {err}");
        assert!(
            err.contains("boulder-wide.json: a 65 × 1 map at 256 pixels per cell is 16640 × 256 pixels, over the limit"),
            "{cmd}: {err}"
        );
        assert!(!out.exists(), "{cmd}: nothing is written");
    }
    // At 252 pixels a cell it is 16 380 pixels wide: drawn.
    let p = render(&level, "wide-ok.png", &["--scale", "252"]);
    assert_eq!((p.width(), p.height()), (16_380, 252));
    // A scale outside 1 to 256 is a usage error, refused before the level is read.
    for scale in ["0", "257"] {
        let o = tilesmith(&[
            "render",
            "no-such-file.json",
            "--scale",
            scale,
            "--out",
            "x.png",
        ]);
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert_eq!(o.status.code(), Some(2), "--scale {scale}: {err}");
        assert!(err.contains("--scale"), "{err}");
    }
}
