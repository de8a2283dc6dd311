// The Session class: its shape, every validation error, the virtual workspace, and the
// flow a web IDE drives (read, edit outside the agent, see the note on the next turn).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engine, fixture } from './engine.mjs';

const { Session } = engine;
const MAX_TIME = 2 ** 53;

/**
 * `line1\n…\nline{n}\n`, the spec's L(n).
 * @param {number} n
 */
const numberedLines = (n) => Array.from({ length: n }, (_, i) => `line${i + 1}\n`).join('');

/**
 * Asserts that `run` throws an Error whose message matches every pattern.
 * @param {() => unknown} run
 * @param {...RegExp} patterns
 */
function throwsError(run, ...patterns) {
  assert.throws(run, (error) => {
    assert.ok(error instanceof Error, `an Error, not ${typeof error}`);
    for (const pattern of patterns) assert.match(error.message, pattern);
    return true;
  });
}

/** @param {Record<string, unknown>} object @param {string[]} required @param {string[]} optional */
function assertKeys(object, required, optional = []) {
  for (const key of required) assert.ok(key in object, `has ${key}: ${JSON.stringify(object)}`);
  for (const key of Object.keys(object)) assert.ok([...required, ...optional].includes(key), `unexpected key ${key}`);
}

/** @param {{ attachments: object[], decisions: object[], round: string, request?: object }} turn */
function assertTurnShape(turn) {
  assertKeys(turn, ['round', 'attachments', 'decisions', 'toolResults'], ['request']);
  assert.ok(['human-turn', 'tool-round'].includes(turn.round), turn.round);
  assert.ok(turn.request, 'a human turn or a tool round comes with its request');
  assertKeys(turn.request, ['system', 'tools', 'userContext', 'userContextAt', 'messages', 'tokens', 'window']);
  for (const attachment of turn.attachments) {
    assertKeys(attachment, ['kind', 'frequency', 'tokens', 'text'], ['path', 'payloadUnits']);
    assert.equal(typeof attachment.kind, 'string');
    assert.ok(Number.isInteger(attachment.tokens) && attachment.tokens >= 0);
    assert.equal(typeof attachment.text, 'string');
    if ('path' in attachment) assert.equal(typeof attachment.path, 'string');
  }
  for (const decision of turn.decisions) {
    assertKeys(decision, ['subject', 'verdict', 'reason'], ['detail']);
    for (const value of Object.values(decision)) assert.equal(typeof value, 'string');
  }
}

test('exports the Session class with the documented methods', () => {
  assert.equal(typeof Session, 'function');
  const methods = ['writeFile', 'deleteFile', 'rename', 'mkdir', 'setTransientError', 'listDir', 'stat',
    'readFileText', 'read', 'edit', 'write', 'submit', 'toolRound', 'step', 'fileState', 'free'];
  for (const name of methods) assert.equal(typeof Session.prototype[name], 'function', name);
  const session = new Session({ cwd: '/p' });
  assert.ok(session instanceof Session);
  assert.deepEqual(session.fileState(), []);
  assertTurnShape(session.submit('hello', 0));
  assertTurnShape(session.toolRound(1));
  session.free();
});

