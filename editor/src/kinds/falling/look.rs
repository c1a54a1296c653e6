//! How falling blocks are drawn: a block kind's colour in its form (`square`, `round`, `gem`;
//! anything else draws square), on a dark well.

use eframe::egui::{self, Color32, Painter, Pos2, Rect, Shape, Stroke, StrokeKind};
use tilesmith_engine::kind::falling::level::{BlockKind, Role};

/// The colour of an empty cell of the well.
pub const WELL: Color32 = Color32::from_rgb(18, 20, 28);

/// The colour of the rows hidden from clears (Puyo's row 13), drawn over the well.
pub const HIDDEN_ROW: Color32 = Color32::from_rgba_premultiplied(40, 40, 60, 60);

/// Below this many screen points per cell, blocks are only their texture colour.
pub const FINE_MIN_PX: f32 = 6.0;

/// The block's colour.
pub fn color(b: &BlockKind) -> Color32 {
    Color32::from_rgb(b.color[0], b.color[1], b.color[2])
}

/// Paints one block of kind `b` filling `rect`, with opacity `alpha` (0–1; the shadow and
/// vanishing blocks are drawn faint).
pub fn paint_block(painter: &Painter, rect: Rect, b: &BlockKind, alpha: f32) {
    let c = color(b).gamma_multiply(alpha);
    let edge = Stroke::new(
        (rect.width() * 0.06).clamp(0.5, 2.0),
        Color32::from_black_alpha((140.0 * alpha) as u8),
    );
    let r = rect.shrink(rect.width() * 0.04);
    match b.form.as_str() {
        "round" | "puyo" => {
            painter.circle(r.center(), r.width() * 0.48, c, edge);
            let shine = r.center() + egui::vec2(-r.width() * 0.15, -r.height() * 0.17);
            painter.circle_filled(
                shine,
                r.width() * 0.1,
                Color32::from_white_alpha((120.0 * alpha) as u8),
            );
        }
        "gem" | "diamond" => {
            let pts = vec![
                Pos2::new(r.center().x, r.top()),
                Pos2::new(r.right(), r.center().y),
                Pos2::new(r.center().x, r.bottom()),
                Pos2::new(r.left(), r.center().y),
            ];
            painter.add(Shape::convex_polygon(pts, c, edge));
        }
        _ => {
            painter.rect_filled(r, r.width() * 0.12, c);
            // A bevel: lighter top-left, darker bottom-right.
            let inner = r.shrink(r.width() * 0.18);
            painter.rect_filled(inner, r.width() * 0.08, c.gamma_multiply(1.15));
            painter.rect_stroke(r, r.width() * 0.12, edge, StrokeKind::Inside);
        }
    }
    match b.role {
        Role::Garbage => {
            let s = Stroke::new(edge.width, Color32::from_black_alpha((90.0 * alpha) as u8));
            painter.line_segment([r.left_top(), r.right_bottom()], s);
            painter.line_segment([r.right_top(), r.left_bottom()], s);
        }
        Role::Iron => {
            painter.rect_stroke(
                r.shrink(r.width() * 0.1),
                0.0,
                Stroke::new(edge.width * 1.5, Color32::from_gray(60)),
                StrokeKind::Inside,
            );
        }
        Role::Normal => {}
    }
}
