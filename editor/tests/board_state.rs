//! The editor's board document, tested directly on `EditorState` (no window): opening a
//! `.zrf` file as a level, the board laid out as its rules draw it, painting pieces and the
//! player to move into the saved level, saving a level that refers to its rules file by a
//! relative path (and writes edited rules back to that file), editing the rules text (the
//! last good rules stay while it has errors), and hot-seat play by clicks matched against key
//! primitives: a jump chain step by step, a choice between turns sharing a key, undo.
//!
//! The ZRF files are read where they are (`../shared/corpus/board/`, copied only into
//! temporary folders); expected values come from the files (their setups and zones) and the
//! rules of the games (English checkers: Black moves first, captures are compulsory, a whole
//! jump chain is one turn; perft 1 = 7 from `perft.json`).

#![allow(clippy::unwrap_used)] // test helpers panic on purpose when a fixture is wrong

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use tilesmith_editor::doc::map::MapLevel as _;
use tilesmith_editor::kinds::board::{BoardAction, BoardDoc, Design};
use tilesmith_editor::state::{Action, Answer, EditorState, MapAction, Pending, PlayAction};
use tilesmith_editor::tools::Button;
use tilesmith_engine::{GameKind as _, Input, Pos};

fn corpus(name: &str) -> PathBuf {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/corpus/board")
        .join(name);
    assert!(p.exists(), "the shared corpus is missing: {}", p.display());
    p
}

fn bd(s: &EditorState) -> &BoardDoc {
    s.doc_as::<BoardDoc>().expect("a board document")
}

/// The display cell of the position named `name` on the board shown.
fn cell_of(s: &EditorState, name: &str) -> Pos {
    let b = bd(s).shown_board();
    let i = b
        .rules
        .board
        .positions
        .iter()
        .position(|p| p.name == name)
        .unwrap_or_else(|| panic!("no position {name}"));
    b.layout.cell[i]
}

/// The piece on `name` as shown, as `Player Type`.
fn piece_on(s: &EditorState, name: &str) -> Option<String> {
    let b = bd(s).shown_board();
    let i = b
        .rules
        .board
        .positions
        .iter()
        .position(|p| p.name == name)?;
    bd(s).shown_cells()[i].map(|p| b.describe(&p))
}

fn press(s: &mut EditorState, pos: Pos, button: Button) {
    s.apply(Action::Map(MapAction::CellPress {
        pos,
        button,
        alt: false,
    }));
    s.apply(Action::Map(MapAction::CellRelease));
}

fn click(s: &mut EditorState, name: &str) {
    let c = cell_of(s, name);
    press(s, c, Button::Primary);
}

fn open(path: &Path) -> EditorState {
    let mut s = EditorState::new(tilesmith_editor::kinds::board::new_design());
    s.apply(Action::OpenPath(path.to_path_buf()));
    assert!(s.pending.is_none(), "{:?}", s.pending);
    s
}

/// A level of `rules` (a ZRF text held in the level) with the given members.
fn level(rules: &str, extra: Value) -> Design {
    let mut doc = json!({"kind": "board", "rules": {"zrf": rules}});
    for (k, v) in extra.as_object().unwrap() {
        doc[k] = v.clone();
    }
    Design::from_json(&doc).unwrap()
}

#[test]
fn a_zrf_file_opens_as_a_new_level_drawn_as_its_board() {
    let s = open(&corpus("chess.zrf"));
    assert_eq!(s.kind_name(), "board");
    assert_eq!(s.path, None, "Save must not write JSON over the rules file");
    assert!(!s.dirty(), "nothing to save yet");
    // 8 × 8 squares, a column of rank numbers on the left and a row of file letters below.
    assert_eq!(s.map_size(), (9, 9));
    assert_eq!(cell_of(&s, "a8"), Pos::new(1, 0));
    assert_eq!(cell_of(&s, "h1"), Pos::new(8, 7));
    assert_eq!(piece_on(&s, "e1").as_deref(), Some("White King"));
    assert_eq!(piece_on(&s, "d8").as_deref(), Some("Black Queen"));
    assert_eq!(piece_on(&s, "e4"), None);
    let l = &bd(&s).design().board.layout;
    assert!(l.squares && l.checkered);
    assert!(l.dark[0] ^ l.dark[1], "a8 and b8 differ");
    assert_eq!(l.files.len(), 8);
    assert_eq!(l.ranks.first(), Some(&(0, "8".to_string())));
}

