//! The shell's file actions: new, open, save, quit, the file watcher's reloads, autosave and
//! crash recovery, recorded replays. Documents are made and read through the list of kinds
//! the state holds ([`EditorState::kinds`]), so nothing here names a kind.

use std::path::{Path, PathBuf};

use serde_json::Value;
use tilesmith_engine::LoadError;
use tilesmith_engine::game::{FileOpening, FileType};

use super::{Action, Answer, EditorState, Pending};
use crate::doc::registry::Kinds;
use crate::doc::{KindDoc, render_problems};
use crate::error::EditorError;
use crate::files::ChooserFor;

impl EditorState {
    /// What `check` says of the saved level's references to other files that the design
    /// alone cannot say ([`crate::doc::KindDoc::file_warnings`]; none before the level has a
    /// file).
    pub(super) fn file_warnings(&self) -> Vec<tilesmith_engine::Problem> {
        self.path
            .as_deref()
            .map(|f| self.doc.file_warnings(f))
            .unwrap_or_default()
    }

    pub(super) fn file_action(&mut self, action: Action) {
        match action {
            Action::New => self.file_action(Action::NewOf(self.kind_name())),
            Action::NewOf(kind) => {
                if self.ask_unsaved(Action::NewOf(kind)) {
                    return;
                }
                let Some(doc) = self.kinds.new_doc(kind) else {
                    self.status = format!("no kind named {kind}");
                    return;
                };
                self.replace_document(doc, None, None);
                let (w, h) = self.map_size();
                self.view.fit(w, h);
                self.status = format!("new {kind} level");
                self.offer_autosave();
            }
            Action::Open => {
                if self.ask_unsaved(Action::Open) {
                    return;
                }
                let dir = self.doc_dir();
                self.dialogs.set_dir(&dir);
                match self.dialogs.pick_open() {
                    Some(p) => {
                        self.confirmed = true;
                        self.apply(Action::OpenPath(p));
                    }
                    None => self.builtin_chooser(ChooserFor::Open, dir, String::new()),
                }
            }
            Action::OpenPath(p) if tilesmith_engine::campaign::is_campaign_file(&p) => {
                self.open_campaign(p);
            }
            Action::OpenPath(p) => {
                if self.ask_unsaved(Action::OpenPath(p.clone())) {
                    return;
                }
                // A file of a kind's own format (not a level) opens as a new level.
                let file_type = self.kinds.file_type(&p);
                let Some(read) = self.read_in_background(&p) else {
                    return; // read on a worker: the open goes on when it arrives (load_ops.rs)
                };
                match read {
                    Ok((doc, _)) if let Some(t) = file_type => self.open_kind_file(doc, &p, t),
                    Ok((doc, text)) => {
                        self.replace_document(doc, Some(p.clone()), Some(text));
                        self.settings.add_recent(&p);
                        self.save_settings();
                        let (w, h) = self.map_size();
                        self.view.fit(w, h);
                        self.opened_status(&p);
                        self.offer_autosave();
                    }
                    Err(e) => self.pending = Some(Pending::Message(e.to_string())),
                }
            }
            Action::Save if self.showing_overview() => self.save_campaign(None),
            Action::SaveAs if self.showing_overview() => self.save_campaign_as(),
            Action::Save => match self.path.clone() {
                Some(p) => self.save_to(&p),
                None => self.apply(Action::SaveAs),
            },
            Action::SaveAs => {
                let name = self
                    .path
                    .as_ref()
                    .and_then(|p| p.file_name())
                    .map_or_else(|| "level.json".into(), |n| n.to_string_lossy().into_owned());
                // Save As starts in the document's folder.
                let dir = self.doc_dir();
                self.dialogs.set_dir(&dir);
                match self.dialogs.pick_save(&name) {
                    Some(p) => self.save_to(&p),
                    None => self.builtin_chooser(ChooserFor::SaveLevel, dir, name),
                }
            }
            Action::ExportPng => self.export_png(),
            Action::ExportFinished(m) => self.status = m,
            Action::ChooserDone(answer) => self.chooser_done(answer),
            Action::Quit => {
                if self.ask_campaign_unsaved(Action::Quit) || self.ask_unsaved(Action::Quit) {
                    return;
                }
                if let Some(a) = &self.autosave
                    && !self.dirty()
                {
                    a.remove(self.path.as_deref());
                }
                self.close_ok = true;
            }
            Action::DiskChanged => self.disk_changed(),
            Action::Autosave => self.autosave_now(),
            Action::Answer(a) => self.answer(a),
            _ => {}
        }
    }