test('the constructor validates its options', () => {
  throwsError(() => new Session(), /new Session: option `cwd` is required/);
  throwsError(() => new Session({}), /new Session: option `cwd` is required/);
  throwsError(() => new Session({ cwd: 3 }), /new Session: option `cwd` must be a string, got number/);
  throwsError(() => new Session('/p'), /new Session: options must be an object, got string/);
  throwsError(() => new Session({ cwd: '/p', cdw: '/q' }),
    /new Session: unknown option "cdw": allowed options are "profile", "cwd", "home", "config"/);
  throwsError(() => new Session({ cwd: '/p', profile: 'claude' }),
    /new Session: unknown profile "claude".*"claude-code", "codex", "claude-code-2.1.88", "codex-0.139.0", "recommended"/);
  throwsError(() => new Session({ cwd: '/p', home: null }), /new Session: option `home` must be a string, got null/);
  throwsError(() => new Session({ cwd: '/p', config: [] }), /^new Session: config: expected an object, got array$/);
  throwsError(() => new Session({ cwd: '/p', config: { dney: [] } }),
    /^new Session: config\.dney: unknown field; expected one of "deny", "mcpResources", "agents", "additionalDirectories", /);
  throwsError(() => new Session({ cwd: '/p', config: { deny: 'Read(.env)' } }),
    /^new Session: config\.deny: expected an array, got string$/);
  throwsError(() => new Session({ cwd: '/p', config: { agents: ['a', 3] } }),
    /^new Session: config\.agents\[1\]: expected a non-empty string, got number$/);
  throwsError(() => new Session({ cwd: '/p', config: { additionalDirectories: [null] } }),
    /^new Session: config\.additionalDirectories\[0\]: expected a non-empty string, got null$/);
  throwsError(() => new Session({ cwd: '/p', config: { mcpResources: [{ server: 's' }] } }),
    /^new Session: config\.mcpResources\[0\]\.uri: required field is missing$/);
  throwsError(() => new Session({ cwd: '/p', config: { mcpResources: [{ server: 's', uri: 'u', title: 't' }] } }),
    /^new Session: config\.mcpResources\[0\]\.title: unknown field; expected one of "server", "uri", "name", "description", "text"$/);
  throwsError(() => new Session({ cwd: '/p', config: { mcpResources: ['s:u'] } }),
    /^new Session: config\.mcpResources\[0\]: expected an object, got string$/);
  throwsError(() => new Session({ cwd: '/p', config: { contextWindow: 5 } }),
    /^new Session: config\.contextWindow: expected a whole number from 1000 to 10000000, got 5$/);
  // The core's errors pass through, with the method in front.
  throwsError(() => new Session({ cwd: 'p' }), /^new Session: /, /working directory/);
  // Everything valid is accepted.
  const session = new Session({
    profile: 'claude-code', cwd: '/p', home: '/home/u',
    config: { deny: ['Read(./.env)'], agents: ['code-reviewer'], additionalDirectories: ['/shared'],
      mcpResources: [{ server: 'docs', uri: 'guide', name: 'Guide', description: 'the guide', text: 'read me' }] },
  });
  session.free();
});

test('times must be whole milliseconds from 0 to 2^53', () => {
  const session = new Session({ cwd: '/p' });
  session.writeFile('a.txt', 'a\n', 0);
  const calls = {
    writeFile: ['mtimeMs', (/** @type {unknown} */ t) => session.writeFile('b.txt', 'x', t)],
    deleteFile: ['atMs', (/** @type {unknown} */ t) => session.deleteFile('a.txt', t)],
    rename: ['atMs', (/** @type {unknown} */ t) => session.rename('a.txt', 'c.txt', t)],
    mkdir: ['atMs', (/** @type {unknown} */ t) => session.mkdir('d', t)],
    read: ['atMs', (/** @type {unknown} */ t) => session.read('a.txt', undefined, t)],
    edit: ['atMs', (/** @type {unknown} */ t) => session.edit('a.txt', 'a', 'b', t)],
    write: ['atMs', (/** @type {unknown} */ t) => session.write('a.txt', 'x', t)],
    submit: ['atMs', (/** @type {unknown} */ t) => session.submit('hi', t)],
    toolRound: ['atMs', (/** @type {unknown} */ t) => session.toolRound(t)],
  };
  const bad = [-1, 1.5, NaN, Infinity, -Infinity, MAX_TIME + 2, '1000', undefined, null, 10n, {}];
  for (const [method, [name, call]] of Object.entries(calls)) {
    for (const value of bad) {
      throwsError(() => call(value), new RegExp(`^${method}: argument \`${name}\` must be a time in milliseconds`),
        /an integer from 0 to 9007199254740992/);
    }
  }
  throwsError(() => session.writeFile('b.txt', 'x', -1), /got -1$/);
  throwsError(() => session.writeFile('b.txt', 'x', 1.5), /got 1\.5$/);
  throwsError(() => session.writeFile('b.txt', 'x', NaN), /got NaN$/);
  throwsError(() => session.writeFile('b.txt', 'x', '1000'), /got string$/);
  // The bounds themselves are allowed.
  session.writeFile('b.txt', 'x', 0);
  session.writeFile('b.txt', 'x', MAX_TIME);
  assert.equal(session.stat('b.txt').mtimeMs, MAX_TIME);
});