#[test]
fn the_hex_board_of_chinese_checkers_keeps_its_star() {
    let s = open(&corpus("chinese-checkers.zrf"));
    let b = bd(&s).design();
    let l = &b.board.layout;
    assert!(!l.squares);
    // 73 positions (a hexagon of 37 and six points of 6): each in its own display cell.
    assert_eq!(l.len(), 73);
    // Files are two cells apart on a rank; the rank below starts one cell to the left
    // (the ZRF's rank offset is half a file, (-25 44)); ranks are two rows apart.
    let (d13, d12, e12) = (cell_of(&s, "d13"), cell_of(&s, "d12"), cell_of(&s, "e12"));
    assert_eq!((e12.x - d12.x, d12.y - d13.y), (2, 2));
    assert_eq!(d13.x - d12.x, 1);
    // The capturing variant (the file's default) starts Red on d10.
    assert_eq!(piece_on(&s, "d10").as_deref(), Some("Red Man"));
}

#[test]
fn painting_pieces_and_the_player_to_move_goes_into_the_saved_level() {
    let dir = tempfile::tempdir().unwrap();
    // The rules file beside a folder of puzzles: the level refers to it as "../chess.zrf".
    let zrf = dir.path().join("chess.zrf");
    std::fs::copy(corpus("chess.zrf"), &zrf).unwrap();
    std::fs::create_dir(dir.path().join("puzzles")).unwrap();
    let mut s = open(&zrf);
    s.apply(BoardAction::ClearBoard);
    assert_eq!(piece_on(&s, "e1"), None);
    let b = &bd(&s).design().board;
    let (white_king, black_king) = (b.piece(0, 5), b.piece(1, 5));
    assert_eq!(b.describe(&white_king), "White King");
    s.apply(BoardAction::SetPrimary(Some(white_king)));
    s.apply(BoardAction::SetSecondary(Some(black_king)));
    let (e1, e8) = (cell_of(&s, "e1"), cell_of(&s, "e8"));
    press(&mut s, e1, Button::Primary);
    press(&mut s, e8, Button::Secondary);
    assert_eq!(piece_on(&s, "e1").as_deref(), Some("White King"));
    assert_eq!(piece_on(&s, "e8").as_deref(), Some("Black King"));
    // The margins and the eraser: a press on a rank number paints nothing.
    press(&mut s, Pos::new(0, 3), Button::Primary);
    assert_eq!(bd(&s).design().map.get(Pos::new(0, 3)), Some(&None));
    s.apply(BoardAction::SetToMove(Some("Black".into())));
    let file = dir.path().join("puzzles/kings.json");
    s.dialogs = Box::new(tilesmith_editor::files::ScriptedDialogs {
        saves: vec![file.clone()],
        ..Default::default()
    });
    s.apply(Action::SaveAs);
    assert_eq!(s.path.as_deref(), Some(file.as_path()), "{}", s.status);
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(saved["rules"], json!("../chess.zrf"));
    assert_eq!(
        saved["setup"],
        json!({"White": {"King": ["e1"]}, "Black": {"King": ["e8"]}})
    );
    assert_eq!(saved["to_move"], json!("Black"));
    // The saved level loads anywhere: the engine reads the rules file beside it.
    let doc = tilesmith_engine::load_file(&file).unwrap();
    assert!(
        doc.check().iter().all(|p| !p.is_error()),
        "{:?}",
        doc.check()
    );
    let game = doc.start(0).unwrap();
    assert_eq!(game.to_move(), Some(1), "Black to move");
    // Opened again, it is the same design, linked to the same rules file.
    let again = open(&file);
    let (a, b) = (bd(&again).design(), bd(&s).design());
    assert_eq!(a.map, b.map);
    assert_eq!(a.rest.to_move, b.rest.to_move);
    assert_eq!(a.rest.link, b.rest.link);
    assert!(a.rest.link.is_some());
    // Undo takes the strokes back one by one.
    s.apply(Action::Map(MapAction::Undo));
    s.apply(Action::Map(MapAction::Undo));
    assert_eq!(piece_on(&s, "e8"), None);
    assert_eq!(piece_on(&s, "e1").as_deref(), Some("White King"));
}

