//! Issue 31 item 5 and issue 28 item 9, measured natively: a Session's cost per turn and its
//! snapshot as its history grows.
//!
//! ```text
//! cargo run --release -p context-assembly --features serde --example session_growth
//! ```
//!
//! Prints, for 1,500 prompts of 1 KB with no answer between them on one session, the time of
//! each third, the snapshot's size and its restore time; then, for 500 saves of one 200 KB
//! file, the snapshot's size and its restore time.

use std::time::Instant;

use context_assembly::snapshot::{JournaledSession, SessionSpec};
use context_assembly::ProfileName;

fn spec() -> SessionSpec {
    SessionSpec {
        profile: ProfileName::Recommended,
        cwd: "/p".into(),
        home: None,
        config: None,
    }
}

fn main() {
    let prompt = "x".repeat(1_000) + " ";
    let mut session = JournaledSession::new(spec()).unwrap();
    let mut at = 1_000;
    println!("1,500 unanswered prompts of 1 KB (recommended):");
    for third in 0..3 {
        let start = Instant::now();
        let mut outcome = Ok(());
        for _ in 0..500 {
            at += 1_000;
            if let Err(error) = session.submit(&prompt, at) {
                outcome = Err(error);
                break;
            }
        }
        let elapsed = start.elapsed().as_secs_f64();
        println!(
            "  prompts {}-{}: {elapsed:.2} s",
            third * 500 + 1,
            third * 500 + 500
        );
        if let Err(error) = outcome {
            println!("  stopped: {error}");
            break;
        }
    }
    restore_figures(&session);

    let mut session = JournaledSession::new(spec()).unwrap();
    let line = "const value = 1234567890; // a line of a large file\n";
    let base = line.repeat(200_000 / line.len());
    let start = Instant::now();
    for save in 0..500u64 {
        let text = format!("{base}// save {save}\n");
        session
            .write_file("src/big.ts", text.as_str().into(), 1_000 + save)
            .unwrap();
    }
    println!(
        "500 saves of one 200 KB file: {:.2} s",
        start.elapsed().as_secs_f64()
    );
    restore_figures(&session);
}

fn restore_figures(session: &JournaledSession) {
    let start = Instant::now();
    let snapshot = session.snapshot();
    let taken = start.elapsed().as_secs_f64();
    let start = Instant::now();
    let restored = JournaledSession::restore(&snapshot);
    let restore = start.elapsed().as_secs_f64();
    println!(
        "  snapshot: {:.2} MB in {taken:.2} s; restore: {restore:.2} s ({})",
        snapshot.len() as f64 / 1e6,
        match restored {
            Ok(_) => "ok".to_string(),
            Err(error) => error.to_string(),
        }
    );
}
