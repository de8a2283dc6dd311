// A consumer of the installed package, type-checked with `tsc --strict` (tests/package): the
// types of every entry resolve, and they are precise enough to catch a wrong call.
import init, { estimateTokens, extractMentions, Session, type Mentions, type Turn } from 'context-assembly';
import { createWorkerEngine, type WorkerEngine, type WorkerSession } from 'context-assembly/worker';

export async function onMainThread(): Promise<number> {
  await init();
  const mentions: Mentions = extractMentions('see @a.ts', { profile: 'codex' });
  const session = new Session({ profile: 'recommended', cwd: '/project' });
  session.writeFile('a.ts', new Uint8Array([97]), 1);
  const turn: Turn = session.submit('look at @a.ts', 2);
  session.free();
  // @ts-expect-error: a profile the engine does not have
  extractMentions('x', { profile: 'claude' });
  return mentions.files.length + turn.attachments.length + estimateTokens('hello');
}

export async function inAWorker(signal: AbortSignal): Promise<string[]> {
  const engine: WorkerEngine = await createWorkerEngine({ onEvent: (event) => { if (event.type === 'finished') console.log(event.fn, event.ms); } });
  const tokens: number = await engine.estimateTokens('hello', { method: 'codex' });
  const session: WorkerSession = await engine.createSession({ cwd: '/project' });
  const bytes = new Uint8Array([104, 105]);
  await session.with({ transfer: [bytes.buffer] }).writeFile('a.txt', bytes, 1);
  const text: string | null = await session.readFileText('a.txt');
  const comparison = await engine.with({ signal }).compareProfiles({ steps: [] }, ['claude-code'], undefined);
  // @ts-expect-error: every call returns a Promise
  const wrong: number = engine.estimateTokens('hello');
  // @ts-expect-error: the Session's methods keep their argument types
  await session.submit(42, 1);
  await session.free();
  engine.terminate();
  return [String(tokens), text ?? '', ...Object.keys(comparison), String(wrong)];
}
