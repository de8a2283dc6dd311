// Generated because the long outputs are too big to write out: exec_command outputs of every
// size the truncation cares about — a few bytes, just under the 10,000-token cut, and far over it.
// Each scripted output is exactly what its command prints, since the oracle runs it for real.
const lines = (n) => Array.from({ length: n }, (_, i) => `${i + 1}`).join('\n') + '\n';
// `seq N` prints N numbered lines; 7,000 lines are about 33 KB (under the cut), 20,000 about 109 KB.
export default {
  name: 'Codex lab: exec_command outputs of all sizes',
  description: 'Short, near the limit and over it: the wrapper (exit code, token count, line count) and the middle cut.',
  profile: 'codex',
  cwd: '/repo',
  files: { '/repo/.git/HEAD': 'ref: refs/heads/main\n', '/repo/notes.txt': 'first line\nsecond line\n' },
  steps: [
    { kind: 'user', prompt: 'Show me the notes, then count.' },
    { kind: 'assistant', blocks: [{ type: 'tool_use', id: 'call_cat', name: 'exec_command', input: { cmd: 'cat notes.txt' }, output: 'first line\nsecond line\n' }] },
    { kind: 'assistant', blocks: [{ type: 'tool_use', id: 'call_mid', name: 'exec_command', input: { cmd: 'seq 7000' }, output: lines(7000) }] },
    { kind: 'assistant', blocks: [{ type: 'tool_use', id: 'call_big', name: 'exec_command', input: { cmd: 'seq 20000' }, output: lines(20000) }] },
    { kind: 'assistant', blocks: [{ type: 'text', text: 'Counted to 20,000.' }] },
  ],
};
