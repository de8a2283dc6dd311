//! The native side of the fuzz suite's native = wasm check (`tests/fuzz/fuzz.mjs`): reads
//! one JSON scenario per line on stdin and writes one line per scenario on stdout, either
//! `{"trace": <the trace>}` or `{"error": "<message>"}`. The trace is serialised as
//! `crate/tests/scenarios.rs` serialises the golden traces, so the JS side compares it with
//! `runScenario`'s result value for value.
//!
//! ```text
//! cargo build --release -p context-assembly --features serde --example replay
//! echo '{"steps":[{"kind":"user","prompt":"hi"}]}' | target/release/examples/replay
//! ```
//!
//! A panic is a bug the fuzzer reports: the release profile aborts on panic, so the process
//! dies with the message on stderr, and the number of lines written so far says which
//! scenario it died on.

use std::io::{self, BufRead, BufWriter, Write};

use context_assembly::scenario::{parse_scenario, run_scenario};

fn main() -> io::Result<()> {
    let stdin = io::stdin().lock();
    let mut stdout = BufWriter::new(io::stdout().lock());
    for line in stdin.lines() {
        let line = line?;
        let outcome = parse_scenario(&line).and_then(|scenario| run_scenario(&scenario));
        let answer = match outcome {
            Ok(trace) => serde_json::json!({ "trace": trace }),
            Err(error) => serde_json::json!({ "error": error.to_string() }),
        };
        serde_json::to_writer(&mut stdout, &answer)?;
        stdout.write_all(b"\n")?;
        // One answer per scenario as soon as it is known: the fuzzer reads them as they
        // come, and a later panic must not lose the answers before it.
        stdout.flush()?;
    }
    Ok(())
}