    /// The folder file dialogs start in: the open file's, else the most recent file's, else
    /// the working directory.
    pub(super) fn doc_dir(&self) -> PathBuf {
        self.path
            .iter()
            .chain(self.settings.recent.iter())
            .find_map(|p| p.parent().filter(|d| d.is_dir()).map(Path::to_path_buf))
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_default()
    }

    /// "opened FILE", with the number of errors of a level opened in repair mode.
    fn opened_status(&mut self, p: &Path) {
        self.status = format!("opened {}", p.display());
        self.check_now();
        let errors = self.problems.iter().filter(|x| x.is_error()).count();
        if errors > 0 {
            // Repair mode: what could not be read is shown and kept as found.
            self.status.push_str(&format!(
                " with {errors} error(s), listed under Problems (what could not be read is \
                 shown hatched and kept as found until fixed)"
            ));
        }
    }

    /// True (and asks) when there are unsaved changes and the user has not agreed yet.
    pub(super) fn ask_unsaved(&mut self, then: Action) -> bool {
        if std::mem::take(&mut self.confirmed) || !self.dirty() {
            return false;
        }
        // The question is about the level: show it (not the campaign overview).
        if let Some(c) = &mut self.campaign {
            c.showing = false;
        }
        self.pending = Some(Pending::Unsaved {
            then: Box::new(then),
        });
        true
    }

    pub(super) fn replace_document(
        &mut self,
        mut doc: Box<dyn KindDoc>,
        path: Option<PathBuf>,
        text: Option<String>,
    ) {
        // Brushes and the clipboard stay, so cells can be copied between levels of a kind.
        if doc.kind().name() == self.kind_name() {
            doc.keep_tools_of(self.doc.as_mut());
        }
        self.doc = doc;
        self.doc.refresh();
        self.doc_serial += 1;
        // Fitted now to the last canvas size, and again to the canvas it is first drawn in.
        self.view.refit = true;
        // A level opened or made now is what the user wants to see, not the campaign overview.
        if let Some(c) = &mut self.campaign {
            c.showing = false;
        }
        self.hover = None;
        self.path = path;
        self.disk_text = text;
        self.selection = None;
        self.inspect = None;
        self.last_hover = None;
        self.problems_gen = None;
        self.problems_job = None;
        self.autosaved_gen = 0;
        self.autosave_on_disk = false;
        // Leave to write other files was given for the document that is gone (issue #30): a
        // level opened next that refers to the same rules file asks again.
        self.writable.clear();
    }

    /// The text of the file the document was read from, when the document has no edit since
    /// (it is at its saved state) and is saved into that file's folder (so that the paths it
    /// holds, relative to its folder, still hold): saving it then writes the file's own text,
    /// byte for byte, whatever its style (issue #31 defect 12). `None` otherwise: the document
    /// is laid out by `json_text::layout`.
    fn unedited_text(&self, p: &Path) -> Option<String> {
        let from = self.path.as_ref()?;
        let same_folder = match (from.parent(), p.parent()) {
            (Some(a), Some(b)) => {
                let full = |d: &Path| std::fs::canonicalize(d).ok();
                a == b || full(a).is_some_and(|x| full(b).is_some_and(|y| x == y))
            }
            _ => false,
        };
        (!self.dirty() && same_folder)
            .then(|| self.disk_text.clone())
            .flatten()
    }