/// Issue #31 defect 1: a `.zrf` that did not compile when it was opened, fixed in the Rules
/// tab, is still the file's text: Save writes the fixed text back to it and the level refers
/// to it relative to the level's folder (the link was lost at the first compile, so the file
/// stayed broken and the level held a copy naming the file relative to the working folder).
#[test]
fn a_broken_rules_file_fixed_in_the_editor_is_saved_back_to_that_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("bad")).unwrap();
    let zrf = dir.path().join("bad/syntax.zrf");
    let good = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../levels/board/tic-tac-toe.zrf"),
    )
    .unwrap();
    let broken = good.replacen("  (players X O)\n", "  (players X O\n", 1);
    assert_ne!(broken, good);
    std::fs::write(&zrf, &broken).unwrap();
    let mut s = open(&zrf);
    assert!(
        bd(&s).design().rest.link.is_some(),
        "the text is the file's"
    );
    s.apply(BoardAction::SetRules(good.clone()));
    let d = bd(&s).design();
    assert!(d.problems.iter().all(|p| p.warning), "{:?}", d.problems);
    assert!(d.rest.link.is_some(), "the fixed text is still the file's");
    // The board that appears is fitted to the canvas at its next frame.
    assert!(s.view.refit, "the new board is fitted");
    s.apply(Action::CanvasSize([704.0, 592.0]));
    let (w, h) = s.map_size();
    let v = s.view;
    assert!(
        v.pan[0] >= 0.0 && v.pan[0] + w as f32 * v.zoom <= 704.0 + 0.5,
        "{v:?}"
    );
    assert!(
        v.pan[1] >= 0.0 && v.pan[1] + h as f32 * v.zoom <= 592.0 + 0.5,
        "{v:?}"
    );
    let file = dir.path().join("level.json");
    s.dialogs = Box::new(tilesmith_editor::files::ScriptedDialogs {
        saves: vec![file.clone()],
        ..Default::default()
    });
    s.apply(Action::Save);
    assert!(s.pending.is_none(), "{:?}", s.pending);
    assert_eq!(
        std::fs::read_to_string(&zrf).unwrap(),
        good,
        "the file is fixed"
    );
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(saved["rules"], json!("bad/syntax.zrf"));
}

