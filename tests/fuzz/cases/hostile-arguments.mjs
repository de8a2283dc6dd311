// Hostile values in every argument of every export, and inside every options object and
// JSON argument: the call returns or throws an Error with a message, never traps or
// rethrows what a getter threw, and the same session (or function) works afterwards.
import { CONSTRUCTORS, FUNCTIONS, METHODS, SEARCHER_METHODS, SEARCHER_SETUP, SESSION_SETUP, expression, pathsInto } from '../api.mjs';
import { CaseFailure } from '../engine.mjs';
import { HOSTILE, make, pickHostile, realBytes, throwingGetters } from '../hostile.mjs';
import { assertSaneNumbers, canonical } from '../checks.mjs';

const ENTRIES = [...FUNCTIONS, ...METHODS, ...SEARCHER_METHODS];
/** Exports that are the loader's, not the API's. */
const LOADER = ['default', 'initSync', 'start'];
/** Session members every class has. */
const LIFECYCLE = ['constructor', '__destroy_into_raw', 'free'];

/**
 * The exports and Session and FileSearcher methods this class has no entry for: a new one must be added to
 * api.mjs, or the fuzzer would silently leave it out.
 * @param {any} api
 */
export function uncovered(api) {
  const known = new Set([...FUNCTIONS, ...METHODS].map((entry) => entry.name));
  const searcherKnown = new Set(SEARCHER_METHODS.map((entry) => entry.name));
  return [
    ...Object.keys(api).filter((name) => !LOADER.includes(name) && !known.has(name)),
    ...Object.getOwnPropertyNames(api.Session.prototype).filter((name) => !LIFECYCLE.includes(name) && !known.has(name)).map((name) => `Session.${name}`),
    ...Object.getOwnPropertyNames(api.FileSearcher.prototype).filter((name) => !LIFECYCLE.includes(name) && !searcherKnown.has(name)).map((name) => `FileSearcher.${name}`),
  ];
}

/**
 * One argument list with a hostile value somewhere in it; `replaced` names the argument
 * when the whole of it is the hostile value.
 * @param {import('../rng.mjs').Rng} rng @param {import('../api.mjs').Entry} entry
 */
function hostileArguments(rng, entry) {
  const valid = entry.args.map((arg) => expression(arg.valid));
  if (entry.args.length === 0) return { args: [rng.pick(HOSTILE)], hostile: 'an extra argument' };
  const index = rng.below(entry.args.length);
  const arg = entry.args[index];
  const args = [...valid];
  const isObject = arg.valid !== null && typeof arg.valid === 'object';
  const roll = rng.next();
  if (isObject && roll < 0.3) {
    const inner = pathsInto(arg.valid).slice(1);
    const path = inner.length > 0 ? rng.pick(inner) : ['unknownKey'];
    args[index] = expression(arg.valid, path, pickHostile(rng, String(path[path.length - 1])));
    return { args, hostile: `${arg.name}.${path.join('.')}` };
  }
  if (isObject && roll < 0.4) {
    args[index] = throwingGetters(arg.keys ?? Object.keys(/** @type {object} */ (arg.valid)));
    return { args, hostile: `${arg.name} (throwing getters)` };
  }
  args[index] = pickHostile(rng, arg.name);
  return { args, hostile: arg.name, replaced: arg.name };
}