    pub(super) fn save_to(&mut self, p: &Path) {
        let full = |f: &Path| std::fs::canonicalize(f).unwrap_or_else(|_| f.to_path_buf());
        let ask: Vec<PathBuf> = self
            .doc
            .files_to_write()
            .into_iter()
            .filter(|f| !self.writable.iter().any(|w| full(w) == full(f)))
            .collect();
        if !ask.is_empty() {
            self.pending = Some(Pending::ConfirmWrites {
                files: ask,
                to: p.to_path_buf(),
            });
            return;
        }
        let doc = match self.doc.save_json(p) {
            Ok(doc) => doc,
            Err(m) => {
                self.pending = Some(Pending::Message(format!(
                    "{} was not saved: {m}",
                    p.display()
                )));
                return;
            }
        };
        let text = self
            .unedited_text(p)
            .unwrap_or_else(|| tilesmith_engine::json_text::layout(&doc));
        match tilesmith_engine::json_text::write_atomic(p, text.as_bytes()) {
            Ok(()) => {
                self.autosave_discard();
                if let Some(a) = &self.autosave {
                    a.remove(Some(p));
                }
                self.path = Some(p.to_path_buf());
                self.disk_text = Some(text);
                self.doc.map_mut().mark_saved();
                self.settings.add_recent(p);
                self.save_settings();
                self.check_now();
                let errors = self.problems.iter().filter(|x| x.is_error()).count();
                self.status = format!("saved {}", p.display());
                if errors > 0 {
                    self.status.push_str(&format!(
                        " ({errors} error(s) remain: `tilesmith check` and play refuse it until they are fixed)"
                    ));
                }
            }
            Err(e) => {
                self.pending = Some(Pending::Message(
                    EditorError::Write {
                        path: p.to_path_buf(),
                        source: e,
                    }
                    .to_string(),
                ))
            }
        }
    }

    pub(super) fn save_settings(&mut self) {
        if let Some(f) = &self.settings_file
            && let Err(e) = self.settings.save(f)
        {
            self.status = format!("could not save the settings: {e}");
        }
    }

    fn disk_changed(&mut self) {
        let Some(p) = self.path.clone() else { return };
        let Ok(text) = std::fs::read_to_string(&p) else {
            self.status = format!("{} cannot be read (removed?)", p.display());
            return;
        };
        if self.disk_text.as_deref() == Some(text.as_str()) {
            return;
        }
        if self.dirty() {
            self.pending = Some(Pending::ExternalChange { text });
        } else {
            self.take_disk(text);
        }
    }

    /// Replaces the level by `doc` as one undoable edit ("Reload from disk", …); a level of
    /// another kind replaces the document instead (that cannot be undone).
    fn push_level(&mut self, name: &str, doc: Value) -> Result<(), EditorError> {
        let same_kind =
            tilesmith_engine::kind::kind_of(&doc).is_ok_and(|k| k.name() == self.kind_name());
        // Messages name the file (or "untitled").
        let file = self
            .path
            .as_ref()
            .map_or_else(|| "untitled".into(), |p| p.display().to_string());
        let refused = |p: Vec<tilesmith_engine::Problem>| EditorError::Level {
            problems: render_problems(&file, &p),
            file: file.clone(),
        };
        if same_kind {
            self.doc.load(name, &doc).map_err(refused)?;
        } else {
            let new = self.kinds.open_doc(&doc).map_err(refused)?;
            // The same document, reloaded as another kind: what it may write stays.
            let (path, text) = (self.path.clone(), self.disk_text.clone());
            let writable = std::mem::take(&mut self.writable);
            self.replace_document(new, path, text);
            self.writable = writable;
            self.doc.map_mut().mark_unsaved();
        }
        self.clip_selection();
        Ok(())
    }