#[test]
fn edited_rules_compile_after_the_edit_keep_the_last_good_rules_and_save_to_their_file() {
    let dir = tempfile::tempdir().unwrap();
    let zrf = dir.path().join("checkers.zrf");
    std::fs::copy(corpus("english-checkers.zrf"), &zrf).unwrap();
    let mut s = open(&zrf);
    let text = bd(&s).design().rest.text.clone();
    // A typo in a piece name: an error at its line; the board and pieces stay.
    let broken = text.replacen("(name Man)", "(name Man", 1);
    s.apply(BoardAction::SetRules(broken.clone()));
    let d = bd(&s).design();
    assert_eq!(d.rest.text, broken);
    assert!(d.problems.iter().any(|p| !p.warning), "{:?}", d.problems);
    assert_eq!(piece_on(&s, "a1").as_deref(), Some("Black Man"));
    s.refresh();
    assert!(
        s.problems.iter().any(|p| p.is_error()),
        "check sees the error"
    );
    s.apply(Action::Play(PlayAction::Start));
    assert!(!s.playing(), "play is refused while the rules have errors");
    // A good edit: White's promotion zone loses a1; it compiles, the pieces stay.
    let edited = text.replacen("(positions a1 c1 e1 g1)", "(positions c1 e1 g1)", 1);
    assert_ne!(edited, text);
    s.apply(BoardAction::SetRules(edited.clone()));
    let d = bd(&s).design();
    assert!(d.problems.iter().all(|p| p.warning), "{:?}", d.problems);
    assert_eq!(piece_on(&s, "h2").as_deref(), Some("Black Man"));
    // Both edits are one history entry (typing merges).
    assert_eq!(bd(&s).map.history.done_names(), ["Edit rules"]);
    // Saving writes the level (referring to the file) and the edited rules file.
    let file = dir.path().join("level.json");
    s.dialogs = Box::new(tilesmith_editor::files::ScriptedDialogs {
        saves: vec![file.clone()],
        ..Default::default()
    });
    s.apply(Action::SaveAs);
    assert!(s.pending.is_none(), "{:?}", s.pending);
    assert_eq!(std::fs::read_to_string(&zrf).unwrap(), edited);
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(saved["rules"], json!("checkers.zrf"));
    assert!(
        saved.get("setup").is_none(),
        "the rules' own setup is not repeated"
    );
    // Undo goes back to the original text.
    s.apply(Action::Map(MapAction::Undo));
    assert_eq!(bd(&s).design().rest.text, text);
}

#[test]
fn a_new_level_holds_its_rules_and_opens_again() {
    let s = EditorState::new(tilesmith_editor::kinds::board::new_design());
    let doc = s.doc_json();
    assert!(
        doc["rules"]["zrf"]
            .as_str()
            .unwrap()
            .contains("Tic-Tac-Toe")
    );
    assert!(tilesmith_engine::kind::board::Board.check(&doc).is_empty());
    assert_eq!(Design::from_json(&doc).unwrap(), *bd(&s).design());
    // Tic-tac-toe: 3 × 3 plain squares, coordinates, nobody on the board.
    assert_eq!(s.map_size(), (4, 4));
    assert!(!bd(&s).design().board.layout.checkered);
}

/// English checkers with only the pieces given.
fn checkers(setup: Value, to_move: &str) -> EditorState {
    let text = std::fs::read_to_string(corpus("english-checkers.zrf")).unwrap();
    let d = level(
        &text,
        json!({"variant": "English Checkers", "setup": setup, "to_move": to_move}),
    );
    EditorState::new(d)
}

fn play(s: &EditorState) -> &tilesmith_editor::kinds::board::BoardPlay {
    bd(s).play.as_ref().expect("playing")
}

#[test]
fn two_plies_of_checkers_by_clicks_and_undo_restores_the_position() {
    let text = std::fs::read_to_string(corpus("english-checkers.zrf")).unwrap();
    let mut s = EditorState::new(level(&text, json!({"variant": "English Checkers"})));
    s.apply(PlayAction::Start);
    assert!(s.playing(), "{}", s.status);
    let start = play(&s).session.game.state_hash();
    assert_eq!(play(&s).turns().len(), 7, "perft 1 of checkers");
    // Black first: c3, then d4.
    click(&mut s, "c3");
    let p = play(&s);
    assert_eq!(
        p.pick
            .from
            .map(|f| p.board.pos_name(f).to_string())
            .as_deref(),
        Some("c3")
    );
    let mut targets: Vec<&str> = p
        .pick
        .targets(p.turns())
        .iter()
        .map(|t| p.board.pos_name(*t))
        .collect();
    targets.sort();
    assert_eq!(targets, ["b4", "d4"]);
    click(&mut s, "d4");
    assert_eq!(play(&s).session.steps(), 1);
    assert_eq!(piece_on(&s, "d4").as_deref(), Some("Black Man"));
    assert_eq!(piece_on(&s, "c3"), None);
    let after_one = play(&s).session.game.state_hash();
    // White: f6 to e5.
    click(&mut s, "f6");
    click(&mut s, "e5");
    assert_eq!(play(&s).session.steps(), 2);
    assert_eq!(play(&s).played(), ["c3-d4", "f6-e5"]);
    assert_eq!(piece_on(&s, "e5").as_deref(), Some("White Man"));
    // Undo twice: the same positions as before each ply.
    s.apply(PlayAction::Back);
    assert_eq!(play(&s).session.game.state_hash(), after_one);
    s.apply(PlayAction::Back);
    assert_eq!(play(&s).session.game.state_hash(), start);
    assert_eq!(piece_on(&s, "c3").as_deref(), Some("Black Man"));
    // Redo plays them again; the design never changed.
    s.apply(PlayAction::Forward);
    assert_eq!(play(&s).session.game.state_hash(), after_one);
    s.apply(PlayAction::Stop);
    assert_eq!(piece_on(&s, "c3").as_deref(), Some("Black Man"));
}

