//! Rule formation from text on the grid (spec baba §3), the rule strings of the summary, and
//! the editor-facing API: rules with their tiles, text that forms no rule, the palette.

use tilesmith_engine::grid::Pos;
use tilesmith_engine::kind::Game;
use tilesmith_engine::kind::baba::{
    BabaGame, Condition, Noun, Prep, Prop, Verb, Word, WordClass, palette, parse_words,
    sentence_tiles, words_of,
};
use tilesmith_tests::baba::{board, game};

fn texts(b: &str) -> Vec<String> {
    board(b).rules().iter().map(|r| r.text.clone()).collect()
}

#[test]
fn rows_read_left_to_right_and_columns_top_to_bottom_only() {
    assert_eq!(texts("[BABA] [IS] [YOU]"), vec!["baba is you"]);
    assert_eq!(
        texts(
            "[BABA]
             [IS]
             [YOU]"
        ),
        vec!["baba is you"]
    );
    assert!(texts("[YOU] [IS] [BABA]").is_empty());
    assert!(
        texts(
            "[YOU]
             [IS]
             [BABA]"
        )
        .is_empty()
    );
    assert!(
        texts(
            "[BABA] .    .
             .      [IS] .
             .      .    [YOU]"
        )
        .is_empty(),
        "no diagonals"
    );
}

#[test]
fn and_chains_expand_and_not_not_cancels() {
    assert_eq!(
        texts("[BABA] [AND] [KEKE] [IS] [YOU] [AND] [HAS] [KEY]"),
        vec!["baba is you", "baba has key", "keke is you", "keke has key"]
    );
    assert_eq!(texts("[NOT] [NOT] [BABA] [IS] [YOU]"), vec!["baba is you"]);
    assert_eq!(
        texts("[BABA] [IS] [NOT] [NOT] [NOT] [YOU]"),
        vec!["baba is not you"]
    );
    assert_eq!(texts("[NOT] [BABA] [IS] [YOU]"), vec!["not baba is you"]);
    assert_eq!(
        texts("[BABA] [FACING] [LEFT] [IS] [MOVE]"),
        vec!["baba facing left is move"]
    );
    assert_eq!(
        texts("[LONELY] [KEKE] [IS] [PUSH]"),
        vec!["lonely keke is push"]
    );
    assert_eq!(
        texts("[BABA] [ON] [ROCK] [IS] [WIN]"),
        vec!["baba on rock is win"]
    );
}

#[test]
fn has_and_make_take_nouns_only() {
    assert!(texts("[BABA] [HAS] [YOU]").is_empty());
    assert!(texts("[BABA] [MAKE] [WIN]").is_empty());
    assert_eq!(texts("[BABA] [MAKE] [TEXT]"), vec!["baba make text"]);
    assert_eq!(texts("[BABA] [IS] [TEXT]"), vec!["baba is text"]);
}

#[test]
fn a_noun_complement_may_start_the_next_sentence() {
    // §3.3: continue from the last word of a sentence.
    assert_eq!(
        texts("[BABA] [IS] [KEKE] [IS] [YOU]"),
        vec!["baba is keke", "keke is you"]
    );
}

