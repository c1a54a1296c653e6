//! Replay files with bad members get located errors; an embedded level's problems point into
//! the replay file.

use std::path::Path;

use tilesmith_engine::LoadError;
use tilesmith_engine::input::MAX_REPLAY_TICKS;
use tilesmith_engine::replay::Replay;

fn error_of(text: &str) -> tilesmith_engine::Problem {
    let e = Replay::from_text(text, Path::new(".")).expect_err("the replay is invalid");
    assert_eq!(e.len(), 1, "{e:#?}");
    e[0].clone()
}

#[test]
fn mistyped_members_are_errors() {
    let p = error_of(r#"{"tilesmith":"replay","level":"x.json","inputs":["R","R"]}"#);
    assert_eq!(p.path.to_string(), "$.inputs");
    let p = error_of(r#"{"tilesmith":"replay","level":"x.json","inputs":"R","expect":[1]}"#);
    assert_eq!(p.path.to_string(), "$.expect");
    let p = error_of(r#"{"tilesmith":"replay","level":"x.json","expect":{"status":"maybe"}}"#);
    assert_eq!(p.path.to_string(), "$.expect.status");
    let p = error_of(r#"{"tilesmith":"replay","level":"x.json","expect":{"hash":"+1"}}"#);
    assert_eq!(p.path.to_string(), "$.expect.hash");
    let p = error_of(&format!(
        r#"{{"tilesmith":"replay","level":"x.json","ticks":{}}}"#,
        MAX_REPLAY_TICKS + 1
    ));
    assert_eq!(p.path.to_string(), "$.ticks");
    assert!(p.message.contains("too large"));
}

#[test]
fn embedded_level_problems_are_located_in_the_replay() {
    let text = "{\"tilesmith\": \"replay\",\n \"level\": {\"name\": \"e\", \"width\": 2, \"height\": 1, \"gems\": [0,0,0], \"ticks\": [9,9,9],\n   \"map\": [[\"me\", \"zz\"]]},\n \"inputs\": \"R\"}";
    let r = Replay::from_text(text, Path::new(".")).unwrap();
    let Err(LoadError::Problems(p)) = r.run() else {
        panic!("the embedded level is invalid")
    };
    assert_eq!(p[0].path.to_string(), "$.level.map[0][1]");
    // Line 3 is `   "map": [["me", "zz"]]},`; "zz" starts at column 19.
    assert_eq!((p[0].line, p[0].column), (Some(3), Some(19)));
}
