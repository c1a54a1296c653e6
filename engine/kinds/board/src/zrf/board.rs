//! `(board …)`: one `grid` (`start-rectangle`, `dimensions`, `directions`), `kill-positions`,
//! `links`, `symmetry` and `zone`, compiled into a [`BoardShape`].
//!
//! Grid conventions (ZRF's): position names are the first dimension's name followed by the
//! second's (`a` + `8` = `a8`); a grid direction `(name d1 d2)` adds `d1` to the index in the
//! first dimension and `d2` to the index in the second. The drawn cell: the first dimension
//! counts columns from the left and the second rows from the top when their pixel offsets
//! point right and down (the usual `("a/b/…" (50 0)) ("8/7/…" (0 50))`); a negative offset
//! counts from the other side, and a first dimension whose offset is vertical while the
//! second's is horizontal swaps the two.

use super::compile::{Ctx, Names, name_list};
use super::sexpr::Node;
use super::{MAX_DIRECTIONS, MAX_POSITIONS, MAX_ZONES};
use crate::rules::{BoardShape, DirId, NO_POS, PosId, PositionDef, Zone};
use tilesmith_core::problem::quote;

/// A compiled board with its name tables.
pub(crate) struct Board {
    pub shape: BoardShape,
    pub positions: Names,
    pub directions: Names,
    pub zones: Names,
}

/// One grid dimension: its names and its pixel offset.
struct Dim {
    names: Vec<String>,
    offset: (i64, i64),
}

/// Parses an integer atom.
pub(crate) fn int(n: &Node) -> Option<i64> {
    n.atom()?
        .parse::<i64>()
        .ok()
        .filter(|v| v.abs() <= 1_000_000)
}

/// The sections of `(board …)` Tilesmith reads, each kind in file order.
#[derive(Default)]
struct Sections<'a> {
    grids: Vec<&'a Node>,
    kills: Vec<&'a Node>,
    links: Vec<&'a Node>,
    symmetries: Vec<&'a Node>,
    zones: Vec<&'a Node>,
}

/// What the grid says: its two dimensions (a grid of one gets a second of one unnamed
/// row), its directions `(name d1 d2)` and its start rectangle.
struct GridSpec<'a> {
    dims: Vec<Dim>,
    gdirs: Vec<(&'a Node, i64, i64)>,
    start: Option<(i64, i64, i64, i64)>,
}

/// The grid's cells once laid out: cell `(i, j)` is `j * n1 + i`.
struct Cells {
    n1: usize,
    n2: usize,
    /// Every cell's name, killed cells included (to say a position was killed).
    by_name: Names,
    /// Each cell's position, [`NO_POS`] for a killed cell.
    pos_of_cell: Vec<PosId>,
}

/// Compiles `(board …)`'s items (after the head word) for `players`.
pub(crate) fn board(ctx: &mut Ctx, node: &Node, items: &[Node], players: &Names) -> Board {
    let s = sections(ctx, items);
    let mut b = Board {
        shape: BoardShape::default(),
        positions: Names::default(),
        directions: Names::default(),
        zones: Names::default(),
    };
    let Some(grid) = s.grids.first() else {
        ctx.error(node, "the board has no (grid …)");
        return b;
    };
    if let Some(second) = s.grids.get(1) {
        ctx.error(
            second,
            "a board of more than one grid is not supported by Tilesmith",
        );
    }
    let Some(spec) = grid_spec(ctx, grid) else {
        return b;
    };
    let cells = lay_out(ctx, &mut b, grid, &spec, &s.kills);
    if !link(ctx, &mut b, node, &spec.gdirs, &s.links, &cells) {
        return b;
    }
    symmetry(ctx, &mut b, &s.symmetries, players);
    for z in &s.zones {
        zone(ctx, &mut b, z, players, &cells.by_name);
    }
    b
}

