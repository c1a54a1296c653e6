//! [`ById`]: the table of values by object ID that the rule refresh and the turn look objects
//! and their properties up in.

use super::ObjId;

/// IDs per page of a [`ById`].
const PAGE: usize = 64;

/// One page of a [`ById`]: the slots of [`PAGE`] consecutive IDs and how many hold a value.
#[derive(Clone, Debug)]
struct Page<T> {
    slots: [Option<(ObjId, T)>; PAGE],
    used: usize,
}

/// A table of values by object ID, dense in pages: the slot of object `id` is found by
/// indexing, with no hashing or search (a turn looks objects and their properties up by ID
/// thousands of times, and a map made that a large part of its cost). Each slot keeps its ID,
/// so that iteration lends IDs as a map's does; iteration is in ascending ID.
///
/// Memory follows the objects that have a value, not every ID ever handed out: a new ID is
/// given to each object made (a transformation or HAS makes new ones every turn), and a page
/// whose objects are all gone is freed, leaving one empty pointer per 64 IDs.
#[derive(Clone, Debug)]
pub struct ById<T> {
    pages: Vec<Option<Box<Page<T>>>>,
    len: usize,
}

impl<T> Default for ById<T> {
    fn default() -> Self {
        Self {
            pages: Vec::new(),
            len: 0,
        }
    }
}

impl<T: PartialEq> PartialEq for ById<T> {
    /// Equal when the same IDs have equal values (however the tables grew).
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len && self.iter().eq(other.iter())
    }
}

/// The page and slot of `id`.
#[inline]
fn page_of(id: ObjId) -> (usize, usize) {
    let i = usize::try_from(id).unwrap_or(usize::MAX);
    (i / PAGE, i % PAGE)
}

impl<T> ById<T> {
    /// The value of object `id`, if it has one.
    #[inline]
    pub fn get(&self, id: &ObjId) -> Option<&T> {
        let (p, k) = page_of(*id);
        let page = self.pages.get(p)?.as_deref()?;
        page.slots.get(k)?.as_ref().map(|(_, v)| v)
    }

    /// True when object `id` has a value.
    #[inline]
    pub fn contains_key(&self, id: &ObjId) -> bool {
        self.get(id).is_some()
    }

    /// The value of object `id` to change, if it has one.
    #[inline]
    pub fn get_mut(&mut self, id: &ObjId) -> Option<&mut T> {
        let (p, k) = page_of(*id);
        let page = self.pages.get_mut(p)?.as_deref_mut()?;
        page.slots.get_mut(k)?.as_mut().map(|(_, v)| v)
    }

    /// Sets the value of object `id`; returns the one it replaces.
    #[inline]
    pub fn insert(&mut self, id: ObjId, v: T) -> Option<T> {
        let (p, k) = page_of(id);
        let page = match self.pages.get_mut(p) {
            Some(Some(page)) => page,
            _ => self.new_page(p),
        };
        let old = page.slots.get_mut(k)?.replace((id, v)).map(|(_, v)| v);
        if old.is_none() {
            page.used += 1;
            self.len += 1;
        }
        old
    }

    /// Page `p`, made empty (with the page list grown to hold it).
    #[cold]
    fn new_page(&mut self, p: usize) -> &mut Page<T> {
        if p >= self.pages.len() {
            self.pages.resize_with(p.saturating_add(1), || None);
        }
        let entry = &mut self.pages[p];
        entry.get_or_insert_with(|| {
            Box::new(Page {
                slots: std::array::from_fn(|_| None),
                used: 0,
            })
        })
    }

    /// Removes the value of object `id` and returns it (a page left empty is freed).
    pub fn remove(&mut self, id: &ObjId) -> Option<T> {
        let (p, k) = page_of(*id);
        let entry = self.pages.get_mut(p)?;
        let page = entry.as_deref_mut()?;
        let old = page.slots.get_mut(k)?.take().map(|(_, v)| v)?;
        page.used -= 1;
        self.len -= 1;
        if page.used == 0 {
            *entry = None;
        }
        Some(old)
    }

    /// [`Self::remove`] without freeing the page: for a table emptied and filled again every
    /// turn, where freeing and allocating the same pages would cost more than they hold (its
    /// owner bounds it with [`Self::pages_held`]).
    pub fn remove_keeping_page(&mut self, id: &ObjId) -> Option<T> {
        let (p, k) = page_of(*id);
        let page = self.pages.get_mut(p)?.as_deref_mut()?;
        let old = page.slots.get_mut(k)?.take().map(|(_, v)| v)?;
        page.used -= 1;
        self.len -= 1;
        Some(old)
    }

    /// The number of objects with a value.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when no object has a value.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Makes room for the pages of IDs below `n` without growing the page list again.
    pub fn reserve(&mut self, n: usize) {
        self.pages
            .reserve(n.div_ceil(PAGE).saturating_sub(self.pages.len()));
    }

