//! Input words belong to the kind: each kind's table, errors for words of other kinds, repeat
//! counts (`WORD*N`) with their bounds, the collapsing writer, and replays written with `*N`.

use std::path::Path;

use proptest::prelude::*;
use serde_json::{Value, json};
use tilesmith_engine::input::MAX_REPLAY_TICKS;
use tilesmith_engine::kind::baba::{Baba, BabaGame};
use tilesmith_engine::kind::boulder::{Boulder, BoulderGame};
use tilesmith_engine::kind::{kind_named, kinds};
use tilesmith_engine::replay::Replay;
use tilesmith_engine::{
    Dir, Game as _, GameKind, Input, InputError, format_inputs, load_file, parse_inputs,
};
use tilesmith_tests::{json_files, workspace};

fn words(kind: &dyn GameKind) -> Vec<&'static str> {
    kind.inputs().iter().map(|s| s.word).collect()
}

#[test]
fn each_kind_declares_exactly_its_words() {
    assert_eq!(
        words(&Boulder),
        [".", "L", "R", "U", "D", "ML", "MR", "MU", "MD"]
    );
    assert_eq!(words(&Baba), [".", "L", "R", "U", "D", "undo", "restart"]);
    let boulder: Vec<Input> = Boulder.inputs().iter().map(|s| s.input).collect();
    assert_eq!(
        boulder[5..],
        [
            Input::Meta(Dir::Left),
            Input::Meta(Dir::Right),
            Input::Meta(Dir::Up),
            Input::Meta(Dir::Down)
        ]
    );
    let baba: Vec<Input> = Baba.inputs().iter().map(|s| s.input).collect();
    assert_eq!(baba[5..], [Input::Undo, Input::Restart]);
    let label = |k: &dyn GameKind, w: &str| {
        let s = k.inputs().iter().find(|s| s.word == w).unwrap();
        (s.label, s.key)
    };
    assert_eq!(label(&Boulder, "MR"), ("Dig right", "Shift+ArrowRight"));
    assert_eq!(label(&Baba, "L"), ("Left", "ArrowLeft"));
    assert_eq!(label(&Baba, "undo"), ("Undo", "Z"));
    assert_eq!(label(&Baba, "."), ("Wait", "Space"));
}

#[test]
fn every_table_is_consistent() {
    for k in kinds() {
        let table = k.inputs();
        if k.positional_inputs() {
            // Its steps are the legal moves of each position; the table holds only what
            // every position takes, and no wait (a board game does not pass by itself).
            assert!(table.iter().all(|s| s.input != Input::Wait), "{}", k.name());
        } else {
            assert_eq!(table[0].input, Input::Wait, "{}: wait first", k.name());
        }
        for (i, s) in table.iter().enumerate() {
            // The collapsing writer needs no kind because of this.
            assert_eq!(s.word, s.input.word(), "{}", k.name());
            assert!(!s.label.is_empty() && !s.key.is_empty(), "{}", s.word);
            assert!(!s.word.contains('*') && !s.word.contains(char::is_whitespace));
            for t in &table[..i] {
                assert!(!t.word.eq_ignore_ascii_case(s.word), "{} twice", s.word);
                assert_ne!(t.input, s.input, "{:?} twice", s.input);
                assert_ne!(t.key, s.key, "key {} twice", s.key);
            }
            assert_eq!(k.parse_input(s.word), Ok(s.input));
            assert_eq!(k.parse_input(&s.word.to_ascii_uppercase()), Ok(s.input));
            assert_eq!(k.parse_input(&s.word.to_ascii_lowercase()), Ok(s.input));
        }
    }
}

#[test]
fn a_running_game_finds_its_kind_and_concrete_type() {
    assert_eq!(kind_named("baba").map(|k| k.name()), Some("baba"));
    assert_eq!(kind_named("Boulder").map(|k| k.name()), Some("boulder"));
    assert!(kind_named("tetris").is_none());
    let doc = load_file(&workspace().join("levels/baba/first-words.json")).unwrap();
    let mut game = doc.start(0).unwrap();
    let kind = game.kind();
    assert_eq!(words(kind), words(&Baba));
    assert!(game.as_any().downcast_ref::<BabaGame>().is_some());
    assert!(game.as_any().downcast_ref::<BoulderGame>().is_none());
    // The concrete game behind `dyn Game` is the live one: a turn through it shows in `game`.
    let baba = game.as_any_mut().downcast_mut::<BabaGame>().unwrap();
    baba.step(Input::Move(Dir::Right));
    assert_eq!(baba.turn(), 1);
    assert_eq!(game.steps(), 1);
}

