// A local stand-in for the OpenAI Responses API: it records every request the real Codex CLI
// sends and answers the main loop from a script of assistant turns, so a session is the same on
// every run and needs no network.
//
// Which requests are the main loop: Codex's agent loop always offers its tools, while its side
// requests (a thread title, a local compaction's summary request) offer none. So:
//   main = `tools` is a non-empty array; everything else is `side`.
// Side requests get a fixed short answer and are recorded but never compared.
import { createServer } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { answerJson, eventStream, roughTokens } from './mock-http.mjs';

/** @typedef {{ type: 'text', text: string } | { type: 'tool_use', id: string, name: string, input: object }} AssistantBlock */
/** @typedef {{ n: number, path: string, role: 'main' | 'side', scripted: boolean, body: any }} RecordedRequest */

/** What a request is for, by the rule in this file's header. */
export function requestRole(body) {
  return Array.isArray(body.tools) && body.tools.length > 0 ? 'main' : 'side';
}

// Said when the client asks for more main-loop rounds than the scenario scripted: a plain answer,
// so the turn ends instead of looping, and the request is marked unscripted.
const UNSCRIPTED_ANSWER = [{ type: 'text', text: 'No scripted turn is left.' }];
// Also the answer to a local compaction's summary request, which offers no tools: the summary
// then ends with this text, and the comparator knows the summary by it.
export const SIDE_ANSWER_TEXT = 'Lab mock: no summary.';
const SIDE_ANSWER = [{ type: 'text', text: SIDE_ANSWER_TEXT }];

/**
 * Starts the mock on 127.0.0.1 at a port the system chooses.
 * @param {{ recordDir: string }} options  where each request body is written, as `<n>.json`
 */
export async function startMockResponses({ recordDir }) {
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
      if (req.method === 'GET' && url.pathname.endsWith('/models')) return answerJson(res, 200, { models: [] });
      if (req.method !== 'POST' || !url.pathname.endsWith('/responses')) {
        return answerJson(res, 404, { error: { type: 'not_found', message: `${req.method} ${url.pathname}` } });
      }
      let body;
      try {
        body = JSON.parse(raw);
      } catch {
        return answerJson(res, 400, { error: { type: 'invalid_request_error', message: 'body is not JSON' } });
      }
      const role = requestRole(body);
      const scripted = role === 'main' && queue.length > 0;
      const blocks = role === 'side' ? SIDE_ANSWER : scripted ? /** @type {AssistantBlock[]} */ (queue.shift()) : UNSCRIPTED_ANSWER;
      const n = requests.length + 1;
      const path = join(recordDir, `${String(n).padStart(3, '0')}.json`);
      writeFileSync(path, JSON.stringify({ role, scripted, body }, null, 2));
      requests.push({ n, path, role, scripted, body });
      streamResponse(res, `resp_lab_${n}`, body.model, blocks, roughTokens(raw));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the mock has no TCP address');

  return {
    url: `http://127.0.0.1:${address.port}/v1`,
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

/** One assistant turn as a Responses stream: each text a message item, each call a function_call. */
function streamResponse(res, id, model, blocks, inputTokens) {
  const send = eventStream(res);
  const response = { id, object: 'response', model, status: 'in_progress', output: [] };
  send('response.created', { response });
  const output = blocks.map((block, index) =>
    block.type === 'text'
      ? { type: 'message', id: `msg_${id}_${index}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: block.text, annotations: [] }] }
      : { type: 'function_call', id: `fc_${id}_${index}`, status: 'completed', call_id: block.id, name: block.name, arguments: JSON.stringify(block.input) },
  );
  output.forEach((item, output_index) => send('response.output_item.done', { output_index, item }));
  const outputTokens = roughTokens(JSON.stringify(blocks));
  send('response.completed', {
    response: {
      ...response,
      status: 'completed',
      output,
      usage: {
        input_tokens: inputTokens,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: outputTokens,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: inputTokens + outputTokens,
      },
    },
  });
  res.end();
}
