//! The drawings of baba objects (issue #11, docs/baba-editor.md "Cells are stacks"): the 22
//! common nouns each get a figure of their own, told apart by shape and colour, in the colour
//! the issue names for them, with their facing visible; every other noun keeps the lettered
//! tile and text stays a word tile.
//!
//! The figures are meshes; the tests rasterise them here (one sample at each pixel centre,
//! later triangles over earlier ones) and look at the pictures, not at the triangles.

#![allow(clippy::unwrap_used)] // test helpers panic on purpose when a fixture is wrong

use eframe::egui::{Color32, Mesh, Pos2, Rect, pos2, vec2};
use tilesmith_editor::kinds::baba::{figure, look};
use tilesmith_engine::Dir;
use tilesmith_engine::kind::baba::{Kind, Noun, Tile};

/// The 22 nouns issue #11 asks a drawing for.
const NOUNS: [&str; 22] = [
    "baba", "keke", "me", "rock", "wall", "flag", "skull", "water", "lava", "key", "door", "grass",
    "tile", "belt", "love", "box", "star", "ice", "tree", "hedge", "pillar", "crab",
];

const CREATURES: [&str; 4] = ["baba", "keke", "me", "crab"];

fn noun(name: &str) -> Noun {
    Noun::from_name(name).unwrap()
}

fn cell(px: f32) -> Rect {
    Rect::from_min_size(pos2(40.0, 20.0), vec2(px, px))
}

/// A picture: `n` × `n` pixels, row by row, `None` where nothing is drawn.
struct Picture {
    n: usize,
    px: Vec<Option<Color32>>,
}

impl Picture {
    /// The pixels as (x, y) in cell fractions from the centre (x right, y down) and colour.
    fn pixels(&self) -> impl Iterator<Item = (f32, f32, Color32)> + '_ {
        let n = self.n;
        self.px.iter().enumerate().filter_map(move |(i, c)| {
            let x = ((i % n) as f32 + 0.5) / n as f32 - 0.5;
            let y = ((i / n) as f32 + 0.5) / n as f32 - 0.5;
            c.map(|c| (x, y, c))
        })
    }

    /// The share of pixels where the two pictures show clearly different colours (the
    /// background counts as the empty cell colour).
    fn difference(&self, other: &Picture) -> f32 {
        let bg = Some(look::EMPTY);
        let differ = self
            .px
            .iter()
            .zip(&other.px)
            .filter(|(a, b)| {
                let (a, b) = (a.or(bg).unwrap(), b.or(bg).unwrap());
                let d = (a.r() as i32 - b.r() as i32).abs()
                    + (a.g() as i32 - b.g() as i32).abs()
                    + (a.b() as i32 - b.b() as i32).abs();
                d > 60
            })
            .count();
        differ as f32 / self.px.len() as f32
    }

    /// The colour covering most pixels.
    fn dominant(&self) -> Color32 {
        let mut counts: Vec<(Color32, usize)> = Vec::new();
        for c in self.px.iter().flatten() {
            match counts.iter_mut().find(|(k, _)| k == c) {
                Some(e) => e.1 += 1,
                None => counts.push((*c, 1)),
            }
        }
        counts.into_iter().max_by_key(|e| e.1).unwrap().0
    }

    /// The centre of the pixels whose colour satisfies `pick`, in cell fractions from the
    /// cell's centre, with their number.
    fn centroid(&self, pick: impl Fn(Color32) -> bool) -> (f32, f32, usize) {
        let (mut sx, mut sy, mut k) = (0.0, 0.0, 0);
        for (x, y, c) in self.pixels() {
            if pick(c) {
                sx += x;
                sy += y;
                k += 1;
            }
        }
        (sx / k.max(1) as f32, sy / k.max(1) as f32, k)
    }
}