#[test]
fn a_jump_chain_is_clicked_part_by_part_with_the_same_piece() {
    // Black's man on b2 must jump c3 to d4, then either e5 (to f6) or c5 (to b6).
    let mut s = checkers(
        json!({"Black": {"Man": ["b2"]}, "White": {"Man": ["c3", "e5", "c5", "h8"]}}),
        "Black",
    );
    s.apply(PlayAction::Start);
    let mut legal: Vec<String> = play(&s)
        .turns()
        .iter()
        .map(|t| t.notation.clone())
        .collect();
    legal.sort();
    assert_eq!(legal, ["b2xd4xb6", "b2xd4xf6"]);
    click(&mut s, "b2");
    click(&mut s, "d4");
    // One part taken: nothing played yet; the chain goes on from d4 with the same piece.
    let p = play(&s);
    assert_eq!(p.session.steps(), 0);
    assert_eq!(p.pick.keys.len(), 1);
    assert_eq!(p.pick.from.map(|f| p.board.pos_name(f)), Some("d4"));
    let mut targets: Vec<&str> = p
        .pick
        .targets(p.turns())
        .iter()
        .map(|t| p.board.pos_name(*t))
        .collect();
    targets.sort();
    assert_eq!(targets, ["b6", "f6"]);
    // Another piece cannot take over the chain.
    click(&mut s, "h8");
    assert_eq!(play(&s).pick.keys.len(), 1, "still in the chain");
    click(&mut s, "f6");
    assert_eq!(play(&s).played(), ["b2xd4xf6"]);
    assert_eq!(piece_on(&s, "f6").as_deref(), Some("Black Man"));
    assert_eq!(piece_on(&s, "c3"), None);
    assert_eq!(piece_on(&s, "e5"), None);
    assert_eq!(piece_on(&s, "c5").as_deref(), Some("White Man"));
}