#[test]
fn unknown_words_name_the_word_and_list_the_kinds_words() {
    let e = Boulder.parse_input("Q").unwrap_err();
    assert_eq!(
        e.to_string(),
        "\"Q\" is not a boulder input (use . L R U D ML MR MU MD)"
    );
    let e = parse_inputs(&Boulder, "R R Q").unwrap_err();
    assert_eq!(
        e,
        InputError::Unknown {
            position: Some(3),
            word: "Q".into(),
            kind: "boulder",
            expected: words(&Boulder),
        }
    );
    assert_eq!(
        e.to_string(),
        "word 3 \"Q\" is not a boulder input (use . L R U D ML MR MU MD)"
    );
}

#[test]
fn baba_refuses_meta_and_boulder_refuses_undo() {
    for w in ["ML", "MR", "mu", "MD"] {
        let e = parse_inputs(&Baba, &format!("R {w}")).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("word 2 \"{w}\" is not a baba input (use . L R U D undo restart)")
        );
    }
    for w in ["undo", "restart", "UNDO"] {
        let e = parse_inputs(&Boulder, w).unwrap_err();
        assert!(
            e.to_string()
                .starts_with(&format!("word 1 \"{w}\" is not a boulder input")),
            "{e}"
        );
    }
    // A repeated foreign word is refused the same way, naming the word without its count.
    let e = parse_inputs(&Baba, "ML*4").unwrap_err();
    assert!(
        e.to_string()
            .starts_with("word 1 \"ML\" is not a baba input")
    );
}

#[test]
fn repeat_counts_expand() {
    let r = Input::Move(Dir::Right);
    assert_eq!(parse_inputs(&Boulder, "R*3").unwrap(), [r, r, r]);
    assert_eq!(
        parse_inputs(&Boulder, "R*3").unwrap(),
        parse_inputs(&Boulder, "R R R").unwrap()
    );
    assert_eq!(
        parse_inputs(&Boulder, " .*2  ml*1\tD ").unwrap(),
        [
            Input::Wait,
            Input::Wait,
            Input::Meta(Dir::Left),
            Input::Move(Dir::Down)
        ]
    );
    assert_eq!(
        parse_inputs(&Baba, "undo*2 restart").unwrap(),
        [Input::Undo, Input::Undo, Input::Restart]
    );
    assert_eq!(parse_inputs(&Baba, "R*007").unwrap().len(), 7);
    assert_eq!(parse_inputs(&Baba, "").unwrap(), []);
    assert_eq!(parse_inputs(&Baba, "  \n ").unwrap(), []);
}

#[test]
fn malformed_counts_are_errors_naming_the_word() {
    for (text, position, word, reason) in [
        ("R*0", 1, "R*0", "the count must be at least 1"),
        ("L R*", 2, "R*", "no count after '*'"),
        ("*", 1, "*", "no input word before '*'"),
        ("D *3", 2, "*3", "no input word before '*'"),
        ("R*-1", 1, "R*-1", "the count must be decimal digits"),
        ("R*abc", 1, "R*abc", "the count must be decimal digits"),
        ("R*+3", 1, "R*+3", "the count must be decimal digits"),
        ("R*3x", 1, "R*3x", "the count must be decimal digits"),
        ("R*١", 1, "R*١", "the count must be decimal digits"),
        (". . R*2*3", 3, "R*2*3", "more than one '*'"),
        ("R**2", 1, "R**2", "more than one '*'"),
    ] {
        let e = parse_inputs(&Boulder, text).unwrap_err();
        assert_eq!(
            e,
            InputError::BadCount {
                position,
                word: word.into(),
                reason
            },
            "{text}"
        );
        assert_eq!(
            e.to_string(),
            format!("word {position} \"{word}\" has a bad repeat count: {reason}")
        );
    }
}

#[test]
fn the_number_of_steps_is_bounded() {
    let max = MAX_REPLAY_TICKS;
    assert_eq!(
        parse_inputs(&Boulder, &format!("R*{max}")).unwrap().len() as u64,
        max
    );
    assert_eq!(
        parse_inputs(&Boulder, &format!("R*{} L", max - 1))
            .unwrap()
            .len() as u64,
        max
    );
    for (text, position, word) in [
        (format!("R*{}", max + 1), 1, format!("R*{}", max + 1)),
        (format!("R*{max} ."), 2, ".".to_string()),
        (
            format!("L R*{} U*{}", max / 2, max / 2 + 1),
            3,
            format!("U*{}", max / 2 + 1),
        ),
        // Counts far past u64 are too many steps, not a wrap-around.
        (
            "R*99999999999999999999999999".to_string(),
            1,
            "R*99999999999999999999999999".to_string(),
        ),
        (
            format!("R*{} R*{}", u64::MAX, u64::MAX),
            1,
            format!("R*{}", u64::MAX),
        ),
    ] {
        let e = parse_inputs(&Boulder, &text).unwrap_err();
        assert_eq!(
            e,
            InputError::TooMany {
                position,
                word: word.clone()
            }
        );
        assert_eq!(
            e.to_string(),
            format!("word {position} \"{word}\" makes the inputs too long (more than {max} steps)")
        );
    }
    // Plain words count too.
    let long = "R ".repeat(max as usize + 1);
    assert!(matches!(
        parse_inputs(&Boulder, &long),
        Err(InputError::TooMany { position, .. }) if position as u64 == max + 1
    ));
}