    /// Every object's ID and value, ascending ID.
    pub fn iter(&self) -> Iter<'_, T> {
        Iter {
            pages: self.pages.iter(),
            slots: [].iter(),
        }
    }

    /// Every ID with a value, ascending.
    pub fn keys(&self) -> impl Iterator<Item = &ObjId> {
        self.iter().map(|(id, _)| id)
    }

    /// Every value, ascending ID.
    pub fn values(&self) -> impl Iterator<Item = &T> {
        self.iter().map(|(_, v)| v)
    }

    /// The pages allocated (64 slots each).
    pub fn pages_held(&self) -> usize {
        self.pages.iter().filter(|p| p.is_some()).count()
    }

    /// The largest ID with a value, and its value.
    pub fn last_key_value(&self) -> Option<(&ObjId, &T)> {
        let page = self.pages.iter().rev().find_map(|p| p.as_deref())?;
        page.slots
            .iter()
            .rev()
            .find_map(|s| s.as_ref().map(|(id, v)| (id, v)))
    }
}

/// The iterator of [`ById::iter`]: ascending ID.
#[derive(Clone, Debug)]
pub struct Iter<'a, T> {
    pages: std::slice::Iter<'a, Option<Box<Page<T>>>>,
    slots: std::slice::Iter<'a, Option<(ObjId, T)>>,
}

impl<'a, T> Iterator for Iter<'a, T> {
    type Item = (&'a ObjId, &'a T);

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some((id, v)) = self.slots.by_ref().flatten().next() {
                return Some((id, v));
            }
            let page = self.pages.by_ref().find_map(|p| p.as_deref())?;
            self.slots = page.slots.iter();
        }
    }
}

impl<'a, T> IntoIterator for &'a ById<T> {
    type Item = (&'a ObjId, &'a T);
    type IntoIter = Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<T> FromIterator<(ObjId, T)> for ById<T> {
    fn from_iter<I: IntoIterator<Item = (ObjId, T)>>(iter: I) -> Self {
        let mut t = Self::default();
        for (id, v) in iter {
            t.insert(id, v);
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::{ById, ObjId, PAGE};
    use crate::{BabaGame, BabaLevel};
    use tilesmith_core::game::Game as _;
    use tilesmith_core::input::Input;

    #[test]
    fn a_table_by_id_reads_back_what_was_set_in_ascending_id() {
        let mut t: ById<u32> = ById::default();
        for id in [500, 3, 64, 63, 1000, 65] {
            assert_eq!(t.insert(id, id as u32 * 2), None);
        }
        assert_eq!(t.insert(64, 7), Some(128));
        assert_eq!(t.len(), 6);
        assert_eq!(t.get(&64), Some(&7));
        assert_eq!(t.get(&66), None);
        assert_eq!(t.get(&u64::MAX), None);
        let ids: Vec<ObjId> = t.keys().copied().collect();
        assert_eq!(ids, vec![3, 63, 64, 65, 500, 1000]);
        assert_eq!(t.last_key_value(), Some((&1000, &2000)));
        assert_eq!(t.remove(&1000), Some(2000));
        assert_eq!(t.remove(&1000), None);
        assert_eq!(t.last_key_value(), Some((&500, &1000)));
        // The same contents reached another way compare equal.
        let u: ById<u32> = [(3, 6), (63, 126), (64, 7), (65, 130), (500, 1000)]
            .into_iter()
            .collect();
        assert!(t == u);
    }

    #[test]
    fn a_page_whose_objects_are_all_gone_is_freed() {
        let mut t: ById<u64> = ById::default();
        let n = 100 * PAGE as u64;
        for id in 1..=n {
            t.insert(id, id);
        }
        assert_eq!(t.pages_held(), 101);
        // Keep one object, in the first page.
        for id in 2..=n {
            t.remove(&id);
        }
        assert_eq!((t.len(), t.pages_held()), (1, 1));
    }

    #[test]
    fn objects_remade_every_turn_keep_the_tables_as_small_as_the_level() {
        // BABA IS KEKE and KEKE IS BABA: every turn replaces each of the 400 objects by a new
        // one with a new ID. After 300 turns (120 000 IDs handed out), the tables hold pages
        // for the live objects only: the ones the 400 live IDs fall in, not 1 875 pages.
        let mut map = vec![vec![serde_json::Value::Null; 20]; 23];
        let words = [
            "text_baba",
            "text_is",
            "text_keke",
            "text_keke",
            "text_is",
            "text_baba",
        ];
        for (x, w) in words.iter().enumerate() {
            map[0][x] = serde_json::json!(w);
        }
        for row in map.iter_mut().skip(3) {
            for cell in row.iter_mut() {
                *cell = serde_json::json!("baba");
            }
        }
        let doc = serde_json::json!({"kind": "baba", "width": 20, "height": 23, "map": map});
        let mut g = BabaGame::new(BabaLevel::from_json(&doc).expect("a valid level"), 0);
        g.set_history_budget(1 << 20);
        for _ in 0..300 {
            g.step(Input::Wait);
        }
        assert!(
            g.st.next_id > 100_000,
            "objects were remade: {}",
            g.st.next_id
        );
        let live = g.st.objs.len();
        let most = live.div_ceil(PAGE) + 2;
        assert!(
            g.st.objs.pages_held() <= most && g.cur.derived.pages_held() <= most,
            "{} and {} pages for {live} objects",
            g.st.objs.pages_held(),
            g.cur.derived.pages_held()
        );
        // The journal's marks keep their pages between turns, within a bound.
        assert!(
            g.logged_pages() <= 2 * most + 16,
            "{} pages",
            g.logged_pages()
        );
    }
}
