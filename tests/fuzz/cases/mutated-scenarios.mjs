// The teaching scenarios of web/scenarios, mutated: steps dropped, duplicated, swapped and
// borrowed, fields replaced by values of other types and edge values, keys misspelt, the
// JSON text itself damaged. Each runs twice in wasm (the same JSON both times) and once
// natively (the same answer).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ROOT } from '../engine.mjs';
import { CaseFailure, Trap } from '../engine.mjs';
import { pathsInto } from '../api.mjs';
import { assertSaneNumbers, clip, escapeNonAscii } from '../checks.mjs';

const DIR = resolve(ROOT, 'web/scenarios');
/** The teaching scenarios; the long measuring ones are the big-traces class's. */
export const TEACHING = JSON.parse(readFileSync(resolve(DIR, 'index.json'), 'utf8'))
  .filter((/** @type {{ golden?: boolean }} */ entry) => entry.golden !== false)
  .map((/** @type {{ file: string }} */ entry) => JSON.parse(readFileSync(resolve(DIR, entry.file), 'utf8')));
const ALL_STEPS = TEACHING.flatMap((scenario) => scenario.steps);

/** JSON values of every type, with the edges of the format's ranges. */
const JSON_VALUES = [
  0, -0, 1, -1, 1.5, 1e300, -1e300, 999, 1000, 10000000, 10000001, 2 ** 31, 2 ** 32, 2 ** 53 - 1, 2 ** 53,
  '', ' ', 'x', '/', '~', '~/x', '..', '../../etc/passwd', '/project/../..', 'a\0b', '\uFFFF', 'e\u0301', '\u2028',
  'x'.repeat(100000), '@a.ts '.repeat(2000), null, true, false, [], [null], [[]], {}, { kind: 'user' },
  'claude-code', 'codex', 'recommended', 'plan', 'auto', 'Read(**)', 'Read(./**)', 'EACCES',
];
const KINDS = ['user', 'assistant', 'toolResults', 'writeFile', 'deleteFile', 'rename', 'touch', 'setMode', 'ide',
  'diagnostics', 'advanceTime', 'registry', 'queueCommand', 'criticalReminder', 'usage', 'taskStatus', 'compact',
  'turnSettings', 'sleep'];
/** Numerals JavaScript cannot write exactly, put into the text as they are. */
const NUMERALS = ['9007199254740993', '18446744073709551615', '18446744073709551616', '1e999', '-0', '1.0', '1e3', '00', '-9007199254740993'];

/** @typedef {import('../rng.mjs').Rng} Rng */

