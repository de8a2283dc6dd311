// A local stand-in for the Anthropic Messages API: it records every request the real client
// sends and answers the main loop from a script of assistant turns, so a session is the same
// on every run and needs no network.
//
// Which requests are the main loop: Claude Code's agent loop always offers its tools and asks
// for a real answer, while its side requests (quota probe, title and topic checks, summaries
// of the session for the UI) either offer no tools or cap the answer at one token. So:
//   main = `tools` is a non-empty array and `max_tokens` > 1; everything else is `side`.
// A compaction's summary request is shaped like the main loop (the forked call shares the
// main agent's tools), so it is told apart by its format facts: its last user message asks for
// an `<analysis>` block and a `<summary>` block (§9.3). It is answered with the scenario's
// summary, or a fixed one.
// Side requests get a fixed one-word answer and are recorded but never compared.
import { createServer } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { answerJson, eventStream, roughTokens } from './mock-http.mjs';

/** @typedef {{ type: 'text', text: string } | { type: 'tool_use', id: string, name: string, input: object }} AssistantBlock */
/** @typedef {AssistantBlock[] | ((body: any) => AssistantBlock[])} ScriptedTurn */
/** @typedef {{ n: number, path: string, role: 'main' | 'side' | 'summary', scripted: boolean, body: any }} RecordedRequest */
/** @typedef {{ input_tokens: number, cache_creation_input_tokens: number, cache_read_input_tokens: number, output_tokens: number }} ProviderUsage */

/** What a request is for, by the rule in this file's header. */
export function requestRole(body) {
  const offersTools = Array.isArray(body.tools) && body.tools.length > 0;
  if (isSummaryRequest(body)) return 'summary';
  return offersTools && body.max_tokens > 1 ? 'main' : 'side';
}

function isSummaryRequest(body) {
  // The last user message: releases between 2.1.274 and 2.1.310 put the system-role message
  // after it even in the summary request.
  const last = body.messages?.findLast((m) => m.role === 'user');
  if (!last) return false;
  const text = typeof last.content === 'string' ? last.content : last.content.filter((b) => b.type === 'text').map((b) => b.text).join('\n');
  return text.includes('<analysis>') && text.includes('<summary>');
}

// Said when the client asks for more main-loop rounds than the scenario scripted: a plain end
// of turn, so the client stops instead of waiting, and the request is marked unscripted.
const UNSCRIPTED_ANSWER = [{ type: 'text', text: 'No scripted turn is left.' }];
const SIDE_ANSWER = [{ type: 'text', text: 'ok' }];
/** The summary both sides get when the scenario's compact step gives none. */
export const FIXED_SUMMARY = '<analysis>Lab analysis.</analysis>\n<summary>The lab session so far: files were read and edited as scripted.</summary>';

/**
 * Starts the mock on 127.0.0.1 at a port the system chooses.
 * @param {{ recordDir: string, usage?: (mainIndex: number) => number | ProviderUsage | undefined }} options
 *   `recordDir`: where each request body is written, as `<n>.json`; `usage`: the input tokens
 *   to report for the main-loop request of that index (0-based), when the client's own count
 *   must follow ours (auto-compaction), or the whole usage a scenario's `assistant` step gives
 *   (§6.3); rough otherwise
 */