fn inside(p: Pos2, a: Pos2, b: Pos2, c: Pos2) -> bool {
    let cross = |o: Pos2, u: Pos2, v: Pos2| (u.x - o.x) * (v.y - o.y) - (u.y - o.y) * (v.x - o.x);
    let (d1, d2, d3) = (cross(a, b, p), cross(b, c, p), cross(c, a, p));
    let neg = d1 < 0.0 || d2 < 0.0 || d3 < 0.0;
    let pos = d1 > 0.0 || d2 > 0.0 || d3 > 0.0;
    !(neg && pos)
}

fn rasterise(m: &Mesh, r: Rect) -> Picture {
    let n = r.width().round() as usize;
    let mut px = vec![None; n * n];
    for t in m.indices.chunks(3) {
        let [a, b, c] = [0, 1, 2].map(|k| m.vertices[t[k] as usize]);
        for (i, slot) in px.iter_mut().enumerate() {
            let p = r.min + vec2((i % n) as f32 + 0.5, (i / n) as f32 + 0.5);
            if inside(p, a.pos, b.pos, c.pos) {
                *slot = Some(a.color);
            }
        }
    }
    Picture { n, px }
}

/// The figure of `name` facing `d` in a `px`-point cell, rasterised.
fn draw(name: &str, d: Dir, px: f32) -> Picture {
    let mut m = Mesh::default();
    assert!(
        figure::add_figure(&mut m, cell(px), noun(name), d),
        "{name} has no figure"
    );
    rasterise(&m, cell(px))
}

/// Hue in degrees, saturation and value (0..1) of `c`.
fn hsv(c: Color32) -> (f32, f32, f32) {
    let [r, g, b] = [c.r(), c.g(), c.b()].map(|v| v as f32 / 255.0);
    let (max, min) = (r.max(g).max(b), r.min(g).min(b));
    let d = max - min;
    let h = if d == 0.0 {
        0.0
    } else if max == r {
        60.0 * ((g - b) / d).rem_euclid(6.0)
    } else if max == g {
        60.0 * ((b - r) / d + 2.0)
    } else {
        60.0 * ((r - g) / d + 4.0)
    };
    (h, if max == 0.0 { 0.0 } else { d / max }, max)
}

/// What issue #11 says each figure's colour is, as a test on its dominant colour.
fn colour_as_described(name: &str, c: Color32) -> bool {
    let (h, s, v) = hsv(c);
    let red = !(12.0..=345.0).contains(&h);
    let green = (90.0..150.0).contains(&h) && s > 0.3;
    match name {
        "baba" => c.r().min(c.g()).min(c.b()) > 220, // white
        "keke" => (8.0..35.0).contains(&h) && s > 0.6 && v > 0.75, // red-orange
        "me" => (260.0..320.0).contains(&h) && s > 0.3, // purple
        "rock" => (20.0..45.0).contains(&h) && s > 0.4 && (0.5..0.85).contains(&v), // brown-orange
        "wall" => s < 0.35 && v < 0.5,               // dark grey
        "flag" | "key" | "star" => (38.0..62.0).contains(&h) && s > 0.6 && v > 0.85, // yellow
        "skull" => red && v < 0.65 && s > 0.6,       // dark red
        "water" => (200.0..235.0).contains(&h) && s > 0.5, // blue
        "lava" => (15.0..40.0).contains(&h) && s > 0.7 && v > 0.85, // orange
        "door" | "crab" => red && s > 0.6 && v > 0.65, // red
        "grass" | "tree" => green && v > 0.5,        // green
        "hedge" => green && v < 0.5,                 // dark green
        "tile" | "pillar" => s < 0.2,                // grey
        "love" => (300.0..345.0).contains(&h) && s > 0.3 && v > 0.8, // pink
        "box" => (20.0..40.0).contains(&h) && s > 0.4 && (0.45..0.75).contains(&v), // brown
        "ice" => (180.0..215.0).contains(&h) && s < 0.5 && v > 0.85, // light blue
        "belt" => true, // the issue names no colour: its arrows are tested below
        _ => false,
    }
}

