// toApiRequest through the JS API: a trace's request becomes each provider's body, options
// change the model and the output cap, and bad input is an Error naming the field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { engine } from './engine.mjs';

const read = (/** @type {string} */ path) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/** The last request of a teaching scenario under `profile`. */
function lastRequest(/** @type {string} */ file, /** @type {string} */ profile) {
  const trace = engine.runScenario({ ...JSON.parse(read(`web/scenarios/${file}`)), profile });
  return trace.steps.map((s) => s.turn.request).filter(Boolean).at(-1);
}

test('an Anthropic body in Claude Code 2.1.88\'s frame: system blocks, tools, messages, and two cache breakpoints', () => {
  const request = lastRequest('external-edit.json', 'claude-code-2.1.88');
  const body = engine.toApiRequest(request, { api: 'anthropic-messages' });
  assert.deepEqual(Object.keys(body), ['model', 'max_tokens', 'system', 'tools', 'messages', 'stream']);
  assert.equal(body.model, 'claude-sonnet-4-6');
  assert.equal(body.max_tokens, 32000);
  assert.deepEqual(body.system.map((/** @type {any} */ b) => b.text), request.system.map((/** @type {any} */ b) => b.text));
  // The static system prompt ends at the first breakpoint; the last block carries the second.
  assert.deepEqual(body.system[0].cache_control, { type: 'ephemeral' });
  assert.equal(body.system[1].cache_control, undefined);
  const last = body.messages.at(-1).content.at(-1);
  assert.deepEqual(last.cache_control, { type: 'ephemeral' });
  const marks = body.messages.flatMap((/** @type {any} */ m) => m.content).filter((/** @type {any} */ b) => b.cache_control);
  assert.equal(marks.length, 1);
  assert.deepEqual(Object.keys(body.tools[0]), ['name', 'description', 'input_schema']);
  // The user context is spliced into the first user message.
  assert.ok(body.messages[0].content.some((/** @type {any} */ b) => b.text === request.userContext[0].text));
  const calls = body.messages.flatMap((/** @type {any} */ m) => m.content).filter((/** @type {any} */ b) => b.type === 'tool_use');
  assert.ok(calls.length > 0 && calls.every((/** @type {any} */ c) => typeof c.input === 'object' && c.id));
});

test('an OpenAI Responses body: instructions, input items and function tools, as Codex sends them', () => {
  const request = lastRequest('codex-context.json', 'codex');
  const body = engine.toApiRequest(request, { api: 'openai-responses', model: 'gpt-test' });
  assert.deepEqual(Object.keys(body), ['model', 'instructions', 'input', 'tools', 'tool_choice', 'store', 'stream']);
  assert.equal(body.model, 'gpt-test');
  assert.equal(body.instructions, request.system.map((/** @type {any} */ b) => b.text).join('\n\n'));
  assert.equal(body.input[0].type, 'message');
  assert.equal(body.input[0].role, 'developer');
  assert.ok(body.input[0].content.every((/** @type {any} */ p) => p.type === 'input_text'));
  for (const tool of body.tools) assert.deepEqual(Object.keys(tool), ['type', 'name', 'description', 'strict', 'parameters']);
  const types = new Set(body.input.map((/** @type {any} */ i) => i.type));
  assert.ok(types.has('message'));
});

test('maxTokens and the JSON text of a request are accepted', () => {
  const request = lastRequest('date-change.json', 'claude-code');
  const body = engine.toApiRequest(JSON.stringify(request), { api: 'anthropic-messages', maxTokens: 1024 });
  assert.equal(body.max_tokens, 1024);
});

test('bad input: an Error naming the field and what is allowed', () => {
  const request = lastRequest('date-change.json', 'claude-code');
  assert.throws(() => engine.toApiRequest(request, { api: 'openai-chat' }),
    /^Error: toApiRequest: options\.api: unknown API "openai-chat": expected one of "anthropic-messages", "openai-responses"$/);
  assert.throws(() => engine.toApiRequest(request, undefined), /toApiRequest: options\.api: required field is missing/);
  assert.throws(() => engine.toApiRequest(request, { api: 'anthropic-messages', maxTokens: 0 }), /toApiRequest: options\.maxTokens: expected a whole number from 1/);
  assert.throws(() => engine.toApiRequest({ ...request, messages: 'none' }, { api: 'anthropic-messages' }),
    /toApiRequest: request\.messages: expected an array, got string/);
  const broken = { ...request, messages: [{ role: 'robot', content: [] }] };
  assert.throws(() => engine.toApiRequest(broken, { api: 'anthropic-messages' }), /request\.messages\[0\]\.role: unknown role "robot": expected one of "developer", "user", "assistant", "system"/);
  assert.throws(() => engine.toApiRequest(42, { api: 'anthropic-messages' }), /toApiRequest: argument `request` must be a JSON string or an object, got number/);
});

test('with a profile, a Messages body carries its Claude Code release\'s own fields, as the lab recorded them', () => {
  const request = lastRequest('external-edit.json', 'claude-code');
  const body = (/** @type {string | undefined} */ profile) => engine.toApiRequest(request, { api: 'anthropic-messages', ...(profile ? { profile } : {}) });
  const current = body('claude-code');
  assert.deepEqual(Object.keys(current), ['model', 'max_tokens', 'system', 'tools', 'messages', 'thinking', 'context_management', 'output_config', 'stream']);
  assert.equal(current.model, 'claude-opus-5-5');
  assert.equal(current.max_tokens, 128000);
  assert.deepEqual(current.thinking, { type: 'adaptive', display: 'updates' });
  assert.deepEqual(current.context_management, { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] });
  assert.deepEqual(current.output_config, { effort: 'medium' });
  const seed = body('claude-code-2.1.88');
  assert.equal(seed.model, 'claude-sonnet-4-6');
  assert.equal(seed.max_tokens, 32000);
  assert.deepEqual(seed.thinking, { type: 'adaptive' });
  // The options given win over the release's; without a Claude Code release, a plain body.
  const chosen = engine.toApiRequest(request, { api: 'anthropic-messages', profile: 'claude-code', model: 'm', maxTokens: 5 });
  assert.equal(chosen.model, 'm');
  assert.equal(chosen.max_tokens, 5);
  for (const plain of [body(undefined), body('codex')]) assert.equal(plain.thinking, undefined);
  assert.throws(() => engine.toApiRequest(request, { api: 'anthropic-messages', profile: 'claude' }), /options\.profile: unknown profile "claude"/);
});