test('every other argument is checked and named', () => {
  const session = new Session({ cwd: '/p' });
  session.writeFile('a.txt', 'a\n', 1);
  for (const value of [42, null, undefined, {}, [], true]) {
    throwsError(() => session.stat(value), /^stat: argument `path` must be a string/);
    throwsError(() => session.listDir(value), /^listDir: argument `path` must be a string/);
    throwsError(() => session.readFileText(value), /^readFileText: argument `path` must be a string/);
    throwsError(() => session.rename('a.txt', value, 2), /^rename: argument `to` must be a string/);
    throwsError(() => session.edit('a.txt', value, 'b', 2), /^edit: argument `oldString` must be a string/);
    throwsError(() => session.edit('a.txt', 'a', value, 2), /^edit: argument `newString` must be a string/);
    throwsError(() => session.write('a.txt', value, 2), /^write: argument `content` must be a string/);
    throwsError(() => session.submit(value, 2), /^submit: argument `prompt` must be a string/);
  }
  for (const value of [42, null, {}, [1, 2], new ArrayBuffer(2)]) {
    throwsError(() => session.writeFile('b.txt', value, 1),
      /^writeFile: argument `content` must be a string or a Uint8Array, got /);
  }
  for (const value of ['ENOENT', 'eacces', undefined, 13, true]) {
    throwsError(() => session.setTransientError('a.txt', value),
      /^setTransientError: argument `kind` must be "EACCES", "EBUSY" or null/);
  }
  throwsError(() => session.setTransientError('a.txt', 'EPERM'), /got "EPERM"$/);
  // An empty path would fail every later look inside the working directory (issue 31).
  throwsError(() => session.setTransientError('', 'EBUSY'), /^setTransientError: path "": is empty/);
  throwsError(() => session.read('a.txt', 'all', 2), /^read: options must be an object, got string/);
  throwsError(() => session.read('a.txt', { offest: 1 }, 2), /^read: unknown option "offest": allowed options are "offset", "limit"/);
  for (const offset of [-1, 1.5, NaN, '1', MAX_TIME + 2]) {
    throwsError(() => session.read('a.txt', { offset }, 2), /^read: option `offset` must be an integer from 0 to 9007199254740992/);
  }
  throwsError(() => session.read('a.txt', { limit: 2.5 }, 2), /^read: option `limit` must be an integer/);
  // The core's errors pass through, with the method in front.
  throwsError(() => session.writeFile('a\0b', 'x', 1), /^writeFile: /, /NUL/);
  throwsError(() => session.stat('../../../etc'), /^stat: /, /above the root/);
  throwsError(() => session.stat('missing.txt'), /^stat: /, /missing\.txt/);
  throwsError(() => session.deleteFile('missing.txt', 3), /^deleteFile: /, /missing\.txt/);
  // After all of that the session still works.
  assert.equal(session.readFileText('a.txt'), 'a\n');
});

test('the virtual workspace: text, bytes, directories, renames, deletes, transient errors', () => {
  const session = new Session({ cwd: '/p', home: '/home/u' });
  session.writeFile('src/é.ts', 'é\n', 1000);
  session.writeFile('/p/logo.png', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0xff]), 1001);
  session.writeFile('~/notes.md', new TextEncoder().encode('# notes\n'), 1002);
  assert.deepEqual(session.stat('src/é.ts'), { kind: 'file', size: 3, mtimeMs: 1000 });
  assert.deepEqual(session.stat('/p/src/é.ts'), session.stat('./src/../src/é.ts'));
  assert.equal(session.stat('src').kind, 'directory');
  assert.equal(session.readFileText('src/é.ts'), 'é\n');
  assert.equal(session.readFileText('logo.png'), null); // not UTF-8: binary
  assert.equal(session.readFileText('/home/u/notes.md'), '# notes\n'); // UTF-8 bytes are text
  assert.deepEqual(session.listDir('/p'), [{ name: 'logo.png', kind: 'file' }, { name: 'src', kind: 'directory' }]);
  session.mkdir('docs/old', 1003);
  assert.deepEqual(session.listDir('docs'), [{ name: 'old', kind: 'directory' }]);
  session.rename('src/é.ts', 'docs/moved.ts', 1004);
  assert.equal(session.readFileText('docs/moved.ts'), 'é\n');
  throwsError(() => session.stat('src/é.ts'), /^stat: /);
  session.deleteFile('docs/moved.ts', 1005);
  assert.deepEqual(session.listDir('docs'), [{ name: 'old', kind: 'directory' }]);
  session.setTransientError('logo.png', 'EACCES');
  throwsError(() => session.stat('logo.png'), /^stat: /, /EACCES/);
  session.setTransientError('logo.png', 'EBUSY');
  throwsError(() => session.readFileText('logo.png'), /^readFileText: /, /EBUSY/);
  session.setTransientError('logo.png', null);
  assert.equal(session.stat('logo.png').size, 5);
});