#[test]
fn the_22_nouns_have_figures_and_no_other_noun_has() {
    for name in NOUNS {
        assert!(figure::is_drawn(noun(name)), "{name}");
    }
    for name in ["robot", "ghost", "jelly", "brick", "bug", "cog", "fence"] {
        assert!(!figure::is_drawn(noun(name)), "{name}");
        let mut m = Mesh::default();
        assert!(!figure::add_figure(
            &mut m,
            cell(32.0),
            noun(name),
            Dir::Right
        ));
        assert!(m.vertices.is_empty(), "{name} added triangles");
    }
}

#[test]
fn each_figure_has_the_colour_the_issue_gives_it() {
    for name in NOUNS {
        let c = draw(name, Dir::Right, 32.0).dominant();
        assert!(colour_as_described(name, c), "{name}: mostly {c:?}");
    }
}

#[test]
fn every_two_figures_differ_at_16_and_at_64_points() {
    for px in [16.0, 64.0] {
        let pics: Vec<Picture> = NOUNS.iter().map(|n| draw(n, Dir::Right, px)).collect();
        for i in 0..NOUNS.len() {
            for j in i + 1..NOUNS.len() {
                let d = pics[i].difference(&pics[j]);
                assert!(
                    d > 0.12,
                    "{} and {} at {px} points differ in only {:.0}% of the pixels",
                    NOUNS[i],
                    NOUNS[j],
                    d * 100.0
                );
            }
        }
    }
}

#[test]
fn the_four_facings_of_each_figure_look_different() {
    for name in NOUNS {
        let pics: Vec<Picture> = Dir::ALL.iter().map(|d| draw(name, *d, 32.0)).collect();
        for i in 0..4 {
            for j in i + 1..4 {
                let d = pics[i].difference(&pics[j]);
                assert!(
                    d * 1024.0 >= 12.0,
                    "{name}: {:?} and {:?} differ in {} pixels",
                    Dir::ALL[i],
                    Dir::ALL[j],
                    d * 1024.0
                );
            }
        }
    }
}

fn unit(d: Dir) -> (f32, f32) {
    let (x, y) = d.delta();
    (x as f32, y as f32)
}

#[test]
fn creatures_look_the_way_they_face() {
    // The pupils are the darkest thing on a creature.
    let pupil = |c: Color32| c.r() < 40 && c.g() < 40 && c.b() < 40;
    for name in CREATURES {
        for d in Dir::ALL {
            let (fx, fy) = unit(d);
            let (ax, ay, n) = draw(name, d, 48.0).centroid(pupil);
            let (bx, by, _) = draw(name, d.reverse(), 48.0).centroid(pupil);
            assert!(n > 4, "{name} facing {d:?}: no pupils");
            let shift = (ax - bx) * fx + (ay - by) * fy;
            assert!(
                shift > 0.1,
                "{name}: the pupils facing {d:?} are only {shift:.2} cells further that way than facing the other way"
            );
        }
    }
}

#[test]
fn other_objects_mark_the_faced_edge_with_a_white_triangle() {
    let white = |c: Color32| c.r().min(c.g()).min(c.b()) >= 245;
    for name in NOUNS
        .iter()
        .filter(|n| !CREATURES.contains(n) && **n != "belt")
    {
        for d in Dir::ALL {
            let (fx, fy) = unit(d);
            let (x, y, n) = draw(name, d, 48.0).centroid(white);
            assert!(n >= 4, "{name} facing {d:?}: no marker");
            let along = x * fx + y * fy;
            assert!(
                along > 0.3,
                "{name} facing {d:?}: marker {along:.2} from the centre"
            );
            let across = (x * fy - y * fx).abs();
            assert!(
                across < 0.05,
                "{name} facing {d:?}: marker {across:.2} off the middle"
            );
        }
    }
}

