// The session logs the real clients write into the lab's temp home, kept beside the recordings
// for the importer's round trip (crate/tests/import_lab.rs). They hold the vendors' text: they
// stay under target/, never committed.
import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Copies every `.jsonl` under `dir` (Claude Code: `<cwd slug>/<session id>.jsonl` and any
 * subagent logs beside them; Codex: `YYYY/MM/DD/rollout-*.jsonl`) into
 * `recordDir/session-logs/`, flattened, with the scenario the lab played
 * (`scenario.json`), so the importer's round trip can read both after the temp home is gone.
 */
export function keepSessionLogs(dir, recordDir, scenario) {
  const logs = [];
  const walk = (at) => {
    let entries;
    try {
      entries = readdirSync(at, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.jsonl')) logs.push(path);
    }
  };
  walk(dir);
  if (logs.length === 0) return;
  const out = join(recordDir, 'session-logs');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'scenario.json'), JSON.stringify(scenario, null, 2));
  for (const log of logs) copyFileSync(log, join(out, log.slice(dir.length + 1).replaceAll('/', '__')));
}

