// The three wasm modules of pkg/ (the session engine, the tools loaded on first use, the lite
// engines): each function lives where the package says, and the ones they share answer alike.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import * as session from '../../pkg/context_assembly.js';
import * as tools from '../../pkg/tools/context_assembly_tools.js';
import * as lite from '../../pkg/lite/context_assembly_lite.js';
import { TOOL_FUNCTIONS } from '../../crate/wasm/npm/entries/tools-loader.js';

const ROOT = resolve(import.meta.dirname, '../..');
session.initSync({ module: readFileSync(resolve(ROOT, 'pkg/context_assembly_bg.wasm')) });
tools.initSync({ module: readFileSync(resolve(ROOT, 'pkg/tools/context_assembly_tools_bg.wasm')) });
lite.initSync({ module: readFileSync(resolve(ROOT, 'pkg/lite/context_assembly_lite_bg.wasm')) });

/** A module's plain functions (not its classes, not the loader's). @param {Record<string, unknown>} module */
function functionsOf(module) {
  const loader = new Set(['default', 'initSync']);
  return Object.keys(module)
    .filter((name) => typeof module[name] === 'function' && !loader.has(name) && !/^[A-Z]/.test(name))
    .sort();
}

test("the package's list of tools is the tools module's functions that the session module lacks", () => {
  const inSession = new Set(functionsOf(session));
  assert.deepEqual(functionsOf(tools).filter((name) => !inSession.has(name)), [...TOOL_FUNCTIONS].sort());
  assert.equal(typeof tools.SessionImport, 'function');
  assert.equal(/** @type {Record<string, unknown>} */ (session).SessionImport, undefined);
});

test('every lite function is in both other modules, answering alike', () => {
  for (const name of functionsOf(lite)) {
    assert.equal(typeof (/** @type {Record<string, unknown>} */ (session))[name], 'function', `session has ${name}`);
    assert.equal(typeof (/** @type {Record<string, unknown>} */ (tools))[name], 'function', `tools has ${name}`);
  }
  const text = 'fix @src/a.ts and @"b c.md"';
  for (const module of [session, tools]) {
    assert.deepEqual(module.extractMentions(text), lite.extractMentions(text));
    assert.equal(module.estimateTokens('hello world', { method: 'codex' }), lite.estimateTokens('hello world', { method: 'codex' }));
    assert.deepEqual(module.compactionThresholds({ profile: 'claude-code', contextWindow: 200000 }), lite.compactionThresholds({ profile: 'claude-code', contextWindow: 200000 }));
  }
});