#[test]
fn belt_chevrons_point_the_way_the_belt_faces() {
    // A chevron ">" is furthest forward on its axis and falls back beside it.
    let yellow = |c: Color32| c.r() > 200 && c.g() > 160 && c.b() < 120;
    for d in Dir::ALL {
        let (fx, fy) = unit(d);
        let pic = draw("belt", d, 64.0);
        let (mut on, mut beside) = (Vec::new(), Vec::new());
        for (x, y, _) in pic.pixels().filter(|p| yellow(p.2)) {
            let (u, v) = (x * fx + y * fy, (x * fy - y * fx).abs());
            if v < 0.04 {
                on.push(u);
            } else if v > 0.12 {
                beside.push(u);
            }
        }
        let mean = |v: &[f32]| v.iter().sum::<f32>() / v.len().max(1) as f32;
        assert!(
            !on.is_empty() && !beside.is_empty(),
            "belt facing {d:?}: no chevrons"
        );
        assert!(
            mean(&on) > mean(&beside) + 0.08,
            "belt facing {d:?}: chevrons do not point that way ({:.2} on the axis, {:.2} beside)",
            mean(&on),
            mean(&beside)
        );
    }
}

/// The labels `look::mesh_stack` writes over a one-tile stack in a `px`-point cell.
fn labels(t: Tile, px: f32) -> Vec<String> {
    let (mut m, mut texts) = (Mesh::default(), Vec::new());
    look::mesh_stack(&mut m, &mut texts, cell(px), &[t], &|_| {
        look::TileLook::default()
    });
    texts.into_iter().map(|t| t.1).collect()
}

#[test]
fn figures_replace_the_lettered_tile_and_other_nouns_and_text_keep_theirs() {
    let object = |name: &str| Tile::new(Kind::Entity(noun(name)));
    for name in NOUNS {
        assert_eq!(labels(object(name), 24.0), Vec::<String>::new(), "{name}");
    }
    assert_eq!(labels(object("robot"), 24.0), ["ROB"]);
    assert_eq!(labels(object("jelly"), 24.0), ["JEL"]);
    let text = Tile::new(Kind::from_token("text_baba").unwrap());
    assert_eq!(labels(text, 24.0), ["BABA"]);
    let text = Tile::new(Kind::from_token("text_rock").unwrap());
    assert_eq!(labels(text, 24.0), ["ROCK"]);
}

#[test]
fn the_canvas_mesh_of_a_figure_is_the_figure() {
    // mesh_stack draws an object as the background and then exactly its figure, so an
    // exporter that rasterises add_figure draws what the canvas shows.
    for name in NOUNS {
        let mut t = Tile::new(Kind::Entity(noun(name)));
        t.dir = Dir::Up;
        let (mut m, mut texts) = (Mesh::default(), Vec::new());
        look::mesh_stack(&mut m, &mut texts, cell(24.0), &[t], &|_| {
            look::TileLook::default()
        });
        let mut alone = Mesh::default();
        alone.add_colored_rect(cell(24.0), look::EMPTY);
        figure::add_figure(&mut alone, cell(24.0), noun(name), Dir::Up);
        assert_eq!(m.vertices, alone.vertices, "{name}");
        assert_eq!(m.indices, alone.indices, "{name}");
    }
}

/// Text tiles show their word in capitals; the letters ♯ and ♭ show `#` and `b` (the game's
/// tiles show the signs, which the editor's fonts lack; a capital B would read as the letter B).
#[test]
fn sharp_and_flat_tiles_show_their_signs_not_their_token_names() {
    let label = |token: &str| look::label(Kind::from_token(token).unwrap());
    assert_eq!(label("text_sharp"), "#");
    assert_eq!(label("text_flat"), "b");
    assert_eq!(label("text_b"), "B");
    assert_eq!(label("text_7"), "7");
    assert_eq!(label("text_baba"), "BABA");
}