#[test]
fn conditions_parse_into_their_parts() {
    let rules = parse_words("not lonely baba facing up and near flag and rock is win").unwrap();
    assert_eq!(rules.len(), 1);
    let r = &rules[0];
    assert_eq!(r.conditions.len(), 3);
    assert!(matches!(
        r.conditions[0],
        Condition::Prefix { negated: true, .. }
    ));
    match &r.conditions[2] {
        Condition::Phrase { prep, args, .. } => {
            assert_eq!(*prep, Prep::Near);
            assert_eq!(args.len(), 2);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(r.verb, Verb::Is);
    assert_eq!(r.complement, Word::Prop(Prop::Win));
    assert_eq!(r.subject, Noun::from_name("baba").unwrap());
    assert_eq!(
        r.text(),
        "not lonely baba facing up and near flag and rock is win"
    );
}

#[test]
fn rules_carry_their_tiles_and_unused_text_is_reported() {
    let level = board(
        "[BABA] [AND] [KEKE] [IS] [YOU] .
         [ROCK] .      .      .    .     [WIN]",
    );
    let rules = level.rules();
    assert_eq!(rules.len(), 2);
    let tiles = |i: usize| -> Vec<(usize, usize)> {
        rules[i].tiles.iter().map(|t| (t.pos.x, t.pos.y)).collect()
    };
    // baba is you uses BABA, AND, IS, YOU but not KEKE.
    assert_eq!(rules[0].text, "baba is you");
    assert_eq!(tiles(0), vec![(0, 0), (1, 0), (3, 0), (4, 0)]);
    assert_eq!(rules[1].text, "keke is you");
    assert_eq!(tiles(1), vec![(1, 0), (2, 0), (3, 0), (4, 0)]);
    let unused: Vec<Pos> = level.unused_text().iter().map(|t| t.pos).collect();
    assert_eq!(unused, vec![Pos::new(0, 1), Pos::new(5, 1)]);
}

#[test]
fn stacked_text_gives_every_combination_and_multiplicity() {
    // Two texts in the middle cell: both BABA IS YOU and BABA HAS YOU? (HAS YOU is invalid).
    let level = board("[BABA] [IS]+[HAS] [KEY]");
    let t: Vec<String> = level.rules().iter().map(|r| r.text.clone()).collect();
    assert_eq!(t, vec!["baba is key", "baba has key"]);
    assert_eq!(level.rules()[1].tiles[1].layer, 1);
    // The same rule formed twice counts twice (2 X BELT IS SHIFT).
    let level = board(
        "[BELT] [IS] [SHIFT]
         [BELT] [IS] [SHIFT]",
    );
    assert_eq!(level.rules().len(), 2);
}

#[test]
fn summary_lists_board_rules_without_implicit_ones() {
    let mut g = BabaGame::new(
        board(
            "[BABA] [IS] [YOU] .
             B      .    .     .",
        ),
        0,
    );
    let s = g.summary();
    assert_eq!(s["kind"], "baba");
    assert_eq!(s["status"], "running");
    assert_eq!(s["turns"], 0);
    assert_eq!(s["rules"], serde_json::json!(["baba is you"]));
    g.step(tilesmith_engine::Input::Move(tilesmith_engine::Dir::Right));
    assert_eq!(g.summary()["turns"], 1);
}

#[test]
fn text_is_push_is_implicit_and_text_is_not_push_removes_it() {
    let g = game("[ROCK]", &[]);
    assert_eq!(g.prop_count(g.objects()[0].id, Prop::Push), 1);
    let g = game("[ROCK]", &["text is not push"]);
    assert_eq!(g.prop_count(g.objects()[0].id, Prop::Push), 0);
}

#[test]
fn palette_groups_words_by_class() {
    let p = palette();
    let class = |tok: &str| p.iter().find(|e| e.token == tok).map(|e| e.class);
    assert_eq!(class("baba"), Some(None));
    assert_eq!(class("text_baba"), Some(Some(WordClass::Noun)));
    assert_eq!(class("text_is"), Some(Some(WordClass::Operator)));
    assert_eq!(class("text_on"), Some(Some(WordClass::Operator)));
    assert_eq!(class("text_not"), Some(Some(WordClass::Operator)));
    assert_eq!(class("text_you"), Some(Some(WordClass::Property)));
    assert_eq!(class("text_text"), Some(Some(WordClass::Noun)));
    assert_eq!(class("text"), None);
    let tokens: std::collections::HashSet<&str> = p.iter().map(|e| e.token.as_str()).collect();
    assert_eq!(tokens.len(), p.len(), "no duplicate palette entries");
}

#[test]
fn typed_sentences_become_words() {
    let w = words_of("Keke is PUSH").unwrap();
    assert_eq!(
        w,
        vec![
            Word::Noun(Noun::from_name("keke").unwrap()),
            Word::Verb(Verb::Is),
            Word::Prop(Prop::Push)
        ]
    );
    assert_eq!(words_of("keke is jumpy"), None);
    assert_eq!(parse_words("is keke push"), None);
}

#[test]
fn typed_sentences_are_placed_in_a_row_or_a_column() {
    let row = sentence_tiles("keke is push", Pos::new(1, 2), false, 5, 5).unwrap();
    assert_eq!(
        row,
        vec![
            (Pos::new(1, 2), "text_keke".to_string()),
            (Pos::new(2, 2), "text_is".to_string()),
            (Pos::new(3, 2), "text_push".to_string())
        ]
    );
    let col = sentence_tiles("keke is push", Pos::new(0, 2), true, 5, 5).unwrap();
    assert_eq!(col[2], (Pos::new(0, 4), "text_push".to_string()));
    assert_eq!(
        sentence_tiles("keke is push", Pos::new(3, 0), false, 5, 5),
        None
    );
    assert_eq!(
        sentence_tiles("keke is zzz", Pos::new(0, 0), false, 5, 5),
        None
    );
    assert_eq!(sentence_tiles("  ", Pos::new(0, 0), false, 5, 5), None);
}

#[test]
fn a_sentence_of_hundreds_of_ands_is_capped_not_quadratic() {
    // 60 nouns AND-ed, IS, 60 properties AND-ed: 3600 rules if expanded fully; the engine caps
    // one sentence at MAX_RULES_PER_SENTENCE.
    let nouns = ["baba", "keke", "rock", "wall", "flag"];
    let props = ["push", "stop", "win", "sink", "hot"];
    let mut row: Vec<String> = Vec::new();
    for i in 0..60 {
        if i > 0 {
            row.push("\"text_and\"".into());
        }
        row.push(format!("\"text_{}\"", nouns[i % 5]));
    }
    row.push("\"text_is\"".into());
    for i in 0..60 {
        if i > 0 {
            row.push("\"text_and\"".into());
        }
        row.push(format!("\"text_{}\"", props[i % 5]));
    }
    let text = format!(
        r#"{{"kind":"baba","name":"and","width":{},"height":1,"map":[[{}]]}}"#,
        row.len(),
        row.join(",")
    );
    let doc = tilesmith_engine::load_text(&text).unwrap();
    let game = doc.start(0).unwrap();
    let rules = game.summary()["rules"].as_array().unwrap().len();
    assert_eq!(
        rules,
        tilesmith_engine::kind::baba::rules::MAX_RULES_PER_SENTENCE
    );
}