#[test]
fn the_writer_collapses_runs_of_three_or_more() {
    let p = |t: &str| parse_inputs(&Boulder, t).unwrap();
    assert_eq!(format_inputs(&p("R R")), "R R");
    assert_eq!(format_inputs(&p("R R R")), "R*3");
    assert_eq!(
        format_inputs(&p("D D D D D D U U R R R . mr mr mr mr")),
        "D*6 U U R*3 . MR*4"
    );
    assert_eq!(format_inputs(&p("R L R L")), "R L R L");
    assert_eq!(format_inputs(&p(". . .")), ".*3");
    assert_eq!(format_inputs(&p("R*1000000")), "R*1000000");
}

/// A kind's name and inputs drawn from its table, in runs of 1 to 6 equal inputs.
fn kind_and_inputs() -> impl Strategy<Value = (&'static str, Vec<Input>)> {
    (0..kinds().len()).prop_flat_map(|k| {
        let kind = kinds()[k];
        let n = kind.inputs().len();
        prop::collection::vec((0..n, 1usize..7), 0..40).prop_map(move |runs| {
            let inputs = runs
                .into_iter()
                .flat_map(|(i, len)| std::iter::repeat_n(kind.inputs()[i].input, len))
                .collect();
            (kind.name(), inputs)
        })
    })
}

proptest! {
    #[test]
    fn parse_of_format_is_the_identity((name, inputs) in kind_and_inputs()) {
        let kind = kind_named(name).unwrap();
        let text = format_inputs(&inputs);
        prop_assert_eq!(parse_inputs(kind, &text).unwrap(), inputs.clone());
        // Never longer than the words spelled out, and one space between words.
        let spelled: Vec<&str> = inputs.iter().map(|i| i.word()).collect();
        prop_assert!(text.len() <= spelled.join(" ").len());
        prop_assert!(!text.contains("  ") && text.trim() == text);
    }

    #[test]
    fn format_of_parse_is_stable((name, inputs) in kind_and_inputs()) {
        let kind = kind_named(name).unwrap();
        // Whatever spelling a text has, the writer gives one form for the same inputs.
        let spelled: Vec<&str> = inputs.iter().map(|i| i.word()).collect();
        let reread = parse_inputs(kind, &spelled.join(" ")).unwrap();
        prop_assert_eq!(format_inputs(&reread), format_inputs(&inputs));
    }
}

/// Every replay in tests/replays: the old spelled-out words read as before, and the replay
/// written again (now with `*N`) reads to the same inputs and replays to the recorded hash.
#[test]
fn every_stored_replay_survives_a_rewrite_with_counts() {
    let mut rewritten_with_counts = 0;
    for sub in ["boulder", "baba"] {
        let dir = workspace().join("tests/replays").join(sub);
        for f in json_files(&dir) {
            let text = std::fs::read_to_string(&f).unwrap();
            let raw: Value = serde_json::from_str(&text).unwrap();
            let old_words = raw["inputs"].as_str().unwrap();
            assert!(
                !old_words.contains('*'),
                "{}: stored with counts",
                f.display()
            );
            let replay = Replay::load(&f).unwrap();
            let doc = replay.document().unwrap();
            let spelled: Vec<Input> = old_words
                .split_whitespace()
                .map(|w| doc.kind.parse_input(w).unwrap())
                .collect();
            assert_eq!(replay.inputs, spelled, "{}", f.display());

            let written = replay.to_json(&dir);
            let new_words = written["inputs"].as_str().unwrap();
            assert_eq!(new_words, format_inputs(&spelled));
            rewritten_with_counts += usize::from(new_words.contains('*'));
            let again = Replay::from_json(&written, &dir).unwrap();
            assert_eq!(again.inputs, replay.inputs, "{}", f.display());
            assert_eq!(again.ticks, replay.ticks, "{}", f.display());
            let outcome = again.run().unwrap();
            assert!(outcome.matches, "{}", f.display());
            assert_eq!(Some(outcome.hash), replay.hash, "{}", f.display());
        }
    }
    assert!(rewritten_with_counts > 5, "the stored replays have runs");
}