/** @type {((rng: Rng, scenario: any) => void)[]} */
const MUTATIONS = [
  function dropStep(rng, s) { if (s.steps.length > 0) s.steps.splice(rng.below(s.steps.length), 1); },
  function duplicateStep(rng, s) {
    if (s.steps.length > 0) { const i = rng.below(s.steps.length); s.steps.splice(i, 0, structuredClone(s.steps[i])); }
  },
  function swapSteps(rng, s) {
    if (s.steps.length < 2) return;
    const i = rng.below(s.steps.length), j = rng.below(s.steps.length);
    [s.steps[i], s.steps[j]] = [s.steps[j], s.steps[i]];
  },
  function borrowStep(rng, s) { s.steps.splice(rng.below(s.steps.length + 1), 0, structuredClone(rng.pick(ALL_STEPS))); },
  function truncateSteps(rng, s) { s.steps.length = rng.below(s.steps.length + 1); },
  function changeProfile(rng, s) { s.profile = rng.pick(['claude-code', 'codex', 'recommended']); },
  function replaceValue(rng, s) { setAt(s, rng.pick(pathsInto(s).slice(1)), structuredClone(rng.pick(JSON_VALUES))); },
  function changeKind(rng, s) { if (s.steps.length > 0) rng.pick(s.steps).kind = rng.pick(KINDS); },
  function misspellKey(rng, s) {
    const holder = rng.pick(objectsIn(s));
    const keys = Object.keys(holder);
    if (keys.length === 0) return;
    const key = rng.pick(keys);
    holder[`${key}${rng.pick(['s', '_', 'X', ''])}`.replace(/^(.)/, (c) => rng.chance(0.5) ? c.toUpperCase() : c)] = holder[key];
    delete holder[key];
  },
  function addKey(rng, s) { rng.pick(objectsIn(s))[rng.pick(['extra', 'kind', 'path', '$schema', 'steps'])] = rng.pick(JSON_VALUES); },
  function edgeClock(rng, s) {
    s.startMs = rng.pick([0, 2 ** 53 - 1, 2 ** 53 - 1000, 1764547200000]);
    s.stepMs = rng.pick([0, 1, 2 ** 52, 2 ** 53 - 1]);
    if (rng.chance(0.5)) s.steps.splice(rng.below(s.steps.length + 1), 0, { kind: 'advanceTime', ms: rng.pick([2 ** 53 - 1, 2 ** 52, 86400000]) });
  },
  function configValue(rng, s) {
    s.config ??= {};
    const key = rng.pick(['contextWindow', 'outputReserve', 'deny', 'additionalDirectories', 'planFile', 'memoryDir',
      'utcOffsetMinutes', 'permissionMode', 'autoCompact', 'pinned', 'platform', 'gitStatus', 'skills']);
    s.config[key] = rng.chance(0.5) ? rng.pick(JSON_VALUES) : {
      contextWindow: rng.pick([1000, 5000, 20000, 10000000]), outputReserve: rng.pick([0, 999, 19999, 20000]),
      deny: [rng.pick(['Read(**)', 'Read(./src/**)', 'Read(//etc/**)', 'Read(~/**)', 'Read(*.md)', 'Read()', 'Read(\\)', 'Read(./[)'])],
      additionalDirectories: [rng.pick(['/shared', '/', '/project', '~', '/project/..'])],
      planFile: rng.pick(['/project/plan.md', '~/plan.md', '/', '/project']), memoryDir: rng.pick(['/project', '~/.claude/memory', '/']),
      utcOffsetMinutes: rng.pick([-840, 840, 841, -841]), permissionMode: rng.pick(['plan', 'auto', 'bypassPermissions', 'acceptEdits']),
      autoCompact: rng.chance(0.5), pinned: ['src/app.ts', '/project/a'], platform: rng.pick(['darwin', 'win32', 'linux', 'beos']),
      gitStatus: rng.pick([null, '', 'M a']), skills: [{ name: 'pdf', description: 'x' }],
    }[key];
  },
];

/** @param {any} value @returns {any[]} */
function objectsIn(value) {
  const found = [];
  const walk = (/** @type {any} */ v) => {
    if (v !== null && typeof v === 'object') {
      if (!Array.isArray(v)) found.push(v);
      Object.values(v).forEach(walk);
    }
  };
  walk(value);
  return found;
}

/** @param {any} root @param {(string | number)[]} path @param {unknown} value */
function setAt(root, path, value) {
  let holder = root;
  for (const key of path.slice(0, -1)) holder = holder[key];
  holder[path[path.length - 1]] = value;
}