    /// Loads the disk text as an undoable edit and marks it saved.
    fn take_disk(&mut self, text: String) {
        let Some(p) = self.path.clone() else { return };
        let file = p.display().to_string();
        let base = p.parent().unwrap_or(Path::new("")).to_path_buf();
        let loaded = tilesmith_engine::load_text(&text)
            .map_err(|e| EditorError::Level {
                file: file.clone(),
                problems: render_problems(&file, &e),
            })
            .and_then(|mut d| {
                // The files the level refers to are read from its folder, as at open.
                tilesmith_engine::document::resolve_files(&mut d.value, &base);
                self.push_level("Reload from disk", d.value)
            })
            .map_err(|e| match e {
                // Problems of the document itself: located in the disk text, named by file.
                EditorError::Level { .. } => match parse_named(self.kinds, &file, &text) {
                    Err(located) => located,
                    Ok(_) => e,
                },
                other => other,
            });
        match loaded {
            Ok(()) => {
                self.doc.map_mut().mark_saved();
                self.status = format!("reloaded {} (changed on disk)", p.display());
            }
            Err(e) => {
                self.status = format!(
                    "{} changed on disk but cannot be loaded; keeping the editor's version",
                    p.display()
                );
                self.pending = Some(Pending::Message(e.to_string()));
            }
        }
        self.disk_text = Some(text);
    }

    fn answer(&mut self, a: Answer) {
        let Some(pending) = self.pending.take() else {
            return;
        };
        match (pending, a) {
            (Pending::Unsaved { then }, Answer::Save) if self.showing_overview() => {
                // The question was about the campaign (the overview is shown while asking).
                self.apply(Action::Save);
                if !self.campaign_dirty() {
                    self.campaign_confirmed = true;
                    self.apply(*then);
                }
            }
            (Pending::Unsaved { then }, Answer::Discard) if self.showing_overview() => {
                self.campaign_confirmed = true;
                self.apply(*then);
            }
            (Pending::Unsaved { then }, Answer::Save) => {
                self.apply(Action::Save);
                if !self.dirty() {
                    self.confirmed = true;
                    self.apply(*then);
                } else if self.chooser.is_some() {
                    // An untitled level without a native dialog: the built-in chooser asks
                    // where; the action goes on once it saved there.
                    self.after_chooser_save = Some(then);
                }
            }
            (Pending::Unsaved { then }, Answer::Discard) => {
                self.autosave_discard();
                self.confirmed = true;
                self.apply(*then);
            }
            (Pending::ExternalChange { text }, Answer::KeepMine) => {
                self.disk_text = Some(text);
                self.doc.map_mut().mark_unsaved();
                self.status = "kept the editor's version; the file on disk differs".into();
            }
            (Pending::ExternalChange { text }, Answer::TakeDisk) => self.take_disk(text),
            (Pending::RestoreAutosave(found), Answer::Restore) => self.restore(found),
            (Pending::RestoreAutosave(found), Answer::DropAutosave) => {
                let _ = std::fs::remove_file(&found.copy);
            }
            (
                Pending::ConfirmResize {
                    width,
                    height,
                    anchor,
                    ..
                },
                Answer::ResizeAnyway,
            ) => self.resize_anyway(width, height, anchor),
            (Pending::ConfirmWrites { files, to }, Answer::WriteFiles) => {
                self.writable.extend(files);
                self.save_to(&to);
            }
            (Pending::Message(_), _) | (_, Answer::Cancel) => {}
            (p, _) => self.pending = Some(p),
        }
    }

