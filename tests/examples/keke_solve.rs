//! Solves Keke AI Competition levels (`../shared/corpus/baba/keke/`) with the shared
//! breadth-first search (`tilesmith_engine::search::bfs`), one thread, a time budget per
//! level, and prints one line per level (`set id stored found states seconds result`) and a
//! summary per set: how many levels whose stored solution wins here were solved, how many
//! of those within the stored length, and states per second. Figures for BENCHMARKS.md
//! ("Search") and `docs/solver.md`:
//!
//! `cargo run --release -p tilesmith-tests --example keke_solve -- SECONDS [SET[:ID,ID…] …]`
//!
//! (default 10 seconds, every set; `full_biy:1,8,15` takes those levels of a set only). Every
//! solution found is played through a fresh game and must win. Each line also gives the CPU
//! seconds of the search (this process's user and system time, from `/proc/self/stat`, in
//! clock ticks of 10 ms; the wall time where that cannot be read), and the summary the
//! states per CPU-second: the figure the Keke agents are compared by (BENCHMARKS.md, "Keke
//! agents").

use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use tilesmith_engine::kind::baba::BabaGame;
use tilesmith_engine::search::bfs::{Answer, Limits, solve};
use tilesmith_engine::search_game::{Move, SearchError, SearchGame, SearchStatus, StateKey};
use tilesmith_engine::{Game as _, Status};
use tilesmith_tests::corpus;
use tilesmith_tests::keke::load_all;

/// Per set: levels compared, solved, no longer than stored, states, seconds, CPU seconds,
/// states generated.
type Sums = (u32, u32, u32, u64, f64, f64, u64);

fn main() {
    let mut args = std::env::args().skip(1);
    let seconds: f64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(10.0);
    // set -> the ids asked for (empty: all)
    let sets: BTreeMap<String, Vec<String>> = args
        .map(|a| match a.split_once(':') {
            Some((set, ids)) => (set.to_string(), ids.split(',').map(String::from).collect()),
            None => (a, Vec::new()),
        })
        .collect();
    let mut levels = load_all(&corpus("baba").join("keke"));
    if !sets.is_empty() {
        levels.retain(|l| {
            sets.get(&l.set)
                .is_some_and(|ids| ids.is_empty() || ids.contains(&l.id))
        });
    }
    let mut sums: BTreeMap<String, Sums> = BTreeMap::new();
    for l in &levels {
        let mut replay = BabaGame::new(l.level.clone(), 0);
        let wins = l.inputs.iter().any(|i| {
            replay.step(*i);
            matches!(replay.status(), Status::Won { .. })
        });
        if !wins {
            continue;
        }
        let game = BabaGame::new(l.level.clone(), 0);
        let Some(g) = game.searcher() else {
            continue;
        };
        let limits = Limits {
            time: Some(Duration::from_secs_f64(seconds)),
            ..Limits::default()
        };
        let mut g = Generated {
            inner: g,
            keys: std::cell::Cell::new(0),
        };
        let cpu_before = cpu_seconds();
        let out = match solve(&mut g, &limits, &AtomicBool::new(false), &mut |_| {}) {
            Ok(o) => o,
            Err(e) => {
                println!("{} {} error {e}", l.set, l.id);
                continue;
            }
        };
        let cpu = match (cpu_before, cpu_seconds()) {
            (Some(a), Some(b)) => b - a,
            _ => out.elapsed.as_secs_f64(),
        };
        let s = sums.entry(l.set.clone()).or_default();
        s.0 += 1;
        s.3 += out.states;
        s.4 += out.elapsed.as_secs_f64();
        s.5 += cpu;
        s.6 += g.keys.get();
        let (found, result) = match &out.answer {
            Answer::Solved(sol) => {
                let mut played = BabaGame::new(l.level.clone(), 0);
                let kind = played.kind();
                let inputs =
                    tilesmith_engine::parse_inputs(kind, &sol.words.join(" ")).unwrap_or_default();
                for i in inputs {
                    played.step(i);
                }
                assert!(
                    matches!(played.status(), Status::Won { .. }),
                    "{} {}: the solution found does not win",
                    l.set,
                    l.id
                );
                s.1 += 1;
                if sol.moves.len() <= l.inputs.len() {
                    s.2 += 1;
                }
                (sol.moves.len().to_string(), "solved".to_string())
            }
            Answer::Unsolvable => ("-".into(), "unsolvable".into()),
            Answer::Unknown(b) => ("-".into(), format!("unknown-{}", b.word())),
        };
        println!(
            "{} {} {} {} {} {:.3} {:.2} {} {}",
            l.set,
            l.id,
            l.inputs.len(),
            found,
            out.states,
            out.elapsed.as_secs_f64(),
            cpu,
            result,
            g.keys.get()
        );
    }
    for (set, (n, solved, within, states, secs, cpu, generated)) in sums {
        println!(
            "SET {set}: {n} levels whose stored solution wins; {solved} solved (each proved \
             shortest), {within} no longer than the stored solution; {states} states in \
             {secs:.1} s ({cpu:.1} CPU s), {:.0} states/s, {:.0} states per CPU-second; \
             {generated} generated, {:.0} per CPU-second",
            states as f64 / secs.max(1e-9),
            states as f64 / cpu.max(1e-9),
            generated as f64 / cpu.max(1e-9)
        );
    }
}

/// The level's searcher, counting the states the search generates (each one's key is asked
/// for once when it is made, duplicates included), to compare with the Keke agents, which
/// count every child they build.
struct Generated {
    inner: Box<dyn SearchGame>,
    keys: std::cell::Cell<u64>,
}

impl SearchGame for Generated {
    fn players(&self) -> usize {
        self.inner.players()
    }
    fn to_move(&self) -> usize {
        self.inner.to_move()
    }
    fn status(&mut self) -> Result<SearchStatus, SearchError> {
        self.inner.status()
    }
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), SearchError> {
        self.inner.moves(out)
    }
    fn play(&mut self, mv: Move) -> Result<(), SearchError> {
        self.inner.play(mv)
    }
    fn undo(&mut self) -> bool {
        self.inner.undo()
    }
    fn fork(&self) -> Box<dyn SearchGame> {
        self.inner.fork()
    }
    fn key(&self) -> StateKey {
        self.keys.set(self.keys.get() + 1);
        self.inner.key()
    }
    fn word(&self, mv: Move) -> String {
        self.inner.word(mv)
    }
    fn bytes(&self) -> usize {
        self.inner.bytes()
    }
    fn is_dead(&mut self) -> bool {
        self.inner.is_dead()
    }
}

/// This process's user and system CPU time in seconds (`/proc/self/stat`, fields 14 and 15,
/// in clock ticks of 1/100 s), or `None` where it cannot be read.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name (field 2) is in parentheses and may hold spaces: count after it.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split(' ').collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}
