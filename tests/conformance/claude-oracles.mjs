// The Claude Code releases the lab has pinned, each installed by `make conformance-setup` into a
// directory of its own with its own lockfile, and the engine profile that reproduces each.
//
// 2.1.88 (the seed, spec/claude-code.md's release) is the npm wrapper with its JavaScript bundle
// and a vendored ripgrep; later releases ship a native binary in a platform package, pinned
// alone (the wrapper's per-platform optional dependencies make `npm ci` refuse the lockfile).
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const LAB = resolve(import.meta.dirname);

/**
 * @typedef {{
 *   version: string,
 *   dir: string,
 *   command: string,
 *   args: string[],
 *   ripgrep?: string,
 *   summaryFirst: boolean,
 * }} ClaudeOracle
 *   `dir`: where its lockfile is; `command` and `args`: how the client is started (before the
 *   lab's own flags); `ripgrep`: the rg its package vendors, when it is a separate file (the
 *   native build carries its own); `summaryFirst`: a compaction's summary opens the messages and
 *   the latest messages follow it verbatim (2.1.332; 2.1.88 keeps nothing and floats the
 *   attachments above the summary)
 */

/** @type {Record<string, ClaudeOracle>} */
export const CLAUDE_ORACLES = {
  '2.1.88': (() => {
    const cli = join(LAB, 'oracles/node_modules/@anthropic-ai/claude-code/cli.js');
    return {
      version: '2.1.88',
      dir: join(LAB, 'oracles'),
      command: process.execPath,
      args: [cli],
      ripgrep: join(dirname(cli), 'vendor/ripgrep', `${process.arch === 'arm64' ? 'arm64' : 'x64'}-${process.platform}`, 'rg'),
      summaryFirst: false,
    };
  })(),
  '2.1.332': {
    version: '2.1.332',
    dir: join(LAB, 'oracles-claude-2.1.332'),
    command: join(LAB, 'oracles-claude-2.1.332/node_modules/@anthropic-ai/claude-code-linux-x64/claude'),
    args: [],
    summaryFirst: true,
  },
};

/** The release `run.mjs` plays when no `--client` is given: the one `claude-code` follows. */
export const CURRENT_CLAUDE = '2.1.332';

/**
 * The release `make conformance` holds the engine to (its profile `claude-code-2.1.88`
 * matches it): its recordings and report keep the lab's first paths
 * (`target/conformance/recordings`, `report.json`), where the session-log import round trip
 * reads them, and known-differences.json's entries without `clients` are its.
 */
export const LAB_RELEASE = '2.1.88';

/**
 * The pinned oracle for `version`, or an error naming the pinned ones. A release outside the
 * pinned set (a bisection's) can be given as a path to its `claude` binary or `cli.js`.
 * @param {string} version
 * @returns {ClaudeOracle}
 */
export function claudeOracle(version) {
  const pinned = CLAUDE_ORACLES[version];
  if (pinned) return pinned;
  if (existsSync(version)) {
    const path = resolve(version);
    const ripgrep = join(dirname(path), 'vendor/ripgrep', `${process.arch === 'arm64' ? 'arm64' : 'x64'}-${process.platform}`, 'rg');
    return path.endsWith('.js')
      ? { version: path, dir: dirname(path), command: process.execPath, args: [path], ripgrep, summaryFirst: false }
      : { version: path, dir: dirname(path), command: path, args: [], summaryFirst: true };
  }
  throw new Error(`--client ${version}: not a pinned Claude Code release (pinned: ${Object.keys(CLAUDE_ORACLES).join(', ')}) nor a path to a client`);
}

/**
 * The engine profile that reproduces Claude Code `version`, from the engine's own list
 * (`profileReleases()`), so a new release needs no edit here.
 * @param {{ profileReleases(): { name: string, client?: string, version?: string }[] }} engine
 * @param {string} version
 */
export function claudeProfile(engine, version) {
  const releases = engine.profileReleases().filter((r) => r.client === 'claude-code');
  const exact = releases.find((r) => r.version === version);
  if (exact) return exact.name;
  throw new Error(`no profile reproduces Claude Code ${version} (profiles: ${releases.map((r) => `${r.name} = ${r.version}`).join(', ')})`);
}
