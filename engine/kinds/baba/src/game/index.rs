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

    /// Takes the objects of `gone` (each with what it was derived to have) out of their
    /// lists: a list losing few is searched for each, one losing many is filtered once, so
    /// that removing `n` objects costs O(n log n + the lists' lengths), not O(n × length).
    pub(super) fn remove_all(&mut self, gone: &[(ObjId, Derived)]) {
        let mut per: Vec<Vec<ObjId>> = vec![Vec::new(); Prop::COUNT + Verb::ALL.len() + 1];
        for (id, d) in gone {
            for k in Self::lists_of(d) {
                per[k].push(*id);
            }
        }
        for (k, mut ids) in per.into_iter().enumerate() {
            let l = self.list_mut(k);
            if ids.len() < 16 {
                for id in ids {
                    if let Ok(i) = l.binary_search(&id) {
                        l.remove(i);
                    }
                }
                continue;
            }
            ids.sort_unstable();
            let mut j = 0;
            l.retain(|x| {
                while j < ids.len() && ids[j] < *x {
                    j += 1;
                }
                ids.get(j) != Some(x)
            });
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// `remove_all` leaves each list as removing its objects one by one would, for few
    /// (searched) and many (filtered) removals, ids absent from a list included.
    #[test]
    fn remove_all_matches_one_at_a_time() {
        let mut moving = Derived::default();
        moving.props[Prop::Move as usize] = 1;
        let mut stopping = Derived::default();
        stopping.props[Prop::Stop as usize] = 1;
        for n in [3u64, 40, 1000] {
            let mut h = Holders::new();
            for id in 0..2 * n {
                h.add(id, if id % 3 == 0 { &stopping } else { &moving });
            }
            // Every other id goes, with the Derived it was added with; id 2n+5 was never in.
            let gone: Vec<(ObjId, Derived)> = (0..2 * n)
                .step_by(2)
                .map(|id| {
                    (
                        id,
                        if id % 3 == 0 {
                            stopping.clone()
                        } else {
                            moving.clone()
                        },
                    )
                })
                .chain([(2 * n + 5, moving.clone())])
                .collect();
            h.remove_all(&gone);
            let want = |stop: bool| -> Vec<ObjId> {
                (0..2 * n)
                    .filter(|id| id % 2 == 1 && (id % 3 == 0) == stop)
                    .collect()
            };
            assert_eq!(h.props[Prop::Move as usize], want(false), "n = {n}");
            assert_eq!(h.props[Prop::Stop as usize], want(true), "n = {n}");
        }
    }
}