export async function startMockAnthropic({ recordDir, usage }) {
  mkdirSync(recordDir, { recursive: true });
  /** @type {ScriptedTurn[]} */
  const queue = [];
  /** @type {(string | { tokens?: number, maximum?: number })[]} */
  const summaries = [];
  /** @type {RecordedRequest[]} */
  const requests = [];
  let mainCount = 0;
  /** @type {((body: any) => void)[]} */
  const watchers = [];

  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (req.method !== 'POST') return answerJson(res, 404, { type: 'error', error: { type: 'not_found_error', message: url.pathname } });
      let body;
      try {
        body = JSON.parse(raw);
      } catch {
        return answerJson(res, 400, { type: 'error', error: { type: 'invalid_request_error', message: 'body is not JSON' } });
      }
      if (url.pathname === '/v1/messages/count_tokens') {
        // No token counter here: the client then falls back to its own estimate (the Read
        // tool's token gate, §3.3), which is the one our engine uses.
        return answerJson(res, 404, { type: 'error', error: { type: 'not_found_error', message: 'the lab counts no tokens' } });
      }
      if (url.pathname !== '/v1/messages') {
        return answerJson(res, 404, { type: 'error', error: { type: 'not_found_error', message: url.pathname } });
      }
      for (const watch of watchers) watch(body);
      const role = requestRole(body);
      if (role === 'summary' && typeof summaries[0] === 'object') {
        // A refusal of the summary request as too long (§9.3 item 4), recorded like any request.
        const refusal = /** @type {{ tokens?: number, maximum?: number }} */ (summaries.shift());
        const n = requests.length + 1;
        const path = join(recordDir, `${String(n).padStart(3, '0')}.json`);
        writeFileSync(path, JSON.stringify({ role, scripted: true, refused: true, body }, null, 2));
        requests.push({ n, path, role, scripted: true, body });
        const counts = refusal.tokens !== undefined && refusal.maximum !== undefined ? `: ${refusal.tokens} tokens > ${refusal.maximum} maximum` : '';
        return answerJson(res, 400, { type: 'error', error: { type: 'invalid_request_error', message: `prompt is too long${counts}` } });
      }
      let scripted = false;
      /** @type {AssistantBlock[]} */
      let blocks;
      if (role === 'side') blocks = SIDE_ANSWER;
      else if (role === 'summary') blocks = [{ type: 'text', text: summaries.length ? /** @type {string} */ (summaries.shift()) : FIXED_SUMMARY }];
      else if (queue.length > 0) {
        scripted = true;
        const turn = /** @type {ScriptedTurn} */ (queue.shift());
        blocks = typeof turn === 'function' ? turn(body) : turn;
      } else blocks = UNSCRIPTED_ANSWER;
      const n = requests.length + 1;
      const path = join(recordDir, `${String(n).padStart(3, '0')}.json`);
      writeFileSync(path, JSON.stringify({ role, scripted, body }, null, 2));
      requests.push({ n, path, role, scripted, body });
      const reported = role === 'main' ? usage?.(mainCount) : undefined;
      if (role === 'main') mainCount += 1;
      const tokens =
        typeof reported === 'object'
          ? reported
          : { input_tokens: reported ?? roughTokens(raw), output_tokens: reported !== undefined ? 1 : roughTokens(JSON.stringify(blocks)) };
      const stopReason = blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn';
      const message = { id: `msg_lab_${n}`, type: 'message', role: 'assistant', model: body.model };
      if (body.stream) streamMessage(res, message, blocks, stopReason, tokens);
      else answerJson(res, 200, { ...message, content: blocks, stop_reason: stopReason, stop_sequence: null, usage: tokens });
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the mock has no TCP address');

  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    /** Queues the assistant turns that answer the next main-loop requests, in order. */
    script(/** @type {ScriptedTurn[]} */ turns) {
      queue.push(...turns);
    },
    /** Queues the answer to the next summary request. */
    scriptSummary(/** @type {string} */ text) {
      summaries.push(text);
    },
    /** Queues a refusal of the next summary request as too long, with the counts if given. */
    scriptRefusal(/** @type {{ tokens?: number, maximum?: number }} */ refusal) {
      summaries.push({ ...refusal });
    },
    /** Calls `watch` with every request body before it is answered. */
    watch(/** @type {(body: any) => void} */ watch) {
      watchers.push(watch);
    },
    /** How many scripted turns no request has taken yet. */
    pending: () => queue.length,
    /** Drops the scripted turns no request took (a turn the user stopped). */
    clear: () => void queue.splice(0),
    close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
  };
}

function streamMessage(res, message, blocks, stopReason, usage) {
  const send = eventStream(res);
  send('message_start', {
    message: { ...message, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } },
  });
  blocks.forEach((block, index) => {
    if (block.type === 'text') {
      send('content_block_start', { index, content_block: { type: 'text', text: '' } });
      send('content_block_delta', { index, delta: { type: 'text_delta', text: block.text } });
    } else {
      send('content_block_start', { index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
      send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
    }
    send('content_block_stop', { index });
  });
  send('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } });
  send('message_stop', {});
  res.end();
}
