// Assembles the npm package `context-assembly` in target/npm/ (`make package`): the wasm-bindgen
// output in pkg/, the entries per runtime in entries/, this folder's README, the root's
// CHANGELOG and licences, and a package.json whose version is crate/Cargo.toml's. The package is
// built in a staging folder and moved into place whole.
import { cpSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../../..');
const OUT = resolve(ROOT, 'target/npm');
const STAGING = resolve(ROOT, 'target/npm-staging');

/**
 * One `[key] = "value"` of a TOML section, read without a TOML parser: the manifests keep
 * these keys on one line each.
 * @param {string} path
 * @param {string} section
 * @param {string} key
 */
function tomlString(path, section, key) {
  const text = readFileSync(resolve(ROOT, path), 'utf8');
  const start = text.indexOf(`[${section}]\n`);
  const end = text.indexOf('\n[', start + 1);
  const body = text.slice(start, end === -1 ? undefined : end);
  const match = start === -1 ? null : body.match(new RegExp(`^${key} = "([^"]*)"$`, 'm'));
  if (match === null) throw new Error(`${path}: no ${key} = "…" in [${section}]`);
  return match[1];
}

// The conditions, most specific first: `types` for TypeScript, `node` for Node (and Bun),
// `browser`/`default` for browsers, Deno and bundlers, which all resolve the .wasm beside the
// module with `new URL(…, import.meta.url)`. `./lite` is the per-keystroke engines in a module
// of their own (pkg/lite/, entries/lite/).
const EXPORTS = {
  '.': {
    types: './context_assembly.d.ts',
    node: './node.js',
    browser: './context_assembly.js',
    default: './context_assembly.js',
  },
  './worker': {
    types: './worker.d.ts',
    node: './worker-node.js',
    default: './worker.js',
  },
  // The worker scripts, for a host whose bundler moves them (`createWorkerEngine({ workerUrl })`).
  './worker-thread': {
    node: './worker-thread-node.js',
    default: './worker-thread.js',
  },
  './lite': {
    types: './lite/context_assembly_lite.d.ts',
    node: './lite/node.js',
    browser: './lite/context_assembly_lite.js',
    default: './lite/context_assembly_lite.js',
  },
  './lite/wasm': './lite/context_assembly_lite_bg.wasm',
  './wasm': './context_assembly_bg.wasm',
  './package.json': './package.json',
};

function packageJson() {
  return {
    name: 'context-assembly',
    version: tomlString('crate/Cargo.toml', 'package', 'version'),
    description: tomlString('crate/Cargo.toml', 'package', 'description'),
    license: tomlString('Cargo.toml', 'workspace.package', 'license'),
    repository: { type: 'git', url: tomlString('Cargo.toml', 'workspace.package', 'repository') },
    keywords: ['context', 'llm', 'coding-agent', 'claude-code', 'codex', 'compaction', 'wasm'],
    type: 'module',
    // The Node entry instantiates the module when imported: a bundler must keep it (and the
    // worker scripts, which are entry points of their own) even when no export looks used.
    sideEffects: ['./node.js', './lite/node.js', './worker-thread.js', './worker-thread-node.js'],
    engines: { node: '>=18' },
    exports: EXPORTS,
    types: './context_assembly.d.ts',
    main: './node.js',
    files: readdirSync(STAGING).filter((name) => name !== 'package.json').sort(),
  };
}

rmSync(STAGING, { recursive: true, force: true });
mkdirSync(STAGING, { recursive: true });
cpSync(resolve(ROOT, 'pkg'), STAGING, { recursive: true });
cpSync(resolve(import.meta.dirname, 'entries'), STAGING, { recursive: true });
for (const file of ['CHANGELOG.md', 'LICENSE-MIT', 'LICENSE-APACHE']) cpSync(resolve(ROOT, file), resolve(STAGING, file));
cpSync(resolve(import.meta.dirname, 'README.md'), resolve(STAGING, 'README.md'));
writeFileSync(resolve(STAGING, 'package.json'), `${JSON.stringify(packageJson(), null, 2)}\n`);
rmSync(OUT, { recursive: true, force: true });
renameSync(STAGING, OUT);
console.log(`target/npm: context-assembly ${JSON.parse(readFileSync(resolve(OUT, 'package.json'), 'utf8')).version}`);