/** Damage to the text: characters deleted or inserted, numerals JS cannot hold. @param {Rng} rng @param {string} text */
function damageText(rng, text) {
  const at = rng.below(text.length);
  switch (rng.below(3)) {
    case 0: return text.slice(0, at) + text.slice(at + 1);
    case 1: return text.slice(0, at) + rng.pick(['{', '}', '[', '"', ',', ':', '1', ' ', '\\', '\\u', 'null']) + text.slice(at);
    default: return text.replace(/(?<=[:[,])\d+/, rng.pick(NUMERALS));
  }
}

/**
 * The wasm side's answer to a scenario, run twice: a trace, or an error message. Throws a
 * CaseFailure for a trace that is not one, two different answers, or inexact numbers.
 * @param {import('../engine.mjs').Engine} engine @param {string} text
 * @returns {{ trace?: any, error?: string }}
 */
function wasmAnswer(engine, text) {
  const answer = () => {
    const outcome = engine.attempt('runScenario(…)', () => engine.api.runScenario(text));
    if (outcome.error) return { error: outcome.error.message };
    if (outcome.value === null || typeof outcome.value !== 'object') {
      throw new CaseFailure(`runScenario returned ${outcome.value === null ? 'null' : typeof outcome.value}, not a trace`);
    }
    return { trace: outcome.value };
  };
  const first = answer();
  if (JSON.stringify(answer()) !== JSON.stringify(first)) throw new CaseFailure('runScenario gave two different answers to the same scenario');
  if (first.trace) assertSaneNumbers('runScenario', first.trace);
  return first;
}

/** A failure's message with its numbers left out: what must stay the same while shrinking. @param {string} message */
const shape = (message) => message.replace(/\d+/g, 'N');

/**
 * The smallest scenario found, by dropping fields, steps and files one at a time, that
 * still fails the way `failure` did; the text as it was when it is not a JSON object.
 * @param {import('../engine.mjs').Engine} engine @param {string} text @param {CaseFailure} failure
 */
function shrink(engine, text, failure) {
  let best;
  try {
    best = JSON.parse(text);
  } catch {
    return text;
  }
  if (best === null || typeof best !== 'object' || Array.isArray(best)) return text;
  const still = (/** @type {any} */ candidate) => {
    try {
      wasmAnswer(engine, JSON.stringify(candidate));
      return false;
    } catch (error) {
      if (error instanceof Trap || !(error instanceof CaseFailure)) throw error;
      return shape(error.message) === shape(failure.message);
    }
  };
  const attempt = (/** @type {any} */ candidate) => {
    if (still(candidate)) best = candidate;
  };
  for (const key of ['description', 'name', 'switches', 'config', 'files']) {
    if (key in best) {
      const { [key]: _dropped, ...rest } = best;
      attempt(rest);
    }
  }
  for (let i = Array.isArray(best.steps) ? best.steps.length - 1 : -1; i >= 0; i--) {
    attempt({ ...best, steps: best.steps.filter((/** @type {unknown} */ _step, /** @type {number} */ j) => j !== i) });
  }
  if (best.files && typeof best.files === 'object' && !Array.isArray(best.files)) {
    for (const key of Object.keys(best.files)) {
      const { [key]: _dropped, ...files } = best.files;
      attempt({ ...best, files });
    }
  }
  return JSON.stringify(best);
}

/**
 * Runs a scenario text twice in wasm and queues it for the native runner. A failure of the
 * wasm side comes with the smallest scenario that still fails that way.
 * @param {import('../fuzz.mjs').Context} ctx @param {string} text one line of JSON
 * @param {(json: string) => string} [show] how the reproducer writes the scenario's JSON
 * @returns {{ trace?: any, error?: string }}
 */
export function runEverywhere(ctx, text, show = (json) => json) {
  const { engine } = ctx;
  const reproducer = (/** @type {string} */ json) => `runScenario(${escapeNonAscii(clip(show(json), 20000))})`;
  ctx.reproducer = reproducer(text);
  let answer;
  try {
    answer = wasmAnswer(engine, text);
  } catch (error) {
    if (error instanceof CaseFailure && !(error instanceof Trap)) error.reproducer = reproducer(shrink(engine, text, error));
    throw error;
  }
  ctx.native(text, JSON.parse(JSON.stringify(answer)));
  return answer;
}

/** @param {import('../fuzz.mjs').Context} ctx */
export function run(ctx) {
  const { rng } = ctx;
  const scenario = structuredClone(rng.pick(TEACHING));
  const count = 1 + rng.below(3);
  for (let i = 0; i < count; i++) {
    try {
      rng.pick(MUTATIONS)(rng, scenario);
    } catch (error) {
      // An earlier mutation left this one nothing of the shape it edits (the steps replaced
      // by a string, a step by a number): it is skipped, and the run stays deterministic.
      if (!(error instanceof TypeError)) throw error;
    }
  }
  let text = JSON.stringify(scenario);
  if (rng.chance(0.15)) text = damageText(rng, text);
  runEverywhere(ctx, text);
}