    /// Opens `doc`, read from `p`, a file of a kind's own format `t` (not a level), as a new
    /// level.
    fn open_kind_file(&mut self, doc: Box<dyn KindDoc>, p: &Path, t: &FileType) {
        // Save must not write JSON over such a file. An imported one is unsaved work; one
        // the level refers to, opened as it is, has nothing to save yet.
        self.replace_document(doc, None, None);
        // The user opened this file: Save may write it back (the level refers to it).
        self.writable.push(p.to_path_buf());
        let import = t.opening == FileOpening::Import;
        if import {
            self.doc.map_mut().mark_unsaved();
        }
        self.settings.add_recent(p);
        self.save_settings();
        let (w, h) = self.map_size();
        self.view.fit(w, h);
        self.status = if import {
            format!(
                "imported the {} {} (Save As writes it as a level)",
                t.word,
                p.display()
            )
        } else {
            format!(
                "opened the {} {} as a new level (Save As writes a level that refers to it)",
                t.word,
                p.display()
            )
        };
    }

    fn restore(&mut self, found: crate::files::Found) {
        if found.file != self.path {
            // A copy of another document (an untitled one found at start-up).
            match self.kinds.open_doc(&found.level) {
                Ok(doc) => {
                    self.replace_document(doc, found.file.clone(), None);
                    self.doc.map_mut().mark_unsaved();
                    self.autosave_on_disk = true;
                    self.status = "restored the autosave copy".into();
                }
                Err(_) => self.status = "the autosave copy cannot be loaded".into(),
            }
            return;
        }
        match self.push_level("Restore autosave", found.level) {
            Ok(()) => {
                self.autosave_on_disk = true;
                self.status = "restored the autosave copy".into();
            }
            Err(_) => self.status = "the autosave copy cannot be loaded".into(),
        }
    }

    /// Offers the autosave copy of an untitled document, if one was left behind and no other
    /// question is pending (called at start-up).
    pub fn offer_untitled_autosave(&mut self) {
        if self.pending.is_some() || self.path.is_none() {
            return;
        }
        let Some(a) = &self.autosave else { return };
        if let Some(found) = a.find(None) {
            self.pending = Some(Pending::RestoreAutosave(found));
        }
    }

    pub(super) fn offer_autosave(&mut self) {
        let Some(a) = &self.autosave else { return };
        if let Some(found) = a.find(self.path.as_deref())
            && self.kinds.open_doc(&found.level).is_ok()
            && !self.doc.is_level(&found.level)
        {
            self.pending = Some(Pending::RestoreAutosave(found));
        }
    }

    /// Play → Record: asks where to save the replay of the play (the built-in chooser when
    /// no native dialog is available), then [`EditorState::record_to`].
    pub(super) fn record(&mut self) {
        if self.doc.play().is_none() {
            return;
        }
        let stem = self
            .path
            .as_ref()
            .and_then(|p| p.file_stem())
            .map_or_else(|| "level".into(), |s| s.to_string_lossy().into_owned());
        let name = format!("{stem}.replay.json");
        let dir = self.doc_dir();
        self.dialogs.set_dir(&dir);
        match self.dialogs.pick_save_replay(&name) {
            Some(file) => self.record_to(&file),
            None => self.builtin_chooser(ChooserFor::SaveReplay, dir, name),
        }
    }

    /// Writes the play so far as the level's intended solution beside its file
    /// ([`PlayAction::KeepIntended`]); refused, with a status message, for a level never
    /// saved or with unsaved changes (the replay would refer to another level).
    pub(super) fn keep_intended(&mut self) {
        if self.doc.play().is_none() {
            return;
        }
        let Some(level) = self.path.clone() else {
            self.status = "save the level first: its intended solution is kept beside it".into();
            return;
        };
        if self.dirty() {
            self.status =
                "save the level first: the intended solution must be a play of the level as saved"
                    .into();
            return;
        }
        let file = level.with_extension("intended.replay.json");
        self.record_to(&file);
    }

