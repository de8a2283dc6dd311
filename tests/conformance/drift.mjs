// Release drift: what one client sends differently in two of its pinned releases, read from the
// lab's generated corpus. Each release plays the same generated sessions (the lab's reports keep
// every request's items as the client sent them, `oracleItems`); the requests are paired by
// session and position, and each kind of item (with its role and tool) is classed, per area, as
//   appeared   sent by TO only,
//   vanished   sent by FROM only,
//   changed    sent by both, differently in at least one request,
// with its counts on both sides and the first request that shows it. Kinds sent the same way
// everywhere are counted, not listed. Item texts are the lab's normalised items (paths, names,
// sizes, the scenario's own words), never vendor prose.
//
//   node tests/conformance/drift.mjs --from 2.1.88 --to 2.1.332 [--generated 1-100] [--report FILE] [--rerun]
//   node tests/conformance/drift.mjs --from 0.139.0 --to 0.171.0
//   make drift FROM=2.1.88 TO=2.1.332
//
// A release's lab report is reused when it holds the generated sessions (target/conformance/);
// otherwise, or with --rerun, the lab plays them first (run.mjs / codex-run.mjs).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CLAUDE_AREAS, claudeItemAreas, CODEX_AREAS, codexItemArea } from './areas.mjs';
import { CLAUDE_ORACLES, LAB_RELEASE } from './claude-oracles.mjs';
import { pinnedReleases } from './codex-drive.mjs';

const ROOT = resolve(import.meta.dirname, '../..');
const OUT = join(ROOT, 'target/conformance');
const HERE = import.meta.dirname;

/** The client a release belongs to, with where its lab report is and how to play the corpus. */
function client(version) {
  if (Object.hasOwn(CLAUDE_ORACLES, version)) {
    return {
      name: 'Claude Code',
      report: join(OUT, version === LAB_RELEASE ? 'report.json' : `report-claude-${version}.json`),
      play: (range) => ['run.mjs', '--client', version, '--generated', range],
      areas: CLAUDE_AREAS,
      areaOf: (item) => claudeItemAreas(item, '')[0],
    };
  }
  if (pinnedReleases().includes(version)) {
    return {
      name: 'Codex CLI',
      report: join(OUT, `codex-${version}-report.json`),
      play: (range) => ['codex-run.mjs', '--client', version, `--generated=${range}`],
      areas: [...CODEX_AREAS, 'prefix'],
      areaOf: codexItemArea,
    };
  }
  const pinned = [...Object.keys(CLAUDE_ORACLES), ...pinnedReleases()].join(', ');
  throw new Error(`release ${version} is not pinned in the lab: the pinned releases are ${pinned}`);
}

