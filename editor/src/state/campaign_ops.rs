//! The shell's campaign actions: new, open, save and close a campaign, edit it with undo,
//! open its levels for editing, and play them from the overview with the progress recorded
//! (spec boulder §2, §2.1). The model is [`CampaignState`]; nothing here names a kind.

use std::path::{Path, PathBuf};

use tilesmith_engine::Status;
use tilesmith_engine::campaign::{Campaign, entry_path_for, resolve_entry};

use super::{Action, EditorState, Pending};
use crate::campaign::{CampaignAction, CampaignState};
use crate::error::EditorError;
use crate::files::ChooserFor;

impl EditorState {
    /// True while the campaign overview is shown (a campaign is open and no level of it is
    /// being edited or played).
    pub fn showing_overview(&self) -> bool {
        self.campaign.as_ref().is_some_and(|c| c.showing)
    }

    /// True when the open campaign has unsaved changes.
    pub fn campaign_dirty(&self) -> bool {
        self.campaign.as_ref().is_some_and(CampaignState::dirty)
    }

    /// True (and asks, with the overview shown) when the campaign has unsaved changes and
    /// the user has not agreed yet to drop them.
    pub(super) fn ask_campaign_unsaved(&mut self, then: Action) -> bool {
        if std::mem::take(&mut self.campaign_confirmed) || !self.campaign_dirty() {
            return false;
        }
        if let Some(c) = &mut self.campaign {
            c.showing = true;
        }
        self.pending = Some(Pending::Unsaved {
            then: Box::new(then),
        });
        true
    }

    pub(super) fn campaign_action(&mut self, a: CampaignAction) {
        match a {
            CampaignAction::New => self.new_campaign(),
            CampaignAction::Show => self.show_overview(),
            CampaignAction::Close => {
                if !self.ask_campaign_unsaved(CampaignAction::Close.into()) {
                    self.campaign = None;
                    self.status = "closed the campaign".into();
                }
            }
            CampaignAction::Edit(i) => self.edit_entry(i),
            CampaignAction::Play(i) => self.play_entry(i),
            CampaignAction::PlayNext => {
                match self.campaign.as_ref().and_then(CampaignState::next_to_play) {
                    Some(i) => self.play_entry(i),
                    None => self.campaign_notice("no level can be played yet".into()),
                }
            }
            CampaignAction::Save => self.save_campaign(None),
            CampaignAction::AddLevels => {
                // The dialog starts in the campaign's folder.
                let dir = self.campaign.as_ref().and_then(|c| c.file.parent());
                let dir = dir.map_or_else(|| self.doc_dir(), Path::to_path_buf);
                self.dialogs.set_dir(&dir);
                let files = self.dialogs.pick_levels();
                if files.is_empty() {
                    self.builtin_chooser(ChooserFor::AddLevels, dir, String::new());
                } else {
                    self.campaign_action(CampaignAction::AddFiles(files));
                }
            }
            other => self.campaign_edit(other),
        }
    }

    /// The actions that change the campaign (undoable) and undo/redo.
    fn campaign_edit(&mut self, a: CampaignAction) {
        let Some(c) = &mut self.campaign else { return };
        match a {
            CampaignAction::SetTitle(t) => c.edit("Rename campaign", Some("title".into()), |c| {
                c.title = t;
            }),
            CampaignAction::Move { from, to } => c.move_entry(from, to),
            CampaignAction::SetUnlock { index, points } => {
                c.edit("Set unlock points", Some(format!("unlock {index}")), |c| {
                    if let Some(e) = c.entries.get_mut(index) {
                        e.unlock = points;
                    }
                });
            }
            CampaignAction::AddFiles(files) => {
                let skipped = c.add_files(&files);
                c.notice = skipped.join("; ");
            }
            CampaignAction::Remove(i) => c.edit("Remove level", None, |c| {
                if i < c.entries.len() {
                    c.entries.remove(i);
                }
            }),
            CampaignAction::Undo if !c.undo() => self.status = "nothing to undo".into(),
            CampaignAction::Redo if !c.redo() => self.status = "nothing to redo".into(),
            _ => {}
        }
    }

    fn campaign_notice(&mut self, text: String) {
        self.status.clone_from(&text);
        if let Some(c) = &mut self.campaign {
            c.notice = text;
        }
    }

    /// Opens the campaign file `p` and shows its overview (asks first when the open
    /// campaign has unsaved changes). The open level stays open behind it.
    pub(super) fn open_campaign(&mut self, p: PathBuf) {
        if self.ask_campaign_unsaved(Action::OpenPath(p.clone())) {
            return;
        }
        match CampaignState::open(self.kinds, &p) {
            Ok(c) => {
                self.status = format!("opened the campaign {}", p.display());
                if let Some(why) = &c.progress_problem {
                    self.status = format!("the progress file cannot be read: {why}");
                }
                self.campaign = Some(c);
                self.settings.add_recent(&p);
                self.save_settings();
            }
            Err(problems) => {
                self.pending = Some(Pending::Message(format!(
                    "{} cannot be opened:\n{problems}",
                    p.display()
                )));
            }
        }
    }

