// Generated because the documents are too big to write out: AGENTS.md files that together pass
// the 32 KiB budget, so the root's is kept whole, the nested one cut, and the cwd's left out.
const doc = (label, bytes) => `${label}\n${'x'.repeat(bytes - label.length - 2)}\n`;
export default {
  name: 'Codex lab: the AGENTS.md budget',
  description: 'Root 20,000 bytes, nested 20,000 bytes, cwd 100 bytes: the budget of 32,768 bytes ends inside the nested document.',
  profile: 'codex',
  cwd: '/repo/a/b',
  files: {
    '/repo/.git/HEAD': 'ref: refs/heads/main\n',
    '/repo/AGENTS.md': doc('root rules', 20_000),
    '/repo/a/AGENTS.md': doc('nested rules', 20_000),
    '/repo/a/b/AGENTS.md': doc('cwd rules', 100),
  },
  steps: [
    { kind: 'user', prompt: 'Which rules apply?' },
    { kind: 'assistant', blocks: [{ type: 'text', text: 'Two of them.' }] },
  ],
};
