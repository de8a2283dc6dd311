//! The native side of the session-log round trip (`tests/conformance/import-roundtrip.mjs`):
//! imports each log named on the command line and writes one JSON line per log, either
//! `{"file", "format", "scenario", "recorded", "warnings"}` (the scenario as the document
//! the format describes) or `{"file", "error"}`. The log is streamed in 64 KiB chunks.
//!
//! ```text
//! cargo build --release -p context-assembly --features serde --example import
//! target/release/examples/import ~/.claude/projects/-work-shop/<session id>.jsonl
//! ```

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};

use context_assembly::import::SessionImporter;

fn import(path: &str) -> Result<serde_json::Value, String> {
    let mut file = File::open(path).map_err(|error| format!("{path}: {error}"))?;
    let mut importer = SessionImporter::new(None);
    let mut buffer = vec![0; 64 << 10];
    loop {
        let read = file
            .read(&mut buffer)
            .map_err(|error| format!("{path}: {error}"))?;
        if read == 0 {
            break;
        }
        importer.push_chunk(&buffer[..read]);
    }
    let imported = importer.finish().map_err(|error| error.to_string())?;
    let scenario: serde_json::Value =
        serde_json::from_str(&imported.scenario_json).map_err(|error| error.to_string())?;
    Ok(serde_json::json!({
        "file": path,
        "format": imported.format,
        "scenario": scenario,
        "recorded": imported.recorded,
        "warnings": imported.warnings,
    }))
}

fn main() -> io::Result<()> {
    let mut stdout = BufWriter::new(io::stdout().lock());
    for path in std::env::args().skip(1) {
        let answer = import(&path)
            .unwrap_or_else(|error| serde_json::json!({ "file": path, "error": error }));
        serde_json::to_writer(&mut stdout, &answer)?;
        stdout.write_all(b"\n")?;
    }
    stdout.flush()
}
