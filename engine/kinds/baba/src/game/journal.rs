//! Every change to an object of a baba game, and the journal of the turn and of its phases:
//! `set_obj` keeps the cell index, journals the object's previous value and notes what the
//! next refresh must re-read.

use super::*;

impl BabaGame {
    /// Sets object `id` to `new` (`None`: removes it) and returns its previous value. Every
    /// change to an object goes through here: it keeps the cell index (ascending ID per cell),
    /// journals the previous value in `log`, and notes what the next refresh must re-read.
    #[inline(always)]
    pub(crate) fn set_obj(&mut self, id: ObjId, new: Option<Obj>) -> Option<Obj> {
        let old = match new {
            Some(o) => self.st.objs.insert(id, o),
            None => self.st.objs.remove(&id),
        };
        if old == new {
            return old;
        }
        self.charge(1);
        if let Some(k) = &mut self.obj_keys {
            if let Some(o) = &old {
                k.remove(id, o);
            }
            if let Some(n) = &new {
                k.add(id, n);
            }
        }
        self.journal(id, old);
        self.dirty.any = true;
        let (from, to) = (old.map(|o| o.pos()), new.map(|o| o.pos()));
        if from == to {
            // Turned only: the rules read it only through conditions (`conditional`).
            return old;
        }
        // A cell emptied keeps its (empty) list: objects go back and forth between the same
        // cells, and freeing and allocating the list on every move cost more than the move.
        if let Some(p) = from
            && let Some(cell) = self.index.get_mut(&p)
            && let Ok(k) = cell.binary_search(&id)
        {
            cell.remove(k);
        }
        if let Some(p) = to
            && let Some(cell) = self.index.get_mut(&p)
            && let Err(k) = cell.binary_search(&id)
        {
            cell.insert(k, id);
        }
        let is_text = old.or(new).is_some_and(|o| o.kind.is_text());
        if is_text {
            if let Some(p) = from {
                self.text_at.remove(p);
            }
            if let Some(p) = to {
                self.text_at.add(p);
            }
        }
        match (old, new) {
            (None, Some(_)) => {
                self.edits += 1;
                self.dirty.added.push(id);
            }
            (Some(_), None) => {
                self.edits += 1;
                self.dirty.removed.push(id);
            }
            _ if is_text => self.edits += 1,
            _ => {}
        }
        if is_text
            || from.is_some_and(|p| self.holds_text(p))
            || to.is_some_and(|p| self.holds_text(p))
        {
            self.dirty.text = true;
        }
        old
    }

    /// Adds an object (its ID must be new and larger than every other).
    pub(crate) fn insert_obj(&mut self, id: ObjId, o: Obj) {
        self.note_seen(o.kind);
        self.set_obj(id, Some(o));
    }

    /// Removes an object; `None` when it does not exist.
    pub(crate) fn remove_obj(&mut self, id: ObjId) -> Option<Obj> {
        if !self.st.objs.contains_key(&id) {
            return None;
        }
        self.set_obj(id, None)
    }

    /// Moves an object to `pos`.
    pub(crate) fn move_obj(&mut self, id: ObjId, pos: Pos) {
        if let Some(&o) = self.st.objs.get(&id) {
            self.set_obj(id, Some(o.at(pos)));
        }
    }

    /// Turns an object to face `dir`.
    pub(crate) fn turn_obj(&mut self, id: ObjId, dir: Dir) {
        // Every move turns its mover first, mostly to the facing it already has.
        if let Some(&o) = self.st.objs.get(&id)
            && o.dir != dir
        {
            self.set_obj(id, Some(Obj { dir, ..o }));
        }
    }

    /// Enters object `id`'s value `before` its change in the turn's and the phase's journals,
    /// unless it is already in them.
    fn journal(&mut self, id: ObjId, before: Option<Obj>) {
        let phase = self.phase_epoch;
        match self.logged.get_mut(&id) {
            Some(mark) => {
                if *mark != phase {
                    *mark = phase;
                    self.phase_log.push((id, before));
                }
            }
            None => {
                self.logged.insert(id, phase);
                self.log.push((id, before));
                self.phase_log.push((id, before));
            }
        }
    }

    /// Takes the turn's journal out (its objects count as not entered any more) and empties
    /// the phase's.
    pub(crate) fn take_journal(&mut self) -> Vec<(ObjId, Option<Obj>)> {
        let log = std::mem::take(&mut self.log);
        for (id, _) in &log {
            self.logged.remove_keeping_page(id);
        }
        // The marks' pages stay for the next turn's objects, unless objects made since left
        // them far more than the objects need: then they go (every mark is gone by now).
        if self.logged.pages_held() > 2 * self.st.objs.pages_held() + 16 {
            self.logged = ById::default();
        }
        self.begin_phase();
        log
    }

    /// Empties the turn's journal (and the phase's).
    pub(crate) fn clear_journal(&mut self) {
        let mut log = self.take_journal();
        // Keep the list's memory for the next turn.
        log.clear();
        self.log = log;
    }

    /// The pages the journal's marks hold (for tests of the memory bound).
    #[cfg(test)]
    pub(crate) fn logged_pages(&self) -> usize {
        self.logged.pages_held()
    }

    /// Starts a phase: its journal `phase_log` is emptied.
    pub(crate) fn begin_phase(&mut self) {
        self.phase_log.clear();
        // Marks of an earlier phase differ from the new epoch: an object's mark lives at most
        // one turn (`take_journal`), far fewer phases than the epoch wraps after.
        self.phase_epoch = self.phase_epoch.wrapping_add(1);
    }

    /// The objects the turn changed, with their values before it, in the order of their first
    /// change; objects changed back to that value are left out.
    pub(crate) fn turn_changes(&self) -> Vec<(ObjId, Option<Obj>)> {
        let mut out = Vec::with_capacity(self.log.len());
        for &(id, before) in &self.log {
            if self.st.objs.get(&id) != before.as_ref() {
                out.push((id, before));
            }
        }
        out
    }

    /// Adds to `v` the cells whose contents differ from when the phase began (an object
    /// added, removed, moved or turned there), in no set order and possibly twice.
    pub(crate) fn phase_cells(&self, v: &mut Vec<Pos>) {
        v.reserve(2 * self.phase_log.len());
        for (id, before) in &self.phase_log {
            let now = self.st.objs.get(id);
            if before.as_ref() != now {
                v.extend(before.map(|b| b.pos()));
                v.extend(now.map(Obj::pos));
            }
        }
    }
}
