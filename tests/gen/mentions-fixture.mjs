// Builds tests/fixtures/mentions.json. claude-code-2.1.88 expectations come from the original
// regexes (an oracle independent of the Rust code); codex and recommended ones are written
// by hand below, and only their UTF-16 offsets are computed.
import { writeFileSync } from 'node:fs';

const uniqBy = (items, key) => {
  const seen = new Set();
  return items.filter((item) => (seen.has(key(item)) ? false : (seen.add(key(item)), true)));
};

function* matches(re, text) {
  let m;
  while ((m = re.exec(text)) !== null) yield m;
}

function claude(text) {
  const quoted = [...matches(/(^|\s)@"([^"]+)"/g, text)]
    .filter((m) => !m[2].endsWith(' (agent)'))
    .map((m) => ({ raw: m[2], quoted: true, start: m.index + m[1].length, end: m.index + m[0].length }));
  const regular = [...matches(/(^|\s)@([^\s]+)\b/g, text)]
    .map((m) => ({ raw: m[2], quoted: false, start: m.index + m[1].length, end: m.index + m[0].length }))
    .filter((f) => !f.raw.startsWith('"'));
  const files = uniqBy([...quoted, ...regular], (f) => f.raw).map((f) => {
    const m = f.raw.match(/^([^#]+)(?:#L(\d+)(?:-(\d+))?)?(?:#([^#]*))?$/);
    const e = { raw: f.raw, path: m ? m[1] : f.raw };
    if (m && m[2]) {
      e.lineStart = parseInt(m[2], 10);
      e.lineEnd = m[3] ? parseInt(m[3], 10) : e.lineStart;
    }
    if (m && m[4] !== undefined) e.fragment = m[4];
    return { ...e, quoted: f.quoted, start: f.start, end: f.end };
  });
  const mcpResources = uniqBy(
    [...matches(/(^|\s)@([^\s]+:[^\s]+)\b/g, text)].map((m) => {
      const [server, ...rest] = m[2].split(':');
      return { raw: m[2], server, uri: rest.join(':'), start: m.index + m[1].length, end: m.index + m[0].length };
    }),
    (m) => m.raw,
  );
  const agents = uniqBy(
    [
      ...[...matches(/(^|\s)@"([\w:.@-]+) \(agent\)"/g, text)],
      ...[...matches(/(^|\s)@(agent-[\w:.@-]+)/g, text)],
    ].map((m) => ({
      raw: m[2],
      agentType: m[2].replace('agent-', ''),
      start: m.index + m[1].length,
      end: m.index + m[0].length,
    })),
    (a) => a.raw,
  );
  return { files, mcpResources, agents };
}

/** Hand-written expectations: items are [written, fields]; `written` is the mention as it
 *  appears in the text from `@` on, found left to right. */
function hand(text, { files = [], mcp = [], agents = [] }) {
  const locate = (written, cursor) => {
    const start = text.indexOf(written, cursor.at);
    if (start < 0) throw new Error(`${JSON.stringify(written)} not in ${JSON.stringify(text)}`);
    cursor.at = start + written.length;
    return { start, end: start + written.length };
  };
  const order = (fields, keys) => Object.fromEntries(keys.filter((k) => fields[k] !== undefined).map((k) => [k, fields[k]]));
  const fc = { at: 0 };
  const mc = { at: 0 };
  const ac = { at: 0 };
  return {
    files: files.map(([written, f = {}]) => {
      const quoted = f.quoted ?? written.startsWith('@"');
      const raw = f.raw ?? (quoted ? written.slice(2, -1) : written.slice(1));
      const e = { raw, path: f.path ?? raw, ...f, quoted, ...locate(written, fc) };
      return order(e, ['raw', 'path', 'lineStart', 'lineEnd', 'fragment', 'quoted', 'start', 'end', 'problem']);
    }),
    mcpResources: mcp.map(([written, server, uri]) => ({ raw: written.slice(1), server, uri, ...locate(written, mc) })),
    agents: agents.map(([written, raw, agentType]) => ({ raw, agentType, ...locate(written, ac) })),
  };
}

const cases = [];
const cc = (name, text) => cases.push({ name, profile: 'claude-code-2.1.88', text, expected: claude(text) });
const rec = (name, text, exp) => cases.push({ name, profile: 'recommended', text, expected: hand(text, exp) });
const cx = (name, text, exp) => cases.push({ name, profile: 'codex', text, expected: hand(text, exp) });

// §1.5 golden vectors, one case each.
cc('trailing dot cut (Q1)', 'look at @foo.');
cc('trailing comma cut (Q1)', 'look at @foo,');
cc('e-mail address is no mention', 'mail me user@x.com');
cc('trailing slash cut (Q1)', 'see @src/utils/');
cc('dot-slash path', '@./foo.ts please');
cc('no word char: ../ (Q1)', '@../');
cc('no word char: ~/ (Q1)', '@~/');
cc('home path', '@~/notes.md');
cc('trailing dash cut (Q1)', '@foo-');
cc('dotfile', '@.env');
cc('line range #L10-20', '@file.txt#L10-20');
cc('open range #L10- loses the dash (Q7)', '@file.txt#L10-');
cc('heading fragment', '@file.txt#heading');
cc('quoted path with a space', 'check @"my file.txt" please');
cc('quoted path with a range', '@"my file.ts#L1-2"');
cc('accent cut (Q1)', '@café');
cc('CJK with ASCII extension', '@日本.txt');
cc('CJK only: no mention (Q1)', '@日本');
cc('bracketed mention is no mention', '(@foo)');
cc('two mentions', '@a @b');
cc('@ inside a mention', '@a@b');
cc('duplicates kept once, first kept', '@b @a @b');
cc('quoted and bare duplicates (Q2)', 'x @"q" @q');
cc('server:resource is file and MCP (Q5)', '@server:res/path.');
cc('URL is file and MCP (Q5)', '@http://x');
cc('agent keeps trailing dot (Q4)', '@agent-foo.');
cc('quoted agent', '@"code-reviewer (agent)"');
cc('agent with colon: file, MCP and agent (Q5)', '@agent-asana:proj');
cc('no :line syntax (Q6)', '@/abs/x.ts:12');
cc('trailing bracket cut', '@src/a.ts)');
cc('backtick code', '@`code`');
cc('second fragment ignored', '@foo#L5#L6');
cc('line zero kept (Q8)', '@foo#L0');
cc('reversed range kept silently (Q9)', '@foo#L20-10');
cc('fragment only: no match', '@#L5');
cc('two fragments: kept whole', '@foo#bar#L1');
cc('#L10abc is a fragment (Q7)', '@foo#L10abc');
cc('#l10 is a fragment (Q7)', '@foo#l10');
cc('#L10-20-30 is a fragment (Q7)', '@foo#L10-20-30');
cc('leading zeros', '@foo#L007');
// More claude-code behaviour.
cc('quoted mentions first (Q3)', '@b then @"a"');
cc('quoted content is scanned again (Q5)', '@"a @b"');
cc('quoted MCP capture keeps the quote', '@"a:b"');
cc('quoted agent with agent- prefix', '@"agent-foo (agent)"');
cc('quoted agents first', '@agent-x and @"y (agent)"');
cc('empty server kept', '@::a');
cc('colon at the end: no MCP', '@foo:');
cc('quoted path across a line break', 'see @"a\nb" now');
cc('empty quotes: no mention', '@"" @x');
cc('unclosed quote runs to the next quote', '@"abc @"d"');
cc('BOM is JS whitespace', '\ufeff@x');
cc('NEL is not JS whitespace', '\u0085@x');
cc('no-break space is JS whitespace', 'a\u00a0@x');
cc('start of text only, not of line', 'a\n@x\n@y');
cc('UTF-16: accents, emoji and CJK before mentions', 'café 😀 日本 @src/main.rs#L3-4 and @"über file.md" @agent-x');
cc('UTF-16: emoji pair glued to @ is no mention', '👍🏽@x 👍🏽 @y');
cc('UTF-16: combining accent cut', '@é x @ae\u0301');

// recommended: every fix.
rec('accent kept (Q1)', '@café', { files: [['@café']] });
rec('CJK kept (Q1)', '@日本', { files: [['@日本']] });
rec('CJK full stop trimmed (Q1)', 'see @日本。', { files: [['@日本']] });
rec('trailing dot trimmed (Q1)', 'look at @foo.', { files: [['@foo']] });
rec('parent directory (Q1)', '@../', { files: [['@../']] });
rec('dot segments are not full stops (Q1)', 'go to @.. or @src/.., then @lib/.', { files: [['@..'], ['@src/..'], ['@lib/.']] });
rec('bare trailing # dropped', '@foo# and @bar#x', { files: [['@foo#', { path: 'foo' }], ['@bar#x', { path: 'bar', fragment: 'x' }]] });
rec('trailing slash kept (Q1)', 'see @src/utils/', { files: [['@src/utils/']] });
rec('trailing dash kept (Q1)', '@foo-', { files: [['@foo-']] });
rec('unmatched bracket trimmed (Q1)', '@src/a.ts)', { files: [['@src/a.ts']] });
rec('matched bracket kept (Q1)', '@notes(1)', { files: [['@notes(1)']] });
rec('mention after an opening bracket', 'see (@foo)', { files: [['@foo']] });
rec('bracket glued to a word: no mention', 'f(@foo) user@x.com', {});
rec('escaped space', 'open @my\\ file.txt, please', { files: [['@my\\ file.txt', { path: 'my file.txt' }]] });
rec('text order (Q3)', '@b then @"a"', { files: [['@b'], ['@"a"']] });
rec('dedupe by normalised path (Q2)', '@foo and @./foo and @a/../foo', { files: [['@foo']] });
rec('dedupe by range too (Q2)', '@foo#L1 @foo#L1-1 @foo:1 @foo#L2', {
  files: [['@foo#L1', { path: 'foo', lineStart: 1, lineEnd: 1 }], ['@foo#L2', { path: 'foo', lineStart: 2, lineEnd: 2 }]],
});
rec('path:line (Q6)', '@x.ts:12', { files: [['@x.ts:12', { path: 'x.ts', lineStart: 12, lineEnd: 12 }]] });
rec('path:start-end (Q6)', '@a.ts:10-20.', { files: [['@a.ts:10-20', { path: 'a.ts', lineStart: 10, lineEnd: 20 }]] });
rec('path:start- to the end (Q6)', '@a.ts:10-', { files: [['@a.ts:10-', { path: 'a.ts', lineStart: 10 }]] });
rec('absolute path:line (Q5, Q6)', '@/abs/x.ts:12', { files: [['@/abs/x.ts:12', { path: '/abs/x.ts', lineStart: 12, lineEnd: 12 }]] });
rec('#L10-L20', '@foo#L10-L20', { files: [['@foo#L10-L20', { path: 'foo', lineStart: 10, lineEnd: 20 }]] });
rec('case-insensitive #l10 (Q7)', '@foo#l10', { files: [['@foo#l10', { path: 'foo', lineStart: 10, lineEnd: 10 }]] });
rec('open range #L10- (Q7)', '@file.txt#L10- and @"a b#L3-"', {
  files: [['@file.txt#L10-', { path: 'file.txt', lineStart: 10 }], ['@"a b#L3-"', { path: 'a b', lineStart: 3 }]],
});
rec('malformed #L10abc is an error (Q7)', '@foo#L10abc', {
  files: [['@foo#L10abc', { path: 'foo', problem: 'line range #L10abc: not a line range; write #L<start>, #L<start>-<end> or #L<start>-' }]],
});
rec('malformed #L10-20-30 is an error (Q7)', '@foo#L10-20-30', {
  files: [['@foo#L10-20-30', { path: 'foo', problem: 'line range #L10-20-30: not a line range; write #L<start>, #L<start>-<end> or #L<start>-' }]],
});
rec('lowercase #l10n is a heading', '@README.md#l10n', { files: [['@README.md#l10n', { path: 'README.md', fragment: 'l10n' }]] });
rec('heading anchor', 'read @README.md#installation.', { files: [['@README.md#installation', { path: 'README.md', fragment: 'installation' }]] });
rec('#L0 is line 1 (Q8)', '@foo#L0 @bar#L0-', {
  files: [['@foo#L0', { path: 'foo', lineStart: 1, lineEnd: 1 }], ['@bar#L0-', { path: 'bar', lineStart: 1 }]],
});
rec('reversed range is an error (Q9)', '@foo#L20-10', {
  files: [['@foo#L20-10', { path: 'foo', lineStart: 20, lineEnd: 10, problem: 'line range #L20-10: end before start' }]],
});
rec('reversed colon range is an error (Q9)', '@foo:20-10', {
  files: [['@foo:20-10', { path: 'foo', lineStart: 20, lineEnd: 10, problem: 'line range :20-10: end before start' }]],
});
rec('fragment after the last #', '@foo#bar#L1', { files: [['@foo#bar#L1', { path: 'foo#bar', lineStart: 1, lineEnd: 1 }]] });
rec('two fragments: the last is the range', '@foo#L5#L6', { files: [['@foo#L5#L6', { path: 'foo#L5', lineStart: 6, lineEnd: 6 }]] });
rec('fragment only is a name', '@#L5', { files: [['@#L5']] });
rec('agent trimmed and classified once (Q4, Q5)', '@agent-foo.', { agents: [['@agent-foo', 'agent-foo', 'foo']] });
rec('agent with colon is only an agent (Q5)', '@agent-asana:proj', { agents: [['@agent-asana:proj', 'agent-asana:proj', 'asana:proj']] });
rec('quoted agent', 'ask @"code-reviewer (agent)"', { agents: [['@"code-reviewer (agent)"', 'code-reviewer', 'code-reviewer']] });
rec('agents deduped by type', '@agent-x @"x (agent)" @agent-y', { agents: [['@agent-x', 'agent-x', 'x'], ['@agent-y', 'agent-y', 'y']] });
rec('MCP resource only (Q5)', '@server:res/path.', { mcp: [['@server:res/path', 'server', 'res/path']] });
rec('URL scheme reads as a server', '@http://x', { mcp: [['@http://x', 'http', '//x']] });
rec('drive letter is a file', '@C:\\x and @C:/y', { files: [['@C:\\x'], ['@C:/y']] });
rec('dotted server is a file', '@config.json:foo', { files: [['@config.json:foo']] });
rec('quoted content is read once (Q5)', '@"a @b"', { files: [['@"a @b"']] });
rec('unclosed quote is no mention', 'say @"abc and @d', { files: [['@d']] });
rec('all three kinds in text order', '@"x y.md" @srv:doc @agent-rev @x.md', {
  files: [['@"x y.md"'], ['@x.md']],
  mcp: [['@srv:doc', 'srv', 'doc']],
  agents: [['@agent-rev', 'agent-rev', 'rev']],
});
rec('UTF-16: accents, emoji and CJK before mentions', '日本語 😀 see @café.md#L2-3, then @"my file.txt". 👍🏽 @über', {
  files: [['@café.md#L2-3', { path: 'café.md', lineStart: 2, lineEnd: 3 }], ['@"my file.txt"'], ['@über']],
});
rec('UTF-16: emoji in the path', '😀 @docs/😀.md!', { files: [['@docs/😀.md']] });

// codex: plain tokens.
cx('every token verbatim, no dedupe', 'see @a.ts, then @a.ts', { files: [['@a.ts,'], ['@a.ts']] });
cx('quotes are ordinary characters', '@"my file.txt"', { files: [['@"my', { raw: '"my', quoted: false }]] });
cx('nested @ stays in the token', '@scope/pkg@latest', { files: [['@scope/pkg@latest']] });
cx('lone @ and e-mail are not mentions', 'a @ b user@x.com', {});
cx('no ranges', '@file.txt#L10-20 @x.ts:12', { files: [['@file.txt#L10-20'], ['@x.ts:12']] });
cx('no agents or MCP', '@agent-foo @srv:res', { files: [['@agent-foo'], ['@srv:res']] });
cx('punctuation kept', '@café. @日本', { files: [['@café.'], ['@日本']] });
cx('Unicode whitespace: NEL yes, BOM no', '\u0085@x \ufeff@y', { files: [['@x']] });
cx('UTF-16: emoji and CJK before the token', '😀👍🏽 日本 @src/ü.rs', { files: [['@src/ü.rs']] });

const out = `{"cases":[\n${cases.map((c) => JSON.stringify(c)).join(',\n')}\n]}\n`;
writeFileSync(process.argv[2], out);
console.log(`${cases.length} cases`);