/// A one-file board where a pawn's step north may promote to a Queen or a Rook: two turns
/// with the same key primitive (a2-a3).
const PROMOTION: &str = "(game (title \"Promotion\") (players White Black)
  (turn-order White Black)
  (board (grid (start-rectangle 0 0 50 50)
    (dimensions (\"a\" (50 0)) (\"3/2/1\" (0 50)))
    (directions (n 0 -1) (s 0 1))))
  (piece (name Pawn) (moves (n (verify empty?) (add Queen Rook))))
  (piece (name Queen) (moves (n (verify empty?) add)))
  (piece (name Rook) (moves (n (verify empty?) add)))
  (board-setup (White (Pawn a1)) (Black (Rook a3)))
)";

#[test]
fn turns_sharing_a_key_are_chosen_from_a_list() {
    let mut s = EditorState::new(level(PROMOTION, json!({})));
    s.apply(PlayAction::Start);
    assert!(s.playing(), "{}", s.status);
    let legal: Vec<String> = play(&s)
        .turns()
        .iter()
        .map(|t| t.notation.clone())
        .collect();
    assert_eq!(legal.len(), 2, "{legal:?}");
    click(&mut s, "a1");
    click(&mut s, "a2");
    let p = play(&s);
    assert_eq!(
        p.session.steps(),
        0,
        "a click cannot tell them apart (spec M4)"
    );
    assert_eq!(p.pick.choose.len(), 2);
    let rook = p
        .pick
        .choose
        .iter()
        .copied()
        .find(|&i| p.turns()[i].notation.contains("Rook"))
        .unwrap();
    s.apply(PlayAction::Step(Some(Input::Choice(rook as u32))));
    assert_eq!(piece_on(&s, "a2").as_deref(), Some("White Rook"));
}

#[test]
fn a_click_beside_a_disc_of_the_hex_board_paints_that_disc() {
    let mut s = open(&corpus("chinese-checkers.zrf"));
    let d10 = cell_of(&s, "d10");
    assert_eq!(piece_on(&s, "d10").as_deref(), Some("Red Man"));
    // The cell below d10's is between positions; d10 is the nearest.
    s.apply(BoardAction::SetPrimary(None));
    press(&mut s, Pos::new(d10.x, d10.y + 1), Button::Primary);
    assert_eq!(piece_on(&s, "d10"), None);
    assert_eq!(bd(&s).map.history.done_names().len(), 1);
}

#[test]
fn cells_copy_as_json_and_paste_back() {
    let mut s = EditorState::new(tilesmith_editor::kinds::board::new_design());
    let man = bd(&s).design().board.piece(1, 0);
    assert_eq!(
        Design::cell_to_json(&Some(man)),
        json!([1, 0]),
        "O's Man: player 1, type 0"
    );
    assert_eq!(Design::cell_from_json(&json!([1, 0])), Some(Some(man)));
    assert_eq!(Design::cell_from_json(&json!(null)), Some(None));
    assert_eq!(Design::cell_from_json(&json!("x")), None);
    // Painting O on b2 with the secondary brush, then copying it to c3.
    s.apply(BoardAction::SetSecondary(Some(man)));
    let (b2, c3) = (cell_of(&s, "b2"), cell_of(&s, "c3"));
    press(&mut s, b2, Button::Secondary);
    s.selection = Some(tilesmith_editor::tools::CellRect::span(b2, b2));
    s.apply(MapAction::Copy);
    s.hover = Some(c3);
    s.apply(MapAction::Paste);
    assert_eq!(piece_on(&s, "c3").as_deref(), Some("O Man"));
}

#[test]
fn a_rules_file_with_errors_opens_to_be_fixed_and_its_board_appears_when_it_compiles() {
    let dir = tempfile::tempdir().unwrap();
    let zrf = dir.path().join("broken.zrf");
    let good = std::fs::read_to_string(corpus("english-checkers.zrf")).unwrap();
    let broken = good.replacen("(players Black White)", "(players Black White", 1);
    assert_ne!(broken, good);
    std::fs::write(&zrf, &broken).unwrap();
    let mut s = open(&zrf);
    let d = bd(&s).design();
    assert!(d.problems.iter().any(|p| !p.warning), "{:?}", d.problems);
    assert_eq!(s.map_size(), (1, 1), "no board yet");
    s.refresh();
    assert!(s.problems.iter().any(|p| p.is_error()));
    // The level as saved keeps the text; fixed, the board and its setup appear.
    assert_eq!(s.doc_json()["rules"]["zrf"], json!(broken));
    s.apply(BoardAction::SetRules(good));
    assert_eq!(s.map_size(), (9, 9));
    assert_eq!(piece_on(&s, "a1").as_deref(), Some("Black Man"));
    s.refresh();
    assert!(s.problems.iter().all(|p| !p.is_error()), "{:?}", s.problems);
}

#[test]
fn a_recorded_game_replays_from_the_notations_and_the_position_becomes_the_design() {
    let text = std::fs::read_to_string(corpus("english-checkers.zrf")).unwrap();
    let mut s = EditorState::new(level(&text, json!({"variant": "English Checkers"})));
    s.apply(PlayAction::Start);
    for sq in ["c3", "d4", "f6", "e5", "d4", "f6"] {
        click(&mut s, sq);
    }
    // Black's d4 jumped e5: a capture.
    assert_eq!(play(&s).played(), ["c3-d4", "f6-e5", "d4xf6"]);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.replay.json");
    s.dialogs = Box::new(tilesmith_editor::files::ScriptedDialogs {
        saves: vec![file.clone()],
        ..Default::default()
    });
    s.apply(PlayAction::Record);
    let replay: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(replay["inputs"], json!("c3-d4 f6-e5 d4xf6"));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tilesmith"))
        .args(["run", "--replay"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The position in play becomes the design: White to move, e5 gone.
    s.apply(PlayAction::UseAsDesign);
    s.apply(PlayAction::Stop);
    assert_eq!(piece_on(&s, "e5"), None);
    assert_eq!(piece_on(&s, "f6").as_deref(), Some("Black Man"));
    assert_eq!(bd(&s).design().rest.to_move.as_deref(), Some("White"));
}

#[test]
fn saving_asks_before_writing_a_rules_file_the_user_did_not_open() {
    // Issue #30: a level's rules file may be anywhere; the editor writes it only when the
    // user opened that file or agrees. Here the user opens the level, not its rules.
    let dir = tempfile::tempdir().unwrap();
    let zrf = dir.path().join("checkers.zrf");
    std::fs::copy(corpus("english-checkers.zrf"), &zrf).unwrap();
    let original = std::fs::read_to_string(&zrf).unwrap();
    let level = dir.path().join("level.json");
    std::fs::write(&level, r#"{"kind": "board", "rules": "checkers.zrf"}"#).unwrap();
    let mut s = open(&level);
    let edited = original.replacen("(positions a1 c1 e1 g1)", "(positions c1 e1 g1)", 1);
    assert_ne!(edited, original);
    s.apply(BoardAction::SetRules(edited.clone()));
    // Save asks, naming the rules file; Cancel writes nothing.
    s.apply(Action::Save);
    match &s.pending {
        Some(Pending::ConfirmWrites { files, to }) => {
            assert_eq!(files.len(), 1);
            assert_eq!(
                std::fs::canonicalize(&files[0]).unwrap(),
                std::fs::canonicalize(&zrf).unwrap()
            );
            assert_eq!(to, &level);
        }
        p => panic!("{p:?}"),
    }
    s.apply(Action::Answer(Answer::Cancel));
    assert_eq!(std::fs::read_to_string(&zrf).unwrap(), original);
    assert!(s.dirty(), "not saved");
    // Agreed: the rules file and the level are written; the next Save does not ask again.
    s.apply(Action::Save);
    s.apply(Action::Answer(Answer::WriteFiles));
    assert!(s.pending.is_none(), "{:?}", s.pending);
    assert_eq!(std::fs::read_to_string(&zrf).unwrap(), edited);
    assert!(!s.dirty());
    let again = edited.replacen("(positions c1 e1 g1)", "(positions e1 g1)", 1);
    s.apply(BoardAction::SetRules(again.clone()));
    s.apply(Action::Save);
    assert!(s.pending.is_none(), "{:?}", s.pending);
    assert_eq!(std::fs::read_to_string(&zrf).unwrap(), again);
    // The leave was given for that document: a second level opened in the same window that
    // refers to the same rules file asks again before writing it.
    let other = dir.path().join("other.json");
    std::fs::write(&other, r#"{"kind": "board", "rules": "checkers.zrf"}"#).unwrap();
    s.apply(Action::OpenPath(other.clone()));
    assert!(s.pending.is_none(), "{:?}", s.pending);
    let third = again.replacen("(positions e1 g1)", "(positions g1)", 1);
    s.apply(BoardAction::SetRules(third));
    s.apply(Action::Save);
    assert!(
        matches!(&s.pending, Some(Pending::ConfirmWrites { to, .. }) if to == &other),
        "{:?}",
        s.pending
    );
    s.apply(Action::Answer(Answer::Cancel));
    assert_eq!(std::fs::read_to_string(&zrf).unwrap(), again);
    // A level whose rules are unchanged writes no rules file and asks nothing.
    let mut s = open(&level);
    s.apply(Action::Save);
    assert!(s.pending.is_none(), "{:?}", s.pending);
}