/// Sorts the board's items into its sections; an error for each one Tilesmith does not read.
fn sections<'a>(ctx: &mut Ctx, items: &'a [Node]) -> Sections<'a> {
    let mut s = Sections::default();
    for item in items {
        let Some((h, _)) = item.head() else {
            ctx.error(item, "expected a (…) section of the board");
            continue;
        };
        match h.as_str() {
            "image" => {}
            "grid" => s.grids.push(item),
            "kill-positions" => s.kills.push(item),
            "links" => s.links.push(item),
            "symmetry" => s.symmetries.push(item),
            "zone" => s.zones.push(item),
            "positions" | "unlink" => ctx.error(
                item,
                format!("({h} …) in a board is not supported by Tilesmith (a board is one grid with kill-positions and links)"),
            ),
            _ => ctx.error(
                item,
                format!("unknown board section ({} …) is not supported by Tilesmith", quote(&h)),
            ),
        }
    }
    s
}

/// Reads the grid's sections; `None` (after an error) when it has no usable dimensions or
/// too many positions.
fn grid_spec<'a>(ctx: &mut Ctx, grid: &'a Node) -> Option<GridSpec<'a>> {
    let mut dims: Vec<Dim> = Vec::new();
    let mut gdirs: Vec<(&Node, i64, i64)> = Vec::new();
    let mut saw_dims = false;
    let mut start: Option<(i64, i64, i64, i64)> = None;
    for item in grid.list().unwrap_or_default().iter().skip(1) {
        let Some((h, args)) = item.head() else {
            ctx.error(item, "expected a (…) section of the grid");
            continue;
        };
        match h.as_str() {
            "start-rectangle" => {
                let v: Vec<i64> = args.iter().filter_map(int).collect();
                match v[..] {
                    [l, t, r, b] if args.len() == 4 => start = Some((l, t, r, b)),
                    _ => ctx.error(
                        item,
                        "(start-rectangle left top right bottom) needs 4 numbers",
                    ),
                }
            }
            "dimensions" => {
                saw_dims = true;
                for d in args {
                    match dimension(d) {
                        Ok(dim) => dims.push(dim),
                        Err(m) => ctx.error(d, m),
                    }
                }
            }
            "directions" => {
                for d in args {
                    let parts = d.list().unwrap_or_default();
                    match (
                        parts.first().and_then(Node::atom),
                        parts.get(1).and_then(int),
                        parts.get(2).and_then(int),
                    ) {
                        (Some(_), Some(d1), Some(d2)) if parts.len() == 3 => {
                            gdirs.push((d, d1, d2))
                        }
                        _ => ctx.error(
                            d,
                            "a grid direction is (name d1 d2): a name and two whole numbers",
                        ),
                    }
                }
            }
            _ => ctx.error(
                item,
                format!(
                    "unknown grid section ({} …) is not supported by Tilesmith",
                    quote(&h)
                ),
            ),
        }
    }
    if !saw_dims {
        ctx.error(grid, "the grid has no (dimensions …)");
        return None;
    }
    match dims.len() {
        1 => dims.push(Dim {
            names: vec![String::new()],
            offset: (0, 1),
        }),
        2 => {}
        0 => return None,
        _ => {
            ctx.error(
                grid,
                "a grid of more than two dimensions is not supported by Tilesmith",
            );
            return None;
        }
    }
    let (n1, n2) = (dims[0].names.len(), dims[1].names.len());
    if n1 * n2 > MAX_POSITIONS {
        ctx.error(
            grid,
            format!(
                "the grid has {} positions; Tilesmith plays boards of at most {MAX_POSITIONS}",
                n1 * n2
            ),
        );
        return None;
    }
    Some(GridSpec { dims, gdirs, start })
}

