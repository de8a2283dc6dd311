// A consumer of the installed package, type-checked with `tsc --strict` and `skipLibCheck: false`
// (tests/package): every entry's types resolve (the raw modules and the worker script included),
// optional parameters are optional, and the types are precise enough to catch a wrong call.
import init, { compareProfiles, completionInsertion, estimateTokens, extractMentions, loadTools, mentionKinds, redactScenario, Session, type Comparison, type MentionKind, type Mentions, type Redaction, type SearchResult, type Turn } from 'context-assembly';
import initLite, * as lite from 'context-assembly/lite';
import { createWorkerEngine, type WorkerEngine, type WorkerFileSearcher, type WorkerSession } from 'context-assembly/worker';
import { promptEditor, tokenCount, type PromptEditorOptions } from 'context-assembly/codemirror';
import wasmUrl from 'context-assembly/wasm';
import liteWasmUrl from 'context-assembly/lite/wasm';
import toolsWasmUrl from 'context-assembly/tools/wasm';
import 'context-assembly/worker-thread';
import { EditorState } from '@codemirror/state';

export async function onMainThread(): Promise<number> {
  await init({ module_or_path: wasmUrl });
  const mentions: Mentions = extractMentions('see @a.ts', { profile: 'codex' });
  const session = new Session({ profile: 'recommended', cwd: '/project' });
  session.writeFile('a.ts', new Uint8Array([97]), 1);
  const turn: Turn = session.submit('look at @a.ts', 2);
  const found: SearchResult = session.searchFiles('a');
  session.free();
  const kinds: MentionKind[] = mentionKinds();
  const inserted: string = completionInsertion('a b.ts') + completionInsertion('a.ts', true, { profile: 'claude-code' });
  // @ts-expect-error: a profile the engine does not have
  extractMentions('x', { profile: 'claude' });
  return mentions.files.length + turn.attachments.length + found.matches.length + kinds.length + inserted.length
    + estimateTokens('hello') + estimateTokens('hello', { profile: 'codex' });
}

export async function theTools(): Promise<number> {
  const tools = await loadTools(toolsWasmUrl);
  const comparison: Comparison = await compareProfiles({ steps: [] }, ['claude-code']);
  const redaction: Redaction = await redactScenario({ steps: [] }, { paths: 'hash' });
  // @ts-expect-error: a tool answers with a Promise from the main entry
  const sync: Comparison = compareProfiles({ steps: [] }, ['codex']);
  const importer = new tools.SessionImport();
  importer.free();
  return Object.keys(comparison).length + redaction.scenarioJson.length + Object.keys(sync).length;
}

export async function theLiteModule(): Promise<number> {
  await initLite({ module_or_path: liteWasmUrl });
  const searcher = new lite.FileSearcher(['src/a.ts']);
  const result: SearchResult = searcher.search('a');
  searcher.free();
  return result.totalMatchCount + lite.estimateTokens('hi', { profile: 'claude-code' });
}

export async function inAWorker(signal: AbortSignal): Promise<string[]> {
  const engine: WorkerEngine = await createWorkerEngine({ onEvent: (event) => { if (event.type === 'finished') console.log(event.fn, event.ms); } });
  const tokens: number = await engine.estimateTokens('hello', { method: 'codex' });
  const session: WorkerSession = await engine.createSession({ cwd: '/project' });
  const bytes = new Uint8Array([104, 105]);
  await session.with({ transfer: [bytes.buffer] }).writeFile('a.txt', bytes, 1);
  const text: string | null = await session.readFileText('a.txt');
  const comparison = await engine.with({ signal }).compareProfiles({ steps: [] }, ['claude-code']);
  const searcher: WorkerFileSearcher = await engine.createFileSearcher(['src/a.ts', 'src/b.ts']);
  const found: SearchResult = await searcher.with({ signal }).search('a');
  await searcher.free();
  // @ts-expect-error: every call returns a Promise
  const wrong: number = engine.estimateTokens('hello');
  // @ts-expect-error: the Session's methods keep their argument types
  await session.submit(42, 1);
  // @ts-expect-error: a class is not a function over the Worker
  engine.FileSearcher(['a']);
  await session.free();
  engine.terminate();
  return [String(tokens), text ?? '', ...Object.keys(comparison), String(wrong), String(found.totalMatchCount)];
}

export function anEditor(): number {
  const options: PromptEditorOptions = { engine: lite, profile: 'claude-code', files: ['src/a.ts'], recent: () => ['src/a.ts'], onTokens: (count) => console.log(count) };
  const state = EditorState.create({ doc: 'see @src/a.ts', extensions: promptEditor(options) });
  // @ts-expect-error: files are paths, a searcher or a session
  promptEditor({ engine: lite, files: 42 });
  return tokenCount(state);
}
