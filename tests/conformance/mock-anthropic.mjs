// A local stand-in for the Anthropic Messages API: it records every request the real client
// sends and answers the main loop from a script of assistant turns, so a session is the same
// on every run and needs no network.
//
// Which requests are the main loop: Claude Code's agent loop always offers its tools and asks
// for a real answer, while its side requests (quota probe, title and topic checks, summaries
// of the session for the UI) either offer no tools or cap the answer at one token. So:
//   main = `tools` is a non-empty array and `max_tokens` > 1; everything else is `side`.
// Side requests get a fixed one-word answer and are recorded but never compared.
import { createServer } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** @typedef {{ type: 'text', text: string } | { type: 'tool_use', id: string, name: string, input: object }} AssistantBlock */
/** @typedef {{ n: number, path: string, role: 'main' | 'side', scripted: boolean, body: any }} RecordedRequest */

/** What a request is for, by the rule in this file's header. */
export function requestRole(body) {
  const offersTools = Array.isArray(body.tools) && body.tools.length > 0;
  return offersTools && body.max_tokens > 1 ? 'main' : 'side';
}

// Said when the client asks for more main-loop rounds than the scenario scripted: a plain end
// of turn, so the client stops instead of waiting, and the request is marked unscripted.
const UNSCRIPTED_ANSWER = [{ type: 'text', text: 'No scripted turn is left.' }];
const SIDE_ANSWER = [{ type: 'text', text: 'ok' }];

/**
 * Starts the mock on 127.0.0.1 at a port the system chooses.
 * @param {{ recordDir: string }} options  where each request body is written, as `<n>.json`
 */
export async function startMockAnthropic({ recordDir }) {
  mkdirSync(recordDir, { recursive: true });
  /** @type {AssistantBlock[][]} */
  const queue = [];
  /** @type {RecordedRequest[]} */
  const requests = [];

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
        return answerJson(res, 200, { input_tokens: roughTokens(raw) });
      }
      if (url.pathname !== '/v1/messages') {
        return answerJson(res, 404, { type: 'error', error: { type: 'not_found_error', message: url.pathname } });
      }
      const role = requestRole(body);
      const scripted = role === 'main' && queue.length > 0;
      const blocks = role === 'side' ? SIDE_ANSWER : scripted ? /** @type {AssistantBlock[]} */ (queue.shift()) : UNSCRIPTED_ANSWER;
      const n = requests.length + 1;
      const path = join(recordDir, `${String(n).padStart(3, '0')}.json`);
      writeFileSync(path, JSON.stringify({ role, scripted, body }, null, 2));
      requests.push({ n, path, role, scripted, body });
      const usage = { input_tokens: roughTokens(raw), output_tokens: roughTokens(JSON.stringify(blocks)) };
      const stopReason = blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn';
      const message = { id: `msg_lab_${n}`, type: 'message', role: 'assistant', model: body.model };
      if (body.stream) streamMessage(res, message, blocks, stopReason, usage);
      else answerJson(res, 200, { ...message, content: blocks, stop_reason: stopReason, stop_sequence: null, usage });
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the mock has no TCP address');

  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    /** Queues the assistant turns that answer the next main-loop requests, in order. */
    script(/** @type {AssistantBlock[][]} */ turns) {
      queue.push(...turns);
    },
    /** How many scripted turns no request has taken yet. */
    pending: () => queue.length,
    close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
  };
}

// The client only uses the counts to decide on compaction; a sessions here stays far below
// any threshold, so a rough count is enough.
function roughTokens(text) {
  return Math.max(1, Math.round(text.length / 4));
}

function answerJson(res, status, value) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

function streamMessage(res, message, blocks, stopReason, usage) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  send('message_start', {
    message: { ...message, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: usage.input_tokens, output_tokens: 1 } },
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
