// The package as an embedder gets it: target/npm (built by `make package`) packed with
// `npm pack`, and the tarball installed offline into a fresh temporary project.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');
export const BIN = resolve(ROOT, 'node_modules/.bin');

/**
 * CodeMirror's packages (the editor entry's peer dependencies) and theirs, as the project's
 * own devDependencies installed them: linked into the temporary project, as an embedder would
 * have installed them beside the package, without a registry.
 */
const PEERS = ['@codemirror', '@lezer', '@marijn', 'crelt', 'style-mod', 'w3c-keyname'];

/**
 * Packs the package and installs it into a temporary project, CodeMirror beside it;
 * `remove()` deletes both.
 * @returns {{ dir: string, packed: { files: { path: string }[], version: string }, remove(): void }}
 */
export function installedProject() {
  const base = mkdtempSync(join(tmpdir(), 'ca-package-'));
  const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', base, resolve(ROOT, 'target/npm')], { encoding: 'utf8' }))[0];
  const dir = join(base, 'project');
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', join(base, packed.filename)], { cwd: dir });
  for (const name of PEERS) symlinkSync(resolve(ROOT, 'node_modules', name), join(dir, 'node_modules', name));
  return { dir, packed, remove: () => rmSync(base, { recursive: true, force: true }) };
}

/**
 * Runs a file with Node in the project and returns its standard output.
 * @param {string} dir
 * @param {string} name
 * @param {string} code
 */
export function runInProject(dir, name, code) {
  writeFileSync(join(dir, name), code);
  return execFileSync(process.execPath, [name], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * The code blocks of the editor guide in the README the installed package ships, with their
 * info string (`js`: Node ESM; `js cjs`: Node CommonJS; `js browser`: a page; `js esbuild`: a
 * page, bundled).
 * @param {string} dir the project
 */
export function readmeExamples(dir) {
  const readme = readFileSync(join(dir, 'node_modules/context-assembly/README.md'), 'utf8');
  const start = readme.indexOf('\n## Use it in your editor\n');
  if (start === -1) throw new Error('the package README has no section "Use it in your editor"');
  return [...readme.slice(start).matchAll(/```(js[^\n]*)\n([\s\S]*?)```/g)]
    .map(([, info, code]) => ({ kind: info.trim(), code }));
}

/**
 * Bundles `entry` (a file in the project) with esbuild into `outdir`.
 * @param {string} dir
 * @param {string} entry
 * @param {string[]} flags
 */
export function esbuild(dir, entry, flags) {
  execFileSync(join(BIN, 'esbuild'), [entry, '--bundle', '--format=esm', '--log-level=warning', ...flags], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
}