/// A replay written by hand with counts plays to the same state as the same inputs spelled out.
#[test]
fn a_replay_with_counts_replays_to_the_same_hash() {
    let level = json!({"name":"run","width":8,"height":3,"gems":[1,1,1],"ticks":[50,40,30],
        "map":[["wall","wall","wall","wall","wall","wall","wall","wall"],
               ["wall","me","path","path","gem","path","exit","wall"],
               ["wall","wall","wall","wall","wall","wall","wall","wall"]]});
    let replay = |inputs: &str| {
        let v = json!({"tilesmith":"replay","level":level,"inputs":inputs});
        Replay::from_json(&v, Path::new(".")).unwrap()
    };
    let counted = replay(". R*3 MR . R*2");
    let spelled = replay(". R R R MR . R R");
    assert_eq!(counted.inputs, spelled.inputs);
    assert_eq!(counted.ticks, 8);
    let a = counted.run().unwrap();
    let b = spelled.run().unwrap();
    assert_eq!(a.hash, b.hash);
    assert_eq!(a.game.status().word(), "won");
    // Recorded and written, it keeps its counts and replays to the recorded hash.
    let recorded = counted.clone().recorded(a.game.as_ref());
    let written = recorded.to_json(Path::new("."));
    assert_eq!(written["inputs"], ". R*3 MR . R R");
    let again = Replay::from_json(&written, Path::new(".")).unwrap();
    let c = again.run().unwrap();
    assert!(c.matches);
    assert_eq!(c.hash, a.hash);
}

/// Issue #30 (strict files): a replay of a version this program does not read is refused at
/// `$.version`, naming the version it reads; absent or 1 is read.
#[test]
fn a_replay_of_an_unknown_version_is_refused() {
    let level = json!({"kind":"boulder","name":"v","width":4,"height":3,
        "map":[["wall","wall","wall","wall"],["wall","me","exit","wall"],["wall","wall","wall","wall"]]});
    let with = |version: Option<Value>| {
        let mut v = json!({"tilesmith":"replay","level":level,"inputs":"R"});
        if let Some(x) = version {
            v["version"] = x;
        }
        Replay::from_json(&v, Path::new("."))
    };
    assert!(with(None).is_ok());
    assert!(with(Some(json!(1))).is_ok());
    // Each named as written: a number as is, a string quoted once.
    for (bad, shown) in [
        (json!(99), "99"),
        (json!(2), "2"),
        (json!("1"), "\"1\""),
        (json!(0), "0"),
    ] {
        let Err(p) = with(Some(bad.clone())) else {
            panic!("version {bad} was read");
        };
        assert_eq!(p[0].path.to_string(), "$.version", "{bad}");
        assert_eq!(
            p[0].message,
            format!("replay version {shown} is not one this program reads (it reads 1)")
        );
    }
}

#[test]
fn replays_read_their_words_through_the_levels_kind() {
    let baba = load_file(&workspace().join("levels/baba/first-words.json")).unwrap();
    let v = json!({"tilesmith":"replay","level":baba.value,"inputs":"R R ML"});
    let e = Replay::from_json(&v, Path::new(".")).unwrap_err();
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].path.to_string(), "$.inputs");
    assert_eq!(
        e[0].message,
        "word 3 \"ML\" is not a baba input (use . L R U D undo restart)"
    );
    let v = json!({"tilesmith":"replay","level":{"kind":"tetris"},"inputs":"R"});
    let e = Replay::from_json(&v, Path::new(".")).unwrap_err();
    assert_eq!(e[0].path.to_string(), "$.level.kind");
    // A level file is read for its kind; a missing one is a problem at `$.level`.
    let text =
        "{\"tilesmith\": \"replay\",\n \"level\": \"no-such-level.json\", \"inputs\": \"R\"}";
    let e = Replay::from_text(text, Path::new("/nonexistent")).unwrap_err();
    assert_eq!(e[0].path.to_string(), "$.level");
    assert!(
        e[0].message
            .starts_with("cannot read the level \"/nonexistent/no-such-level.json\""),
        "{}",
        e[0].message
    );
    assert_eq!((e[0].line, e[0].column), (Some(2), Some(11)));
    let v = json!({"tilesmith":"replay","level":{"name":"e"},"inputs":"R*0"});
    let e = Replay::from_json(&v, Path::new(".")).unwrap_err();
    assert_eq!(
        e[0].message,
        "word 1 \"R*0\" has a bad repeat count: the count must be at least 1"
    );
}