    fn new_campaign(&mut self) {
        if self.ask_campaign_unsaved(CampaignAction::New.into()) {
            return;
        }
        let dir = self.doc_dir();
        self.dialogs.set_dir(&dir);
        let name = "campaign.json".to_string();
        match self.dialogs.pick_save_campaign(&name) {
            Some(file) => self.new_campaign_at(file),
            None => self.builtin_chooser(ChooserFor::NewCampaign, dir, name),
        }
    }

    /// Creates an empty campaign in `file` and shows its overview.
    pub(super) fn new_campaign_at(&mut self, file: PathBuf) {
        let title = file
            .file_stem()
            .map_or_else(|| "Campaign".into(), |s| s.to_string_lossy().into_owned());
        let c = Campaign::new(title);
        if let Err(e) = c.save(&file) {
            self.pending = Some(Pending::Message(
                EditorError::Write {
                    path: file,
                    source: e,
                }
                .to_string(),
            ));
            return;
        }
        self.campaign = Some(CampaignState::new(self.kinds, file.clone(), c, None));
        self.settings.add_recent(&file);
        self.save_settings();
        self.status = format!(
            "new campaign {}: add levels with \"Add levels\"",
            file.display()
        );
    }

    /// Saves the campaign to `to` (default: its file), atomically; entry paths are made
    /// relative to the new file's folder when it moves.
    pub(super) fn save_campaign(&mut self, to: Option<PathBuf>) {
        let Some(c) = &mut self.campaign else { return };
        let file = to.unwrap_or_else(|| c.file.clone());
        let mut saved = c.campaign.clone();
        if file != c.file {
            for e in &mut saved.entries {
                let level = resolve_entry(&c.file, &e.path);
                match entry_path_for(&file, &level) {
                    Ok(p) => e.path = p,
                    Err(why) => {
                        self.pending = Some(Pending::Message(format!(
                            "{} was not saved: {why}",
                            file.display()
                        )));
                        return;
                    }
                }
            }
        }
        match saved.save(&file) {
            Ok(()) => {
                if file != c.file {
                    *c = CampaignState::new(self.kinds, file.clone(), saved, None);
                }
                c.mark_saved();
                self.status = format!("saved the campaign {}", file.display());
                self.settings.add_recent(&file);
                self.save_settings();
            }
            Err(e) => {
                self.pending = Some(Pending::Message(
                    EditorError::Write {
                        path: file,
                        source: e,
                    }
                    .to_string(),
                ));
            }
        }
    }

    pub(super) fn save_campaign_as(&mut self) {
        let Some(c) = &self.campaign else { return };
        let name = c.file.file_name().map_or_else(
            || "campaign.json".into(),
            |n| n.to_string_lossy().into_owned(),
        );
        let dir = c.file.parent().map(Path::to_path_buf);
        let dir = dir.unwrap_or_else(|| self.doc_dir());
        self.dialogs.set_dir(&dir);
        match self.dialogs.pick_save_campaign(&name) {
            Some(p) => self.save_campaign(Some(p)),
            None => self.builtin_chooser(ChooserFor::SaveCampaignAs, dir, name),
        }
    }

    /// Back to the overview: a campaign game in progress stops (unrecorded), the levels are
    /// read again where their files changed, and the progress file is read again.
    fn show_overview(&mut self) {
        let Some(c) = &mut self.campaign else { return };
        if c.playing.take().is_some() && self.doc.play().is_some() {
            self.doc.stop_play();
        }
        c.reload_levels();
        // Results recorded meanwhile (`tilesmith run --play`, another window) and a progress
        // file repaired meanwhile show on the cards.
        c.refresh_progress();
        c.showing = true;
    }

    /// The level file of entry `i`, if there is such an entry.
    fn entry_file(&self, i: usize) -> Option<(String, PathBuf)> {
        let c = self.campaign.as_ref()?;
        let e = c.campaign.entries.get(i)?;
        Some((e.path.clone(), resolve_entry(&c.file, &e.path)))
    }

    /// Opens level `file` as the document (asking first about unsaved changes, then going on
    /// with `then`); true when it is open now.
    fn open_entry_level(&mut self, file: &Path, then: CampaignAction) -> bool {
        if self.ask_unsaved(then.into()) {
            return false;
        }
        self.confirmed = true;
        let before = self.doc_serial;
        self.apply_action(Action::OpenPath(file.to_path_buf()));
        self.confirmed = false;
        // A file of a kind's own format (not a level) opens as a new untitled level.
        self.doc_serial != before && !matches!(self.pending, Some(Pending::Message(_)))
    }

