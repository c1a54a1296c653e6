//! Rule formation from text on the grid (spec baba §3), the rule strings of the summary, and
//! the editor-facing API: rules with their tiles, text that forms no rule, the palette.

use tilesmith_engine::game::Game;
use tilesmith_engine::grid::Pos;
use tilesmith_engine::kind::baba::{
    BabaGame, Condition, Noun, Prep, Prop, Verb, Word, WordClass, palette, parse_words,
    sentence_tiles, words_of,
};
use tilesmith_tests::baba::{board, game};

fn texts(b: &str) -> Vec<String> {
    board(b)
        .rules()
        .iter()
        .map(|r| r.text.to_string())
        .collect()
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

/// `Rule::text` is the sentence as written, NOT NOT removed, with "and" between the prefixes,
/// the phrases and the arguments of one phrase: reading it back gives the same rule.
#[test]
fn a_rule_names_itself_as_the_sentence_it_was_read_from() {
    for s in [
        "baba is you",
        "not baba is not win",
        "lonely and not lonely keke is push",
        "baba on flag and not near not rock and keke is not you",
        "not lonely baba facing up and on tile is move",
        "rock has not keke",
    ] {
        let rules = parse_words(s).unwrap();
        assert_eq!(rules.len(), 1, "{s}");
        assert_eq!(rules[0].text(), s);
        assert_eq!(parse_words(&rules[0].text()).unwrap(), rules);
    }
    let r = &parse_words("not not baba is not not you").unwrap()[0];
    assert_eq!(r.text(), "baba is you");
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
    assert_eq!(&*rules[0].text, "baba is you");
    assert_eq!(tiles(0), vec![(0, 0), (1, 0), (3, 0), (4, 0)]);
    assert_eq!(&*rules[1].text, "keke is you");
    assert_eq!(tiles(1), vec![(1, 0), (2, 0), (3, 0), (4, 0)]);
    let unused: Vec<Pos> = level.unused_text().iter().map(|t| t.pos).collect();
    assert_eq!(unused, vec![Pos::new(0, 1), Pos::new(5, 1)]);
}

#[test]
fn stacked_text_gives_every_combination_and_multiplicity() {
    // Two texts in the middle cell: both BABA IS YOU and BABA HAS YOU? (HAS YOU is invalid).
    let level = board("[BABA] [IS]+[HAS] [KEY]");
    let t: Vec<String> = level.rules().iter().map(|r| r.text.to_string()).collect();
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
    // 60 nouns AND-ed, IS, 60 properties AND-ed: 3600 rules if expanded fully. The engine caps
    // one sentence at MAX_RULES_PER_SENTENCE (256) rules and one line's rules at
    // MAX_LINE_RULE_TILES (4096) tiles; each rule here holds 121 tiles (its subject, the 59
    // ANDs between subjects, IS, its property, the 59 between properties), so the line limit
    // comes first: 33 rules (3993 tiles; a 34th would make 4114).
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
    assert_eq!(rules, 33);
}

/// The line cache of rule forming (`RuleCache`, issue 11's speed step) must give exactly the
/// full re-form's rule list, order included (the order of the rules decides the order of
/// evaluation), after any change of the text: here 3 000 random changes (a tile moved to
/// another cell, added, removed, its word changed, or its stack index changed by its own move
/// or by an object entering or leaving under it) on a 9×7 map dense with
/// nouns, operators, properties, conditions and letters, one cache kept across all of them.
#[test]
fn rule_cache_matches_a_full_re_form_over_random_text_moves() {
    use rand_chacha::ChaCha8Rng;
    use rand_core::{Rng, SeedableRng};
    use tilesmith_engine::kind::baba::{RuleCache, TextTile, form_rules};

    let vocab = words_of(
        "baba keke rock flag baba keke is is is is is and and not on near facing lonely you \
         win push stop you win has make b a i s y o u",
    )
    .unwrap();
    let (w, h) = (9usize, 7usize);
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut pick = |n: usize| (rng.next_u32() as usize) % n;
    let mut tiles: Vec<(Pos, Word)> = Vec::new();
    // Per cell, how many other objects lie under its text (an object entering or leaving
    // shifts the stack index of the text above it).
    let mut under = vec![0usize; w * h];
    // The tiles with their stack index: the objects under them, then the order of `tiles`
    // within the cell.
    let as_text = |tiles: &[(Pos, Word)], under: &[usize]| -> Vec<TextTile> {
        let mut v: Vec<TextTile> = Vec::new();
        for (i, &(pos, word)) in tiles.iter().enumerate() {
            let layer = under[pos.y * w + pos.x] + tiles[..i].iter().filter(|t| t.0 == pos).count();
            v.push(TextTile { pos, layer, word });
        }
        v.sort_by_key(|t| (t.pos.y, t.pos.x, t.layer));
        v
    };
    for _ in 0..55 {
        tiles.push((Pos::new(pick(w), pick(h)), vocab[pick(vocab.len())]));
    }
    let mut cache = RuleCache::default();
    let (mut formed_total, mut changed_lists) = (0usize, 0usize);
    let mut last = Vec::new();
    for step in 0..3000 {
        match pick(10) {
            0..=5 if !tiles.is_empty() => {
                let k = pick(tiles.len());
                let (dx, dy) = [(1, 0), (0, 1), (w - 1, 0), (0, h - 1)][pick(4)];
                let p = tiles[k].0;
                tiles[k].0 = Pos::new((p.x + dx) % w, (p.y + dy) % h);
            }
            6 if tiles.len() < 75 => {
                tiles.push((Pos::new(pick(w), pick(h)), vocab[pick(vocab.len())]))
            }
            7 if tiles.len() > 35 => {
                tiles.remove(pick(tiles.len()));
            }
            8 if !tiles.is_empty() => {
                let k = pick(tiles.len());
                tiles[k].1 = vocab[pick(vocab.len())];
            }
            9 if pick(2) == 0 => {
                // An object enters or leaves under the text of a cell.
                let c = pick(w * h);
                under[c] = 1 - under[c];
            }
            _ if !tiles.is_empty() => {
                // Moves a tile to the top of its cell's stack (the others' stack index drops).
                let k = pick(tiles.len());
                let t = tiles.remove(k);
                tiles.push(t);
            }
            _ => {}
        }
        let texts = as_text(&tiles, &under);
        let incremental = cache.form(w, h, &texts);
        let full = form_rules(w, h, &texts);
        assert_eq!(
            incremental, full,
            "step {step}: the cached lines differ from a full re-form"
        );
        formed_total += full.len();
        changed_lists += usize::from(full != last);
        last = full;
    }
    // The random text must form rules and change them often, or the check proves nothing.
    eprintln!("{formed_total} rules formed, the list changed {changed_lists} times");
    assert!(
        formed_total > 1000,
        "only {formed_total} rules formed in all"
    );
    assert!(
        changed_lists > 100,
        "the rule list changed only {changed_lists} times"
    );
}

/// A row of `words` as a one-row level (words are text names without `text_`).
fn row_level(words: &[&str]) -> tilesmith_engine::kind::baba::BabaLevel {
    let row: Vec<String> = words.iter().map(|w| format!("text_{w}")).collect();
    let doc = serde_json::json!({
        "kind": "baba", "name": "row", "width": row.len(), "height": 1, "map": [row]
    });
    tilesmith_engine::kind::baba::BabaLevel::from_json(&doc).expect("a valid level")
}

/// The widest AND chain a real level's line holds (31 cells: 8 subjects, IS, 8 properties)
/// forms its 8 × 8 rules, each holding 17 tiles (its subject, the 7 ANDs between subjects,
/// IS, its property, the 7 ANDs between properties): 1088 tiles in all, well within
/// `MAX_LINE_RULE_TILES`, so it is read whole and `check` has nothing to say about it.
#[test]
fn the_widest_real_and_chain_is_read_whole() {
    let nouns = [
        "baba", "keke", "rock", "wall", "flag", "skull", "water", "lava",
    ];
    let props = ["you", "win", "push", "stop", "move", "sink", "hot", "melt"];
    let mut words: Vec<&str> = Vec::new();
    for (i, n) in nouns.iter().enumerate() {
        if i > 0 {
            words.push("and");
        }
        words.push(n);
    }
    words.push("is");
    for (i, p) in props.iter().enumerate() {
        if i > 0 {
            words.push("and");
        }
        words.push(p);
    }
    assert_eq!(words.len(), 31);
    let level = row_level(&words);
    let rules = level.rules();
    assert_eq!(rules.len(), 64);
    assert!(rules.iter().all(|r| r.tiles.len() == 17));
    assert!(
        !level
            .warnings()
            .iter()
            .any(|p| p.message.contains("tiles in all")),
        "{:?}",
        level.warnings()
    );
}

/// A row of 999 cells, `ROCK AND ROCK AND … IS MOVE` (499 subjects): every rule holds its
/// subject, the 498 ANDs, IS and MOVE, 501 tiles. Read whole it would be 256 rules
/// (MAX_RULES_PER_SENTENCE) of 501 tiles; with `MAX_LINE_RULE_TILES` = 4096 the line gives
/// the first 8 (4008 tiles; a ninth would make 4509), and `check` warns at that row
/// (issue #30: 1000 such rows took 9 s and 8.5 GB).
#[test]
fn a_line_of_hundreds_of_ands_is_read_up_to_its_tile_limit() {
    use tilesmith_engine::kind::baba::MAX_LINE_RULE_TILES;
    assert_eq!(MAX_LINE_RULE_TILES, 4096);
    let mut words: Vec<&str> = Vec::new();
    for i in 0..499 {
        if i > 0 {
            words.push("and");
        }
        words.push("rock");
    }
    words.extend(["is", "move"]);
    assert_eq!(words.len(), 999);
    let level = row_level(&words);
    let rules = level.rules();
    assert_eq!(rules.len(), 8);
    assert!(
        rules
            .iter()
            .all(|r| &*r.text == "rock is move" && r.tiles.len() == 501)
    );
    // In reading order: the first eight subjects.
    let firsts: Vec<usize> = rules
        .iter()
        .filter_map(|r| r.tiles.iter().find(|t| matches!(t.word, Word::Noun(_))))
        .map(|t| t.pos.x)
        .collect();
    assert_eq!(firsts, [0, 2, 4, 6, 8, 10, 12, 14]);
    let cut: Vec<String> = level
        .warnings()
        .iter()
        .filter(|p| p.message.contains("tiles in all"))
        .map(|p| format!("{} {}", p.path, p.message))
        .collect();
    assert_eq!(cut.len(), 1, "{cut:?}");
    assert!(
        cut[0].starts_with("$.map[0] the text of row y = 0"),
        "{cut:?}"
    );
}

#[test]
fn the_run_line_lists_at_most_256_rules_and_counts_the_rest() {
    // 300 rows of BABA IS YOU: 300 rules formed (one a sentence), 256 listed, 44 counted
    // (issue #30's review: a map of 300 000 sentences printed a 5 MB line).
    use tilesmith_engine::game::Game as _;
    use tilesmith_engine::kind::baba::{BabaGame, BabaLevel, game::SUMMARY_RULES};
    let rows: Vec<serde_json::Value> = (0..300)
        .map(|_| serde_json::json!(["text_baba", "text_is", "text_you", null]))
        .collect();
    let doc = serde_json::json!({"kind": "baba", "name": "many", "width": 4, "height": 300,
                                 "map": rows});
    let g = BabaGame::new(BabaLevel::from_json(&doc).unwrap(), 0);
    let s = g.summary();
    assert_eq!(SUMMARY_RULES, 256);
    assert_eq!(s["rules"].as_array().unwrap().len(), 256, "{s}");
    assert_eq!(s["rules"][0], "baba is you");
    assert_eq!(s["rules_more"], 44, "{s}");
    // A level with few rules has no count.
    let few = BabaGame::new(
        BabaLevel::from_json(
            &serde_json::json!({"kind": "baba", "name": "few", "width": 3,
            "height": 1, "map": [["text_baba", "text_is", "text_you"]]}),
        )
        .unwrap(),
        0,
    );
    assert!(few.summary().get("rules_more").is_none());
}