/// Names the grid's cells, removes the killed ones and makes a position of each other cell,
/// in grid order, with where it is drawn and where it is in the file's pixel space.
fn lay_out(
    ctx: &mut Ctx,
    b: &mut Board,
    grid: &Node,
    spec: &GridSpec<'_>,
    kills: &[&Node],
) -> Cells {
    let (dims, start) = (&spec.dims, spec.start);
    let (n1, n2) = (dims[0].names.len(), dims[1].names.len());
    // Where each grid cell is drawn.
    let (v1, v2) = (dims[0].offset, dims[1].offset);
    let swap = v1.1.abs() > v1.0.abs() && v2.0.abs() > v2.1.abs();
    let place = |i: usize, j: usize| -> (u16, u16) {
        let (ci, ri, cv, rv, cn, rn) = if swap {
            (j, i, v2.0, v1.1, n2, n1)
        } else {
            (i, j, v1.0, v2.1, n1, n2)
        };
        let c = if cv < 0 { cn - 1 - ci } else { ci };
        let r = if rv < 0 { rn - 1 - ri } else { ri };
        // Both are below MAX_POSITIONS, which fits a u16.
        (c as u16, r as u16)
    };
    // Where each cell is in the file's pixel space: the start rectangle moved by each
    // dimension's offset times the cell's index in it.
    let (left, top, width, height) = match start {
        Some((l, t, r, b)) => (l.min(r), t.min(b), (r - l).abs(), (b - t).abs()),
        None => (
            0,
            0,
            v1.0.abs().max(v2.0.abs()).max(1),
            v1.1.abs().max(v2.1.abs()).max(1),
        ),
    };
    let clamp = |v: i64| v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
    let pixel = |i: usize, j: usize| -> [i32; 4] {
        // Indices are below MAX_POSITIONS and values below 10^6: no overflow in i64.
        let (i, j) = (i as i64, j as i64);
        [
            clamp(left + v1.0 * i + v2.0 * j),
            clamp(top + v1.1 * i + v2.1 * j),
            clamp(width),
            clamp(height),
        ]
    };
    let (cols, rows) = if swap { (n2, n1) } else { (n1, n2) };
    b.shape.cols = cols as u16;
    b.shape.rows = rows as u16;

    // Cell names, then kills.
    let mut cell_name = vec![String::new(); n1 * n2];
    let mut by_name = Names::default();
    for j in 0..n2 {
        for i in 0..n1 {
            let name = format!("{}{}", dims[0].names[i], dims[1].names[j]);
            if by_name.get_exact(&name).is_some() {
                ctx.error(
                    grid,
                    format!("two positions of the grid are both named {}", quote(&name)),
                );
            }
            by_name.insert(&name);
            cell_name[j * n1 + i] = name;
        }
    }
    let mut killed = vec![false; n1 * n2];
    for k in kills {
        for p in k.list().unwrap_or_default().iter().skip(1) {
            match p.atom().and_then(|a| by_name.get(a)) {
                Some(cell) => killed[cell] = true,
                None => ctx.error(
                    p,
                    format!(
                        "kill-positions: unknown position {}; the grid's positions are {}",
                        quote(p.text().unwrap_or("(…)")),
                        name_list(&by_name.list)
                    ),
                ),
            }
        }
    }
    // Positions in grid order (second dimension outer: ranks top first; files left first).
    let mut pos_of_cell = vec![NO_POS; n1 * n2];
    for j in 0..n2 {
        for i in 0..n1 {
            let cell = j * n1 + i;
            if killed[cell] {
                continue;
            }
            let id = b.shape.positions.len() as PosId;
            pos_of_cell[cell] = id;
            let (col, row) = place(i, j);
            let [x, y, w, h] = pixel(i, j);
            b.positions.insert(&cell_name[cell]);
            b.shape.positions.push(PositionDef {
                name: cell_name[cell].clone(),
                col,
                row,
                x,
                y,
                w,
                h,
            });
        }
    }
    Cells {
        n1,
        n2,
        by_name,
        pos_of_cell,
    }
}