    fn edit_entry(&mut self, i: usize) {
        let Some((_, file)) = self.entry_file(i) else {
            return;
        };
        let opened = self.open_entry_level(&file, CampaignAction::Edit(i));
        self.after_entry_open(opened);
    }

    /// The page after opening an entry's level: the level when it opened, the level while
    /// its unsaved-changes question waits, else the overview (with the message why not).
    fn after_entry_open(&mut self, opened: bool) {
        let asking = matches!(self.pending, Some(Pending::Unsaved { .. }));
        if let Some(c) = &mut self.campaign {
            c.showing = !opened && !asking;
            c.playing = None;
        }
    }

    fn play_entry(&mut self, i: usize) {
        let Some(c) = &self.campaign else { return };
        let Some(why) = c.cards().get(i).map(|card| card.why_not_playable()) else {
            return;
        };
        if let Some(why) = why {
            self.campaign_notice(format!("level {} cannot be played: {why}", i + 1));
            return;
        }
        let Some((path, file)) = self.entry_file(i) else {
            return;
        };
        let opened = self.open_entry_level(&file, CampaignAction::Play(i));
        self.after_entry_open(opened);
        if !opened {
            return;
        }
        self.play_start();
        // As in the game, the clock runs from the start (real-time kinds: the held keys move;
        // Enter pauses); a turn-based level waits for each key.
        self.play_action(super::PlayAction::Run(true));
        let Some(c) = &mut self.campaign else { return };
        if self.doc.play().is_some() {
            self.doc.campaign_play_started();
            c.showing = false;
            c.playing = Some(path);
            self.status = format!(
                "playing level {} of the campaign: win it to earn points (Enter pauses)",
                i + 1
            );
        } else {
            c.showing = true;
            c.notice = self.status.clone();
        }
    }

    /// True (with the reason on the status line) when `a` goes back in a game played for
    /// the campaign: Step back, Step forward, the step slider and "Use this state as the
    /// design" are the editor's debugging tools, and a campaign game, as the course's game,
    /// has none (spec §6 W2/W3: a lost level is lost). Reset, a fresh attempt from step 0,
    /// and the game's own inputs stay.
    pub(super) fn campaign_refuses(&mut self, a: &super::PlayAction) -> bool {
        use super::PlayAction as P;
        let playing = self.campaign.as_ref().is_some_and(|c| c.playing.is_some());
        let rewinds = matches!(a, P::Back | P::Forward | P::Scrub(_) | P::UseAsDesign);
        if playing && rewinds && self.doc.play().is_some() {
            self.status = "a campaign game cannot go back: Reset starts it again".into();
            return true;
        }
        false
    }

    /// After every action: a campaign game that was won records its points (the progress
    /// file is written atomically) and the overview is shown again; a game that was lost
    /// or drawn ends the attempt (nothing recorded, the overview is shown again, spec §2.2);
    /// a game stopped by the user is forgotten.
    pub(super) fn campaign_after_action(&mut self) {
        let Some(c) = &mut self.campaign else { return };
        let Some(path) = c.playing.clone() else {
            return;
        };
        let Some(p) = self.doc.play() else {
            c.playing = None;
            return;
        };
        // A loss the game itself can take back is not final (baba: nothing is YOU, and
        // undo is one of the game's own moves, as in the real game); it keeps taking turns.
        if !matches!(p.game.status(), Status::Won { .. }) && p.game.takes_turns() {
            return;
        }
        let ended = match p.game.status() {
            Status::Won { .. } => None,
            Status::Running => return,
            Status::Lost { reason } | Status::Draw { reason } => Some(reason),
        };
        let (points, steps) = (p.game.points_earned(), p.game.steps());
        c.playing = None;
        let text = if let Some(reason) = ended {
            let name = c.level(&path).map_or(path.clone(), |i| i.name.clone());
            Ok(format!(
                "Lost \"{name}\" ({reason}): nothing is recorded; Play tries again"
            ))
        } else if points == 0 {
            Ok("the game ended without points for the player".to_string())
        } else {
            c.record(&path, points, steps)
        };
        self.doc.stop_play();
        c.showing = true;
        match text {
            Ok(t) => {
                c.notice.clone_from(&t);
                self.status = t;
            }
            Err(t) => {
                c.notice.clone_from(&t);
                self.pending = Some(Pending::Message(t));
            }
        }
    }
}

impl From<CampaignAction> for Action {
    fn from(a: CampaignAction) -> Self {
        Action::Campaign(a)
    }
}
