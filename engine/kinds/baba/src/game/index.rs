//! The baba game's indexes kept beside the objects: the holders of each property and verb,
//! the text count of each cell, and the row-major sorting of changed cells.

use super::*;

/// The objects that have each property and each verb at the last refresh, ascending ID (from
/// [`Refresh::derived`]; an object removed since may still be listed). Lets a phase look only
/// at the objects it concerns, and skip itself when no rule gives its property.
#[derive(Clone, Debug, Default)]
pub(super) struct Holders {
    pub(super) props: Vec<Vec<ObjId>>,
    pub(super) verbs: Vec<Vec<ObjId>>,
    /// Objects that `A IS NOT A` makes vanish.
    pub(super) vanish: Vec<ObjId>,
}

impl Holders {
    pub(super) fn new() -> Self {
        Self {
            props: vec![Vec::new(); Prop::COUNT],
            verbs: vec![Vec::new(); Verb::ALL.len()],
            vanish: Vec::new(),
        }
    }

    /// Calls `f` on every list `d` puts its object in.
    pub(super) fn each_list(&mut self, d: &Derived, mut f: impl FnMut(&mut Vec<ObjId>)) {
        for k in Self::lists_of(d) {
            f(self.list_mut(k));
        }
    }

    /// The lists `d` puts its object in, as indices: property `p` is `p`, verb `v` is
    /// `Prop::COUNT + v`, the vanishing list is `Prop::COUNT + Verb::ALL.len()`.
    pub(super) fn lists_of(d: &Derived) -> Vec<usize> {
        let mut out: Vec<usize> = Vec::new();
        for (p, &c) in d.props.iter().enumerate() {
            if c > 0 {
                out.push(p);
            }
        }
        for (v, _, _) in &d.others {
            let k = Prop::COUNT + *v as usize;
            if !out.contains(&k) {
                out.push(k);
            }
        }
        if d.vanish {
            out.push(Prop::COUNT + Verb::ALL.len());
        }
        out
    }

    /// The list of index `k` (see [`Holders::lists_of`]).
    pub(super) fn list_mut(&mut self, k: usize) -> &mut Vec<ObjId> {
        if k < Prop::COUNT {
            &mut self.props[k]
        } else if k < Prop::COUNT + Verb::ALL.len() {
            &mut self.verbs[k - Prop::COUNT]
        } else {
            &mut self.vanish
        }
    }

    pub(super) fn add(&mut self, id: ObjId, d: &Derived) {
        self.each_list(d, |l| {
            if let Err(k) = l.binary_search(&id) {
                l.insert(k, id);
            }
        });
    }

    pub(super) fn remove(&mut self, id: ObjId, d: &Derived) {
        self.each_list(d, |l| {
            if let Ok(k) = l.binary_search(&id) {
                l.remove(k);
            }
        });
    }
}

/// The number of text objects in each cell, dense (row-major, x = column from the left,
/// y = row from the top): every move asks whether its cells hold text.
#[derive(Clone, Debug, Default)]
pub(super) struct TextCount {
    pub(super) width: usize,
    pub(super) height: usize,
    pub(super) counts: Vec<u32>,
    /// The text objects on the grid.
    pub(super) total: u64,
}

impl TextCount {
    /// No text on a `width` × `height` grid.
    pub(super) fn new(width: usize, height: usize) -> Self {
        Self {
            width,
            height,
            counts: vec![0; width * height],
            total: 0,
        }
    }

    pub(super) fn slot(&mut self, p: Pos) -> Option<&mut u32> {
        if p.x < self.width && p.y < self.height {
            self.counts.get_mut(p.y * self.width + p.x)
        } else {
            None
        }
    }

    /// A text object entered cell `p`.
    pub(super) fn add(&mut self, p: Pos) {
        if let Some(n) = self.slot(p) {
            *n += 1;
            self.total += 1;
        }
    }

    /// A text object left cell `p`.
    pub(super) fn remove(&mut self, p: Pos) {
        if let Some(n) = self.slot(p)
            && *n > 0
        {
            *n -= 1;
            self.total -= 1;
        }
    }

    /// True when cell `p` holds a text object.
    #[inline]
    pub(super) fn holds(&self, p: Pos) -> bool {
        self.total > 0
            && p.x < self.width
            && p.y < self.height
            && self
                .counts
                .get(p.y * self.width + p.x)
                .is_some_and(|&n| n > 0)
    }
}

/// Sorts cells row-major (by row from the top, then column from the left) and drops repeats,
/// with `marks` (one bit per cell of a `width`-wide map, all clear, and left clear) to find
/// them in order without sorting when the map is small next to the list.
pub(crate) fn sort_cells(v: &mut Vec<Pos>, marks: &mut Vec<u64>, width: usize, height: usize) {
    if v.len() < 2 {
        return;
    }
    let cells = width * height;
    if cells <= 32 * v.len() && v.iter().all(|p| p.x < width && p.y < height) {
        // Mark each cell, then read the marks back in order (clearing them again).
        marks.resize(cells.div_ceil(64), 0);
        for p in v.iter() {
            let i = p.y * width + p.x;
            if let Some(w) = marks.get_mut(i / 64) {
                *w |= 1 << (i % 64);
            }
        }
        v.clear();
        for (k, w) in marks.iter_mut().enumerate() {
            while *w != 0 {
                let i = k * 64 + w.trailing_zeros() as usize;
                v.push(Pos::new(i % width, i / width));
                *w &= *w - 1;
            }
        }
        return;
    }
    // One integer key per cell sorts faster than the (row, column) pairs.
    let mut keys: Vec<u64> = v
        .iter()
        .map(|p| ((p.y as u64) << 32) | p.x as u64)
        .collect();
    keys.sort_unstable();
    keys.dedup();
    v.clear();
    v.extend(
        keys.iter()
            .map(|&k| Pos::new((k & 0xffff_ffff) as usize, (k >> 32) as usize)),
    );
}
