//! Rasterises egui's tessellated triangle meshes on the CPU with `tiny-skia`, so that an
//! export shows exactly the shapes the canvas sends to the GPU.
//!
//! Solid triangles (all three texture coordinates on one texel, as egui gives every untextured
//! shape) become filled paths; runs of opaque triangles of one colour are merged into one path.
//! Textured triangles (text glyphs from egui's font atlas) are filled with a pattern of the
//! atlas, tinted by the vertex colour, mapped by the affine transform that takes the
//! triangle's texture coordinates to its screen corners. Like the canvas (whose meshes carry
//! no feathering), nothing is anti-aliased: pixels whose centres lie inside a triangle are
//! painted.

use std::collections::HashMap;

use eframe::egui::epaint::{ClippedPrimitive, ImageData, ImageDelta, Primitive, Vertex};
use eframe::egui::{Color32, TextureId};
use tiny_skia::{
    FillRule, FilterQuality, Paint, PathBuilder, Pattern, Pixmap, SpreadMode, Transform,
};

/// The textures egui gave: the font atlas (and any other managed texture), kept up to date
/// from each pass's [`eframe::egui::TexturesDelta`], with tinted copies cached per colour.
#[derive(Default)]
pub struct Textures {
    images: HashMap<TextureId, Pixmap>,
    tinted: HashMap<(TextureId, [u8; 4]), Pixmap>,
}

impl Textures {
    /// Applies the texture changes of one pass (whole images or patches).
    pub fn apply(&mut self, delta: &eframe::egui::TexturesDelta) {
        for (id, deltas) in &delta.set {
            for d in deltas {
                self.set(*id, d);
            }
        }
        for id in &delta.free {
            self.images.remove(id);
        }
        if !delta.set.is_empty() || !delta.free.is_empty() {
            self.tinted.clear();
        }
    }

    fn set(&mut self, id: TextureId, d: &ImageDelta) {
        let ImageData::Color(img) = &d.image;
        let [w, h] = img.size;
        match d.pos {
            None => {
                if let Some(mut p) = Pixmap::new(w.max(1) as u32, h.max(1) as u32) {
                    copy_into(&mut p, [0, 0], [w, h], &img.pixels);
                    self.images.insert(id, p);
                }
            }
            Some(pos) => {
                if let Some(p) = self.images.get_mut(&id) {
                    copy_into(p, pos, [w, h], &img.pixels);
                }
            }
        }
    }

    /// The texture `id` multiplied by the premultiplied colour `tint`.
    fn tinted(&mut self, id: TextureId, tint: Color32) -> Option<&Pixmap> {
        let key = (id, tint.to_array());
        if !self.tinted.contains_key(&key) {
            let base = self.images.get(&id)?;
            let mut p = base.clone();
            let t = tint.to_array();
            for px in p.data_mut().chunks_exact_mut(4) {
                for (c, k) in px.iter_mut().zip(t) {
                    *c = ((*c as u16 * k as u16 + 127) / 255) as u8;
                }
            }
            self.tinted.insert(key, p);
        }
        self.tinted.get(&key)
    }

    /// The texel of texture `id` at texture coordinates `uv` (0..1), premultiplied.
    fn texel(&self, id: TextureId, uv: [f32; 2]) -> Option<[u8; 4]> {
        let p = self.images.get(&id)?;
        let x = ((uv[0] * p.width() as f32) as u32).min(p.width() - 1);
        let y = ((uv[1] * p.height() as f32) as u32).min(p.height() - 1);
        let c = p.pixel(x, y)?;
        Some([c.red(), c.green(), c.blue(), c.alpha()])
    }
}

/// Copies premultiplied egui pixels (`size` wide and high) into `p` at `pos`.
fn copy_into(p: &mut Pixmap, pos: [usize; 2], size: [usize; 2], pixels: &[Color32]) {
    let pw = p.width() as usize;
    let ph = p.height() as usize;
    let data = p.data_mut();
    for y in 0..size[1] {
        let ty = pos[1] + y;
        if ty >= ph {
            break;
        }
        for x in 0..size[0] {
            let tx = pos[0] + x;
            if tx >= pw {
                break;
            }
            if let Some(c) = pixels.get(y * size[0] + x) {
                let o = (ty * pw + tx) * 4;
                data[o..o + 4].copy_from_slice(&c.to_array());
            }
        }
    }
}

/// Multiplies two premultiplied colours channel by channel.
fn mul(a: [u8; 4], b: [u8; 4]) -> [u8; 4] {
    let m = |x: u8, y: u8| ((x as u16 * y as u16 + 127) / 255) as u8;
    [m(a[0], b[0]), m(a[1], b[1]), m(a[2], b[2]), m(a[3], b[3])]
}

/// A paint of the premultiplied colour `c`, not anti-aliased.
fn solid(c: [u8; 4]) -> Paint<'static> {
    let [r, g, b, a] =
        Color32::from_rgba_premultiplied(c[0], c[1], c[2], c[3]).to_srgba_unmultiplied();
    let mut paint = Paint::default();
    paint.set_color_rgba8(r, g, b, a);
    paint.anti_alias = false;
    paint
}