    /// Writes the play so far as a replay to `file`. It refers to the level file when the
    /// play started from it as saved, else embeds the level.
    pub(super) fn record_to(&mut self, file: &Path) {
        self.doc.play_settle();
        let clean = !self.dirty();
        let design = self.doc_json();
        let Some(p) = self.doc.play() else {
            self.status = "not playing: nothing to record".into();
            return;
        };
        let level_file = self.path.clone().filter(|_| clean && p.start == design);
        let replay = p.replay(level_file.as_deref());
        let base = file.parent().unwrap_or(Path::new("."));
        let doc = replay.to_json(base);
        let text = tilesmith_engine::json_text::layout(&doc);
        match tilesmith_engine::json_text::write_atomic(file, text.as_bytes()) {
            Ok(()) => self.status = format!("recorded {}", file.display()),
            Err(e) => {
                self.pending = Some(Pending::Message(
                    EditorError::Write {
                        path: file.to_path_buf(),
                        source: e,
                    }
                    .to_string(),
                ))
            }
        }
    }
}

/// Parses level text into a document of one of `kinds`.
///
/// # Errors
/// [`EditorError::Level`] with one line per problem (`level:LINE:COL: message`).
pub fn parse_document(kinds: Kinds, text: &str) -> Result<Box<dyn KindDoc>, EditorError> {
    parse_named(kinds, "level", text)
}

fn parse_named(kinds: Kinds, file: &str, text: &str) -> Result<Box<dyn KindDoc>, EditorError> {
    let level = |p: &[tilesmith_engine::Problem]| EditorError::Level {
        file: file.to_string(),
        problems: render_problems(file, p),
    };
    let doc = tilesmith_engine::load_text(text).map_err(|p| level(&p))?;
    kinds.open_doc(&doc.value).map_err(|mut p| {
        tilesmith_engine::problem::locate(text, &mut p);
        level(&p)
    })
}

/// Reads and parses a level file of any kind the editor edits: the document and the file's
/// text.
///
/// # Errors
/// [`EditorError::Read`] when the file cannot be read, [`EditorError::Level`] naming the file
/// and listing its problems as `tilesmith check` does.
pub fn read_document(kinds: Kinds, path: &Path) -> Result<(Box<dyn KindDoc>, String), EditorError> {
    let file = path.display().to_string();
    let doc = match tilesmith_engine::load_file(path) {
        Ok(doc) => doc,
        Err(LoadError::Io(e)) => {
            return Err(EditorError::Read {
                path: path.to_path_buf(),
                source: e,
            });
        }
        Err(LoadError::Problems(p)) => {
            return Err(EditorError::Level {
                problems: render_problems(&file, &p),
                file,
            });
        }
    };
    let level = |p: &[tilesmith_engine::Problem]| EditorError::Level {
        file: file.clone(),
        problems: render_problems(&file, p),
    };
    // The files the level refers to (a board level's rules) were read relative to its folder:
    // the document is made from the value they were read into, not from the text again.
    if doc
        .file_problems
        .iter()
        .any(tilesmith_engine::Problem::is_error)
    {
        return Err(level(&doc.file_problems));
    }
    match kinds.open_doc(&doc.value) {
        Ok(d) => Ok((d, doc.text)),
        Err(mut p) => {
            tilesmith_engine::problem::locate(&doc.text, &mut p);
            Err(level(&p))
        }
    }
}

/// The default level to open: `welcome.json`, else the first loadable `*.json` (by name), in
/// `levels/KIND/` of the first of `kinds`, under the current directory or in the source
/// workspace, if any.
pub fn default_level_file(kinds: Kinds) -> Option<PathBuf> {
    let kind = kinds.default_entry().name;
    let mut dirs = vec![Path::new("levels").join(kind)];
    if let Some(m) = option_env!("CARGO_MANIFEST_DIR") {
        dirs.push(Path::new(m).join("../levels").join(kind));
    }
    for d in dirs {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        let mut files: Vec<PathBuf> = rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        files.sort();
        // Prefer the introductory level when there is one.
        files.sort_by_key(|f| f.file_stem().is_none_or(|s| s != "welcome"));
        if let Some(f) = files.into_iter().find(|f| read_document(kinds, f).is_ok()) {
            return Some(f);
        }
    }
    None
}