/** @param {import('../fuzz.mjs').Context} ctx */
export function run(ctx) {
  const { rng, engine } = ctx;
  const api = engine.api;
  const entry = rng.pick(ENTRIES);
  const { args, hostile, replaced } = hostileArguments(rng, entry);
  const callText = entry.method ? `session.${entry.name}(${args.join(', ')})`
    : entry.receiver ? `searcher.${entry.name}(${args.join(', ')})`
    : CONSTRUCTORS.includes(entry.name) ? `new ${entry.name}(${args.join(', ')})` : `${entry.name}(${args.join(', ')})`;
  const reproducer = entry.method ? `${SESSION_SETUP.join(' ')} ${callText};`
    : entry.receiver ? `${SEARCHER_SETUP.join(' ')} ${callText};` : `${callText};`;
  ctx.reproducer = reproducer;
  const what = `${callText.slice(0, 200)} (hostile ${hostile})`;

  // The state before: a session that has worked, or the function's answer to valid input.
  const setup = entry.method
    ? engine.must('the session setup', () => new Function('Session', `${SESSION_SETUP.join('\n')} return { session, plan };`)(api.Session))
    : { session: undefined, plan: undefined };
  const searcher = entry.receiver
    ? engine.must('the searcher setup', () => new Function('FileSearcher', `${SEARCHER_SETUP.join('\n')} return searcher;`)(api.FileSearcher))
    : undefined;
  const validArgs = entry.args.map((a) => expression(a.valid)).join(', ');
  const validCall = entry.method ? null : entry.receiver ? `searcher.${entry.name}(${validArgs})` : `${entry.name}(${validArgs})`;
  const evaluate = (/** @type {string} */ text) =>
    new Function('api', 'session', 'plan', 'searcher', `with (api) { return (${text}); }`)(api, setup.session, setup.plan, searcher);
  // A restored Session is a new object every time: it is checked by working, below.
  const comparable = validCall && !CONSTRUCTORS.includes(entry.name) && entry.name !== 'Session.restore';
  const before = comparable ? canonical(engine.must(validCall, () => evaluate(validCall))) : null;

  const outcome = engine.attempt(what, () => evaluate(callText));
  if (!outcome.error) {
    const value = outcome.value;
    const instance = value instanceof api.Session || value instanceof api.SessionImport || value instanceof api.FileSearcher;
    if (!instance) assertSaneNumbers(what, value, reproducer);
    if (entry.name === 'writeFile' && replaced === 'content') checkStoredBytes(ctx, setup.session, args, reproducer);
    if (instance) value.free();
  }

  // Afterwards the same session, or the same function, still works as before.
  if (entry.method) {
    const session = setup.session;
    engine.must(`after ${what}: session.writeFile`, () => session.writeFile('probe.txt', 'ok\n', 20));
    const text = engine.must(`after ${what}: session.readFileText`, () => session.readFileText('probe.txt'));
    if (text !== 'ok\n') throw new CaseFailure(`after ${what}: readFileText gave ${JSON.stringify(text)}`, reproducer);
    // The latest time there is: a hostile but valid time may have moved the clock anywhere.
    engine.must(`after ${what}: session.submit`, () => session.submit('and now?', 2 ** 53));
    engine.must(`after ${what}: session.free`, () => session.free());
  } else if (entry.name === 'Session') {
    const session = engine.must(`after ${what}: new Session`, () => new api.Session({ cwd: '/p' }));
    engine.must(`after ${what}: submit`, () => session.submit('hi', 1));
    session.free();
  } else if (entry.name === 'SessionImport') {
    const importer = engine.must(`after ${what}: new SessionImport`, () => new api.SessionImport());
    engine.must(`after ${what}: pushChunk`, () => importer.pushChunk(new TextEncoder().encode('{"timestamp":"2026-01-01T00:00:00.000Z","type":"session_meta","payload":{"cwd":"/r"}}\n')));
    engine.must(`after ${what}: finish`, () => importer.finish());
    importer.free();
  } else if (entry.name === 'Session.restore' && validCall) {
    const session = engine.must(`after ${what}: ${validCall}`, () => evaluate(validCall));
    engine.must(`after ${what}: submit`, () => session.submit('and now?', 10));
    session.free();
  } else if (entry.name === 'FileSearcher') {
    const fresh = engine.must(`after ${what}: new FileSearcher`, () => new api.FileSearcher(['a.ts']));
    engine.must(`after ${what}: search`, () => fresh.search('a'));
    fresh.free();
  } else if (validCall) {
    const after = canonical(engine.must(`after ${what}: ${validCall}`, () => evaluate(validCall)));
    if (after !== before) throw new CaseFailure(`after ${what}: ${validCall} answers differently`, reproducer);
  }
  searcher?.free();
}

/**
 * A byte array that was accepted is stored as the bytes it really holds, however its
 * getters lie: not the length a getter claims, not uninitialised memory.
 * @param {import('../fuzz.mjs').Context} ctx @param {any} session @param {string[]} args the call's arguments, as JS
 * @param {string} reproducer
 */
function checkStoredBytes(ctx, session, args, reproducer) {
  const bytes = realBytes(make(args[1]));
  if (!bytes) return;
  const path = /** @type {string} */ (make(args[0]));
  const stat = ctx.engine.must('stat after writeFile', () => session.stat(path));
  if (stat.size !== bytes.length) {
    throw new CaseFailure(`writeFile stored ${stat.size} bytes of a Uint8Array that holds ${bytes.length}`, reproducer);
  }
}
