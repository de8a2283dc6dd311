// Assembles the npm package `context-assembly` in target/npm/ (`make package`): the wasm-bindgen
// output in pkg/, the entries per runtime in entries/, a README (this folder's, then the editor
// guide: the root README's section "Use it in your editor", so the guide has one source and
// ships with the package), the root's CHANGELOG and licences, and a package.json whose version
// is crate/Cargo.toml's. The package is built in a staging folder and moved into place whole.
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
// of their own (pkg/lite/, entries/lite/). Every entry has types, the raw modules and the worker
// scripts included (tests/package type-checks an import of each under `tsc --strict`).
const EXPORTS = {
  // The session engine, with the tools as async functions that load their module (tools/) on
  // first use.
  '.': {
    types: './index.d.ts',
    node: './node.js',
    browser: './index.js',
    default: './index.js',
  },
  './worker': {
    types: './worker.d.ts',
    node: './worker-node.js',
    default: './worker.js',
  },
  // The worker scripts, for a host whose bundler moves them (`createWorkerEngine({ workerUrl })`).
  './worker-thread': {
    types: './worker-thread.d.ts',
    node: './worker-thread-node.js',
    default: './worker-thread.js',
  },
  // The CodeMirror 6 prompt editor; CodeMirror is a peer dependency.
  './codemirror': {
    types: './codemirror.d.ts',
    default: './codemirror.js',
  },
  './lite': {
    types: './lite/context_assembly_lite.d.ts',
    node: './lite/node.js',
    browser: './lite/context_assembly_lite.js',
    default: './lite/context_assembly_lite.js',
  },
  './lite/wasm': { types: './wasm.d.ts', default: './lite/context_assembly_lite_bg.wasm' },
  './wasm': { types: './wasm.d.ts', default: './context_assembly_bg.wasm' },
  './tools/wasm': { types: './wasm.d.ts', default: './tools/context_assembly_tools_bg.wasm' },
  './package.json': './package.json',
};

/** CodeMirror's packages the editor entry imports: the major version it is written for. */
const PEERS = { '@codemirror/autocomplete': '^6.0.0', '@codemirror/state': '^6.0.0', '@codemirror/view': '^6.0.0' };

/**
 * The package README: this folder's, then the editor guide, the root README's section "Use it
 * in your editor" (to the next `## ` heading).
 */
function readme() {
  const intro = readFileSync(resolve(import.meta.dirname, 'README.md'), 'utf8');
  const root = readFileSync(resolve(ROOT, 'README.md'), 'utf8');
  const start = root.indexOf('\n## Use it in your editor\n');
  const end = root.indexOf('\n## ', start + 1);
  if (start === -1 || end === -1) throw new Error('README.md has no section "Use it in your editor"');
  return `${intro}${root.slice(start, end + 1)}`;
}

function packageJson() {
  return {
    name: 'context-assembly',
    version: tomlString('crate/Cargo.toml', 'package', 'version'),
    description: tomlString('crate/Cargo.toml', 'package', 'description'),
    license: tomlString('Cargo.toml', 'workspace.package', 'license'),
    keywords: ['context', 'llm', 'coding-agent', 'claude-code', 'codex', 'compaction', 'wasm'],
    type: 'module',
    // The Node entry instantiates the module when imported: a bundler must keep it (and the
    // worker scripts, which are entry points of their own) even when no export looks used.
    sideEffects: ['./node.js', './lite/node.js', './worker-thread.js', './worker-thread-node.js'],
    engines: { node: '>=18' },
    exports: EXPORTS,
    // Only `context-assembly/codemirror` imports them: optional, so nobody else installs them.
    peerDependencies: PEERS,
    peerDependenciesMeta: Object.fromEntries(Object.keys(PEERS).map((name) => [name, { optional: true }])),
    types: './index.d.ts',
    main: './node.js',
    files: readdirSync(STAGING).filter((name) => name !== 'package.json').sort(),
  };
}

rmSync(STAGING, { recursive: true, force: true });
mkdirSync(STAGING, { recursive: true });
cpSync(resolve(ROOT, 'pkg'), STAGING, { recursive: true });
cpSync(resolve(import.meta.dirname, 'entries'), STAGING, { recursive: true });
for (const file of ['CHANGELOG.md', 'LICENSE-MIT', 'LICENSE-APACHE']) cpSync(resolve(ROOT, file), resolve(STAGING, file));
writeFileSync(resolve(STAGING, 'README.md'), readme());
writeFileSync(resolve(STAGING, 'package.json'), `${JSON.stringify(packageJson(), null, 2)}\n`);
rmSync(OUT, { recursive: true, force: true });
renameSync(STAGING, OUT);
console.log(`target/npm: context-assembly ${JSON.parse(readFileSync(resolve(OUT, 'package.json'), 'utf8')).version}`);