/// The directions (the grid's, then new names from links) and every position's neighbour in
/// each; false (after an error) when there are too many directions.
fn link(
    ctx: &mut Ctx,
    b: &mut Board,
    node: &Node,
    gdirs: &[(&Node, i64, i64)],
    links: &[&Node],
    cells: &Cells,
) -> bool {
    let (n1, n2, by_name, pos_of_cell) = (cells.n1, cells.n2, &cells.by_name, &cells.pos_of_cell);
    let np = b.shape.positions.len();
    // Directions: the grid's, then new names from links.
    for (d, _, _) in gdirs {
        let name = d
            .list()
            .and_then(|p| p.first())
            .and_then(Node::atom)
            .unwrap_or_default();
        if b.directions.get_exact(name).is_some() {
            ctx.error(d, format!("direction {} is defined twice", quote(name)));
        }
        b.directions.insert(name);
    }
    for l in links {
        if let Some(name) = l.list().and_then(|v| v.get(1)).and_then(Node::atom)
            && b.directions.get(name).is_none()
        {
            b.directions.insert(name);
        }
    }
    if b.directions.len() > MAX_DIRECTIONS {
        ctx.error(
            node,
            format!("more than {MAX_DIRECTIONS} directions; Tilesmith plays at most that many"),
        );
        return false;
    }
    let nd = b.directions.len();
    b.shape.directions = b.directions.list.clone();
    b.shape.links = vec![NO_POS; np * nd];
    for j in 0..n2 {
        for i in 0..n1 {
            let from = pos_of_cell[j * n1 + i];
            if from == NO_POS {
                continue;
            }
            for (d, d1, d2) in gdirs {
                let name = d
                    .list()
                    .and_then(|p| p.first())
                    .and_then(Node::atom)
                    .unwrap_or_default();
                let Some(dir) = b.directions.get_exact(name) else {
                    continue;
                };
                let (ti, tj) = (i as i64 + d1, j as i64 + d2);
                if ti < 0 || tj < 0 || ti >= n1 as i64 || tj >= n2 as i64 {
                    continue;
                }
                let to = pos_of_cell[tj as usize * n1 + ti as usize];
                b.shape.links[from as usize * nd + dir] = to;
            }
        }
    }
    for l in links {
        let items = l.list().unwrap_or_default();
        let Some(dir) = items
            .get(1)
            .and_then(Node::atom)
            .and_then(|a| b.directions.get(a))
        else {
            ctx.error(l, "(links direction (from to) …) needs a direction name");
            continue;
        };
        for pair in &items[2..] {
            let two = pair.list().unwrap_or_default();
            if two.len() != 2 {
                ctx.error(pair, "a link is (from to): two position names");
                continue;
            }
            let ends: Vec<Option<usize>> = two
                .iter()
                .map(|p| position(ctx, &b.positions, by_name, p))
                .collect();
            if let (Some(f), Some(t)) = (ends[0], ends[1]) {
                b.shape.links[f * nd + dir] = t as PosId;
            }
        }
    }
    true
}

/// Each player's direction map: identity unless a player's (symmetry …) remaps.
fn symmetry(ctx: &mut Ctx, b: &mut Board, symmetries: &[&Node], players: &Names) {
    let nd = b.directions.len();
    // Symmetry: identity unless a player's (symmetry …) remaps.
    let identity: Vec<DirId> = (0..nd).map(|d| d as DirId).collect();
    b.shape.symmetry = vec![identity; players.len()];
    for s in symmetries {
        let items = s.list().unwrap_or_default();
        let Some(pn) = items.get(1) else {
            ctx.error(s, "(symmetry Player (from to) …) needs a player");
            continue;
        };
        let Some(player) = pn.atom().and_then(|a| players.get(a)) else {
            ctx.error(pn, unknown("player", pn, &players.list));
            continue;
        };
        for pair in &items[2..] {
            let two = pair.list().unwrap_or_default();
            if two.len() != 2 {
                ctx.error(pair, "a symmetry entry is (direction direction)");
                continue;
            }
            let ds: Vec<Option<usize>> = two
                .iter()
                .map(|d| match d.atom().and_then(|a| b.directions.get(a)) {
                    Some(x) => Some(x),
                    None => {
                        ctx.error(d, unknown("direction", d, &b.directions.list));
                        None
                    }
                })
                .collect();
            if let (Some(f), Some(t)) = (ds[0], ds[1]) {
                b.shape.symmetry[player][f] = t as DirId;
            }
        }
    }
}