/// Adds triangle `t` to `pb`, always counter-clockwise on screen, so that overlapping
/// triangles of one path never cancel under the non-zero rule.
fn add_tri(pb: &mut PathBuilder, t: [&Vertex; 3]) {
    let [a, b, c] = t;
    let cross =
        (b.pos.x - a.pos.x) * (c.pos.y - a.pos.y) - (b.pos.y - a.pos.y) * (c.pos.x - a.pos.x);
    let (b, c) = if cross < 0.0 { (c, b) } else { (b, c) };
    pb.move_to(a.pos.x, a.pos.y);
    pb.line_to(b.pos.x, b.pos.y);
    pb.line_to(c.pos.x, c.pos.y);
    pb.close();
}

/// The affine transform taking texture pixels of a `tw` × `th` texture to screen points, from
/// the triangle's three corners; `None` when the texture coordinates are degenerate.
fn uv_to_screen(t: [&Vertex; 3], tw: f32, th: f32) -> Option<Transform> {
    let [a, b, c] = t;
    let (u0, v0) = (a.uv.x * tw, a.uv.y * th);
    let (u1, v1) = (b.uv.x * tw - u0, b.uv.y * th - v0);
    let (u2, v2) = (c.uv.x * tw - u0, c.uv.y * th - v0);
    let det = u1 * v2 - u2 * v1;
    if det.abs() < 1e-6 {
        return None;
    }
    let (x1, y1) = (b.pos.x - a.pos.x, b.pos.y - a.pos.y);
    let (x2, y2) = (c.pos.x - a.pos.x, c.pos.y - a.pos.y);
    // Screen offset = M · (texture offset); M = [x1 x2; y1 y2] · [u1 u2; v1 v2]⁻¹.
    let (i11, i12, i21, i22) = (v2 / det, -u2 / det, -v1 / det, u1 / det);
    let sx = x1 * i11 + x2 * i21;
    let kx = x1 * i12 + x2 * i22;
    let ky = y1 * i11 + y2 * i21;
    let sy = y1 * i12 + y2 * i22;
    let tx = a.pos.x - (sx * u0 + kx * v0);
    let ty = a.pos.y - (ky * u0 + sy * v0);
    Some(Transform::from_row(sx, ky, kx, sy, tx, ty))
}

/// Draws the tessellated primitives onto `target`, in order.
pub fn draw(target: &mut Pixmap, prims: &[ClippedPrimitive], tex: &mut Textures) {
    for p in prims {
        if let Primitive::Mesh(mesh) = &p.primitive {
            draw_mesh(target, mesh, tex);
        }
    }
}

fn draw_mesh(target: &mut Pixmap, mesh: &eframe::egui::Mesh, tex: &mut Textures) {
    let id = mesh.texture_id;
    let mut run: Option<([u8; 4], PathBuilder)> = None;
    let flush = |target: &mut Pixmap, run: &mut Option<([u8; 4], PathBuilder)>| {
        if let Some((c, pb)) = run.take()
            && let Some(path) = pb.finish()
        {
            target.fill_path(
                &path,
                &solid(c),
                FillRule::Winding,
                Transform::identity(),
                None,
            );
        }
    };
    for idx in mesh.indices.chunks_exact(3) {
        let Some(t) = idx
            .iter()
            .map(|&i| mesh.vertices.get(i as usize))
            .collect::<Option<Vec<_>>>()
        else {
            continue;
        };
        let t = [t[0], t[1], t[2]];
        let one_texel = t[1].uv == t[0].uv && t[2].uv == t[0].uv;
        if one_texel {
            // Solid: the vertex colour times the one texel (white for egui's shapes).
            let texel = tex.texel(id, [t[0].uv.x, t[0].uv.y]).unwrap_or([255; 4]);
            let c = mul(t[0].color.to_array(), texel);
            if c[3] == 0 {
                continue;
            }
            match &mut run {
                Some((rc, pb)) if *rc == c && c[3] == 255 => add_tri(pb, t),
                _ => {
                    flush(target, &mut run);
                    let mut pb = PathBuilder::new();
                    add_tri(&mut pb, t);
                    run = Some((c, pb));
                }
            }
            continue;
        }
        flush(target, &mut run);
        draw_textured(target, t, id, tex);
    }
    flush(target, &mut run);
}

fn draw_textured(target: &mut Pixmap, t: [&Vertex; 3], id: TextureId, tex: &mut Textures) {
    let Some(img) = tex.tinted(id, t[0].color) else {
        return;
    };
    let Some(transform) = uv_to_screen(t, img.width() as f32, img.height() as f32) else {
        return;
    };
    let mut pb = PathBuilder::new();
    add_tri(&mut pb, t);
    let Some(path) = pb.finish() else { return };
    let paint = Paint {
        shader: Pattern::new(
            img.as_ref(),
            SpreadMode::Pad,
            FilterQuality::Bilinear,
            1.0,
            transform,
        ),
        anti_alias: false,
        ..Paint::default()
    };
    target.fill_path(
        &path,
        &paint,
        FillRule::Winding,
        Transform::identity(),
        None,
    );
}