test('an edit outside the agent comes back as an edited_text_file note on the next turn', () => {
  const session = new Session({ profile: 'recommended', cwd: '/p', home: '/home/u' });
  const before = numberedLines(30);
  session.writeFile('src/app.ts', before, 1000);
  const read = session.read('src/app.ts', undefined, 2000);
  assertKeys(read, ['isError', 'content']);
  assert.equal(read.isError, false);
  assert.match(read.content, /^1\tline1$/m);
  const [row] = session.fileState();
  assertKeys(row, ['path', 'timestamp', 'bytes', 'partialView'], ['offset', 'limit']);
  assert.equal(row.path, '/p/src/app.ts');
  assert.equal(row.bytes, new TextEncoder().encode(before).length);
  assert.equal(row.partialView, false);

  const after = before.replace('line15\n', 'LINE15 edited outside the agent\n');
  session.writeFile('src/app.ts', after, 3000);
  const turn = session.submit('carry on', 4000);
  assertTurnShape(turn);
  const notes = turn.attachments.filter((a) => a.kind === 'edited_text_file');
  assert.equal(notes.length, 1, JSON.stringify(turn, null, 1));
  const [note] = notes;
  assert.equal(note.path, '/p/src/app.ts');
  assert.ok(note.tokens > 0);
  const snippet = engine.diffSnippet(before, after, { profile: 'recommended' });
  assert.match(snippet, /^15\tLINE15 edited outside the agent$/m);
  assert.ok(note.text.includes(snippet), `the note carries the snippet:\n${note.text}`);
  assert.ok(note.text.includes('/p/src/app.ts'), 'the note names the absolute path');
  // One note per change: the next round has nothing new to say about it.
  const next = session.toolRound(5000);
  assert.equal(next.attachments.filter((a) => a.kind === 'edited_text_file').length, 0);
});

test('claude-code watches only files the agent wrote (Q31), and its Edit tool works', () => {
  const session = new Session({ profile: 'claude-code', cwd: '/p', home: '/home/u' });
  const before = numberedLines(30);
  session.writeFile('read-only.ts', before, 1000);
  session.writeFile('edited.ts', before, 1000);
  assert.equal(session.read('read-only.ts', undefined, 2000).isError, false);
  assert.equal(session.read('edited.ts', { offset: 1, limit: 30 }, 2000).isError, false);
  const edit = session.edit('edited.ts', 'line3\n', 'line3 (agent)\n', 3000);
  assert.equal(edit.isError, false, edit.content);
  session.writeFile('read-only.ts', before.replace('line15', 'LINE15'), 4000);
  session.writeFile('edited.ts', before.replace('line3\n', 'line3 (agent)\n').replace('line15', 'LINE15'), 4000);
  const turn = session.submit('next', 5000);
  assertTurnShape(turn);
  const paths = turn.attachments.filter((a) => a.kind === 'edited_text_file').map((a) => a.path);
  assert.deepEqual(paths, ['/p/edited.ts']);
  // A write by the agent answers with a tool result, never a throw.
  const write = session.write('new.ts', 'export {};\n', 6000);
  assertKeys(write, ['isError', 'content']);
  assert.equal(write.isError, false, write.content);
  assert.equal(session.readFileText('new.ts'), 'export {};\n');
  // A failed Read is a result too.
  const missing = session.read('nope.ts', undefined, 7000);
  assert.equal(missing.isError, true);
});