/// One `(zone (name …) (players …) (positions …))`: its positions added for each of its
/// players (a zone named again adds to the first).
fn zone(ctx: &mut Ctx, b: &mut Board, z: &Node, players: &Names, by_name: &Names) {
    let np = b.shape.positions.len();
    let mut name = None;
    let mut zplayers = Vec::new();
    let mut zpos = Vec::new();
    let mut saw_players = false;
    for part in z.list().unwrap_or_default().iter().skip(1) {
        let Some((h, args)) = part.head() else {
            ctx.error(
                part,
                "expected (name …), (players …) or (positions …) in a zone",
            );
            continue;
        };
        match h.as_str() {
            "name" => match args.first().and_then(Node::atom) {
                Some(n) if args.len() == 1 => name = Some(n),
                _ => ctx.error(part, "(name …) of a zone needs one name"),
            },
            "players" => {
                saw_players = true;
                for p in args {
                    match p.atom().and_then(|a| players.get(a)) {
                        Some(id) => zplayers.push(id),
                        None => ctx.error(p, unknown("player", p, &players.list)),
                    }
                }
            }
            "positions" => {
                for p in args {
                    if let Some(id) = position(ctx, &b.positions, by_name, p) {
                        zpos.push(id as PosId);
                    }
                }
            }
            _ => ctx.error(
                part,
                format!(
                    "unknown zone section ({} …) is not supported by Tilesmith",
                    quote(&h)
                ),
            ),
        }
    }
    let Some(name) = name else {
        ctx.error(z, "the zone has no (name …)");
        return;
    };
    if !saw_players {
        ctx.error(z, "the zone has no (players …)");
        return;
    }
    let id = match b.zones.get(name) {
        Some(id) => id,
        None => {
            if b.zones.len() >= MAX_ZONES {
                ctx.error(z, format!("more than {MAX_ZONES} zones"));
                return;
            }
            b.zones.insert(name);
            b.shape.zones.push(Zone {
                name: name.to_string(),
                positions: vec![Vec::new(); players.len()],
            });
            b.zones.len() - 1
        }
    };
    for p in zplayers {
        let list = &mut b.shape.zones[id].positions[p];
        let mut seen = vec![false; np];
        for &q in list.iter() {
            seen[q as usize] = true;
        }
        for &q in &zpos {
            if !seen[q as usize] {
                seen[q as usize] = true;
                list.push(q);
            }
        }
    }
}

/// A dimension `("a/b/c" (dx dy))`.
fn dimension(d: &Node) -> Result<Dim, String> {
    let parts = d.list().unwrap_or_default();
    let bad =
        || "a dimension is (\"a/b/c\" (dx dy)): names split by '/' and a pixel offset".to_string();
    let (Some(names), Some(off)) = (parts.first().and_then(Node::text), parts.get(1)) else {
        return Err(bad());
    };
    let off = off.list().unwrap_or_default();
    let (Some(dx), Some(dy)) = (off.first().and_then(int), off.get(1).and_then(int)) else {
        return Err(bad());
    };
    if parts.len() != 2 || off.len() != 2 {
        return Err(bad());
    }
    if names.len() > 64 * MAX_POSITIONS {
        return Err("a dimension with too many names".to_string());
    }
    let names: Vec<String> = names.split('/').map(str::to_string).collect();
    if names.iter().any(String::is_empty) {
        return Err("a dimension has an empty name (two '/' in a row?)".to_string());
    }
    if names.len() > MAX_POSITIONS {
        return Err(format!(
            "a dimension of {} names; Tilesmith plays boards of at most {MAX_POSITIONS} positions",
            names.len()
        ));
    }
    Ok(Dim {
        names,
        offset: (dx, dy),
    })
}

/// A position name on the board; an error naming it (and why) when it is not one.
fn position(ctx: &mut Ctx, positions: &Names, grid: &Names, p: &Node) -> Option<usize> {
    let a = p.atom();
    if let Some(id) = a.and_then(|a| positions.get(a)) {
        return Some(id);
    }
    if a.and_then(|a| grid.get(a)).is_some() {
        ctx.error(
            p,
            format!(
                "position {} was removed by kill-positions",
                quote(a.unwrap_or_default())
            ),
        );
    } else {
        ctx.error(p, unknown("position", p, &positions.list));
    }
    None
}

/// "unknown KIND "name"; the KINDs are …" for a node that names nothing known.
pub(crate) fn unknown(kind: &str, n: &Node, known: &[String]) -> String {
    let shown = match n.text() {
        Some(t) => quote(t),
        None => "(…)".to_string(),
    };
    if known.is_empty() {
        format!("unknown {kind} {shown}; there are none")
    } else {
        format!("unknown {kind} {shown}; known: {}", name_list(known))
    }
}