/** `A-B` or `N` (1…N) as the list of seeds. */
function seeds(range) {
  const match = /^(\d+)(?:-(\d+))?$/.exec(range);
  if (!match) throw new Error(`--generated ${range}: expected N or A-B (seeds), e.g. 1-100`);
  const [from, to] = match[2] === undefined ? [1, Number(match[1])] : [Number(match[1]), Number(match[2])];
  if (to < from) throw new Error(`--generated ${range}: the range ends before it starts`);
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

const seedOf = (name) => Number(/^gen(?:erated)?\/(\d+)$/.exec(name)?.[1] ?? NaN);

/** The release's generated sessions by seed, from its lab report (played first when needed). */
function generatedSessions(version, wanted, rerun) {
  const c = client(version);
  const load = () => (existsSync(c.report) ? JSON.parse(readFileSync(c.report, 'utf8')).sessions : []);
  const bySeed = (sessions) => new Map(sessions.filter((s) => wanted.includes(seedOf(s.name))).map((s) => [seedOf(s.name), s]));
  let found = bySeed(load());
  if (rerun || found.size < wanted.length) {
    const range = `${wanted[0]}-${wanted.at(-1)}`;
    console.log(`${c.name} ${version}: playing generated sessions ${range} (node tests/conformance/${c.play(range).join(' ')})`);
    // The lab fails on differences from our engine; only the client's side is read here.
    spawnSync('node', c.play(range), { cwd: HERE, stdio: ['ignore', 'ignore', 'inherit'] });
    found = bySeed(load());
  }
  const missing = wanted.filter((seed) => !found.has(seed));
  if (missing.length) throw new Error(`${c.name} ${version}: no lab report of generated sessions ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''} in ${c.report}`);
  return found;
}

/** The key an item is classed under: its kind, with its role and tool when it has them. */
const keyOf = (item) => [item.kind, item.role && `role ${item.role}`, item.tool && `tool ${item.tool}`].filter(Boolean).join(', ');

const text = (item) => JSON.stringify(item);

/** An item's text cut to about 240 characters around `from`, where it differs from the other side's. */
function excerpt(item, from = 0) {
  const whole = text(item);
  const start = Math.max(0, from - 80);
  const cut = whole.slice(start, start + 240);
  return `${start > 0 ? '…' : ''}${cut}${start + 240 < whole.length ? '…' : ''}`;
}

/** Where two texts first differ. */
function firstDifference(a, b) {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i += 1;
  return i;
}

/** A request's items grouped by key. */
function grouped(items) {
  const groups = new Map();
  for (const item of items) {
    const key = keyOf(item);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(item);
  }
  return groups;
}

/**
 * Compares the paired requests of two releases: per key, the counts on each side, the requests
 * whose items of that key differ, and the first example.
 */
export function drift(fromSessions, toSessions, areaOf) {
  const kinds = new Map();
  const entry = (key, item) => {
    if (!kinds.has(key)) kinds.set(key, { key, area: areaOf(item) ?? 'other', from: 0, to: 0, requestsDiffering: 0, example: undefined });
    return kinds.get(key);
  };
  let requests = 0;
  for (const [seed, before] of fromSessions) {
    const after = toSessions.get(seed);
    const count = Math.max(before.requests.length, after.requests.length);
    requests += count;
    for (let n = 0; n < count; n += 1) {
      const a = grouped(before.requests[n]?.oracleItems ?? []);
      const b = grouped(after.requests[n]?.oracleItems ?? []);
      for (const key of new Set([...a.keys(), ...b.keys()])) {
        const left = a.get(key) ?? [];
        const right = b.get(key) ?? [];
        const k = entry(key, left[0] ?? right[0]);
        k.from += left.length;
        k.to += right.length;
        const same = left.length === right.length && left.map(text).sort().join('\n') === right.map(text).sort().join('\n');
        if (same) continue;
        k.requestsDiffering += 1;
        k.example ??= {
          session: before.name,
          request: n + 1,
          from: left.find((i) => !right.some((j) => text(j) === text(i))),
          to: right.find((i) => !left.some((j) => text(j) === text(i))),
        };
      }
    }
  }
  const status = (k) => (k.from === 0 ? 'appeared' : k.to === 0 ? 'vanished' : k.requestsDiffering ? 'changed' : 'unchanged');
  return { requests, kinds: [...kinds.values()].map((k) => ({ ...k, status: status(k) })) };
}

function print(result, areas, from, to) {
  const order = (area) => (areas.includes(area) ? areas.indexOf(area) : areas.length);
  const listed = result.kinds.filter((k) => k.status !== 'unchanged').sort((x, y) => order(x.area) - order(y.area) || x.key.localeCompare(y.key));
  let area;
  for (const k of listed) {
    if (k.area !== area) console.log(`\n${(area = k.area)}`);
    console.log(`  ${k.status.padEnd(9)} ${k.key}: ${k.from} → ${k.to} items, ${k.requestsDiffering} requests differ; first in ${k.example.session} request ${k.example.request}`);
    const { from: before, to: after } = k.example;
    const at = before && after ? firstDifference(text(before), text(after)) : 0;
    if (before) console.log(`    ${from}: ${excerpt(before, at)}`);
    if (after) console.log(`    ${to}: ${excerpt(after, at)}`);
  }
  const counts = Object.fromEntries(['appeared', 'vanished', 'changed', 'unchanged'].map((s) => [s, result.kinds.filter((k) => k.status === s).length]));
  console.log(`\n${result.sessions} generated sessions, ${result.requests} paired requests: ${counts.appeared} kinds appeared, ${counts.vanished} vanished, ${counts.changed} changed, ${counts.unchanged} unchanged`);
}

function main() {
  const args = process.argv.slice(2);
  const value = (flag) => {
    const at = args.indexOf(flag);
    return at >= 0 ? args[at + 1] : undefined;
  };
  const from = value('--from');
  const to = value('--to');
  if (!from || !to) throw new Error('usage: node tests/conformance/drift.mjs --from VERSION --to VERSION [--generated 1-100] [--report FILE] [--rerun]');
  const [a, b] = [client(from), client(to)];
  if (a.name !== b.name) throw new Error(`${from} is a ${a.name} release and ${to} a ${b.name} one: drift compares two releases of one client`);
  const wanted = seeds(value('--generated') ?? '1-100');
  const rerun = args.includes('--rerun');
  const before = generatedSessions(from, wanted, rerun);
  const after = generatedSessions(to, wanted, rerun);
  const result = { client: a.name, from, to, sessions: wanted.length, ...drift(before, after, a.areaOf) };
  console.log(`${a.name}: ${from} → ${to}, the lab's generated sessions ${wanted[0]}–${wanted.at(-1)}`);
  print(result, a.areas, from, to);
  const report = resolve(value('--report') ?? join(OUT, `drift-${from}-${to}.json`));
  writeFileSync(report, JSON.stringify(result, null, 2));
  console.log(`report: ${report}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    main();
  } catch (error) {
    console.error(`drift: ${error.message}`);
    process.exit(2);
  }
}