test('a denied mention is a decision, not an attachment', () => {
  const session = new Session({ profile: 'claude-code', cwd: '/p', home: '/home/u', config: { deny: ['Read(./.env)'] } });
  session.writeFile('.env', 'SECRET=1\n', 1000);
  const turn = session.submit('what is in @.env?', 2000);
  assertTurnShape(turn);
  assert.equal(turn.attachments.filter((a) => a.path === '/p/.env').length, 0);
  const denied = turn.decisions.filter((d) => /deni/i.test(d.verdict));
  assert.ok(denied.length > 0, JSON.stringify(turn.decisions));
});

test('tests/fixtures/paths.json through writeFile and stat', () => {
  const { cases } = fixture('paths.json');
  for (const c of cases) {
    const label = JSON.stringify(c);
    /** @type {InstanceType<typeof Session>} */
    let session;
    try {
      session = new Session({ profile: c.profile ?? 'claude-code', cwd: c.cwd, home: c.home });
    } catch (error) {
      assert.ok(c.error, `${label}: ${error}`);
      assert.ok(error instanceof Error && error.message.startsWith('new Session: ') && error.message.includes(c.error),
        `${label}: ${error}`);
      continue;
    }
    if (c.error) {
      for (const [method, call] of [['writeFile', () => session.writeFile(c.input, 'x', 1)], ['stat', () => session.stat(c.input)]]) {
        assert.throws(call, (error) => error instanceof Error && error.message.startsWith(`${method}: `)
          && error.message.includes(c.error), `${method} ${label}`);
      }
    } else if ([c.cwd.replace(/(.)\/+$/, '$1'), c.home, '/'].includes(c.expected)) {
      // The input names a directory: put a file in it, then look at it through the input.
      session.writeFile(`${c.expected === '/' ? '' : c.expected}/probe.txt`, 'x', 1);
      assert.equal(session.stat(c.input).kind, 'directory', label);
    } else {
      session.writeFile(c.input, 'é', 7);
      assert.deepEqual(session.stat(c.expected), { kind: 'file', size: 2, mtimeMs: 7 }, label);
      assert.deepEqual(session.stat(c.input), session.stat(c.expected), label);
    }
    session.free();
  }
});

test('step drives a live session with scenario steps: a host-run tool awaits its result', () => {
  const session = new engine.Session({ profile: 'claude-code', cwd: '/p' });
  const first = session.step({ kind: 'user', prompt: 'run the tests' }, 1000);
  assert.equal(first.round, 'human-turn');
  const call = { type: 'tool_use', id: 'bash-1', name: 'Bash', input: { command: 'npm test' } };
  const waiting = session.step({ kind: 'assistant', blocks: [call] }, 2000);
  assert.equal(waiting.round, 'awaiting-tool-results');
  assert.equal(waiting.request, undefined);
  throwsError(() => session.step({ kind: 'toolResults', results: [{ toolUseId: 'bash-2', content: 'x' }] }, 3000),
    /^step\.results\[0\]\.toolUseId: no call "bash-2" awaits a result: awaited are bash-1$/);
  const round = session.step({ kind: 'toolResults', results: [{ toolUseId: 'bash-1', content: '3 passing' }] }, 3000);
  assert.equal(round.round, 'tool-round');
  const last = round.request?.messages.at(-1);
  assert.equal(last?.content[0].type, 'tool_result');
  assert.equal(last?.content[0].text, '3 passing');
  throwsError(() => session.step({ kind: 'assistant', blocks: [call] }, 4000), /step\.blocks\[0\]\.id: the tool-use id "bash-1" is already used/);
  throwsError(() => session.step('[1]', 4000), /^step: expected an object, got array$/);
  throwsError(() => session.step({ kind: 'user' }, 4000), /^step\.prompt: required field is missing$/);
  throwsError(() => session.step(7, 4000), /argument `step` must be a JSON string or an object, got number/);
  session.free();
});
