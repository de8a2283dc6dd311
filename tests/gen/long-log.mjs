// A generated Claude Code session log of a given size, for the tests and benches of long
// imports: turns of a prompt, a Read of a 60-line file with the provider's usage, and its result.

/**
 * A Claude Code log of about `megabytes` MB (10^6 bytes).
 * @param {number} megabytes
 */
export function longClaudeLog(megabytes) {
  const lines = [];
  let size = 0;
  for (let turn = 0; size < megabytes * 1e6; turn += 1) {
    const head = (/** @type {string} */ id, /** @type {string | null} */ parent) => ({
      uuid: `t${turn}-${id}`, parentUuid: parent, isSidechain: false, cwd: '/work/big', sessionId: 'long',
      timestamp: new Date(Date.UTC(2025, 11, 1) + turn * 30000).toISOString() });
    const file = `/work/big/src/file${turn % 200}.ts`;
    const content = Array.from({ length: 60 }, (_, line) => `export const value${line} = ${turn % 200} * ${line};\n`).join('');
    const numbered = content.split('\n').slice(0, -1).map((line, i) => `${String(i + 1).padStart(6)}\t${line}\n`).join('');
    const usage = { input_tokens: 1200, cache_creation_input_tokens: 300, cache_read_input_tokens: 40000, output_tokens: 80 };
    for (const line of [
      { type: 'user', ...head('u', turn === 0 ? null : `t${turn - 1}-r`), message: { role: 'user', content: `Turn ${turn}: look at ${file}.` } },
      { type: 'assistant', ...head('a', `t${turn}-u`), message: { id: `m${turn}`, role: 'assistant', content: [{ type: 'tool_use', id: `r${turn}`, name: 'Read', input: { file_path: file } }], usage } },
      { type: 'user', ...head('r', `t${turn}-a`), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `r${turn}`, content: numbered }] },
        toolUseResult: { type: 'text', file: { filePath: file, content, numLines: 61, startLine: 1, totalLines: 61 } } },
    ]) {
      const text = `${JSON.stringify(line)}\n`;
      lines.push(text);
      size += text.length;
    }
  }
  return Buffer.from(lines.join(''));
}
