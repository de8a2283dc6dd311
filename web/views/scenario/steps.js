// One line per scenario step, saying what happened in words a reader can scan.

/** @typedef {import('../../../pkg/context_assembly.js').ScenarioStep} ScenarioStep */
/** @typedef {import('../../../pkg/context_assembly.js').AssistantStepBlock} AssistantStepBlock */
/** @typedef {import('../../../pkg/context_assembly.js').Json} Json */

const LIMIT = 90;

/** @param {string} text */
function short(text) {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > LIMIT ? `${line.slice(0, LIMIT - 1)}…` : line;
}

/**
 * A path as the reader thinks of it: relative to the project when it is inside it.
 * @param {string} path
 */
const shortPath = (path) => path.replace(/^\/project\//, '');

/**
 * The argument that identifies a tool call: its path, command or pattern.
 * @param {{ [key: string]: Json }} input
 */
function argumentOf(input) {
  for (const key of ['file_path', 'path', 'notebook_path', 'command', 'pattern', 'url', 'query', 'skill', 'description']) {
    const value = input[key];
    if (typeof value === 'string') return key.endsWith('path') ? shortPath(value) : short(value);
  }
  return '';
}

/** @param {AssistantStepBlock} block */
function blockSummary(block) {
  switch (block.type) {
    case 'text': return `says “${short(block.text)}”`;
    case 'thinking': return 'thinks';
    case 'tool_use': {
      const verdict = block.approval === undefined ? ''
        : block.approval.approved ? ' (approved)'
          : block.approval.feedback === undefined ? ' (rejected)' : ' (rejected with feedback)';
      return `${block.name}(${argumentOf(block.input)})${verdict}`;
    }
  }
}

/** @param {number} ms */
function duration(ms) {
  const units = /** @type {const} */ ([['day', 86_400_000], ['h', 3_600_000], ['min', 60_000], ['s', 1000]]);
  for (const [unit, size] of units) {
    if (ms >= size && ms % size === 0) return `${ms / size} ${unit}${unit === 'day' && ms !== size ? 's' : ''}`;
  }
  return `${ms} ms`;
}

/**
 * What a step did, in one line.
 * @param {ScenarioStep} step
 */
export function stepSummary(step) {
  switch (step.kind) {
    case 'user': return `“${short(step.prompt)}”${step.memories?.length ? ` + ${step.memories.length} memories` : ''}`;
    case 'assistant': {
      const calls = step.blocks.filter((block) => block.type === 'tool_use');
      return short((calls.length > 0 ? calls : step.blocks).map(blockSummary).join(', '));
    }
    case 'writeFile': return `user writes ${shortPath(step.path)} outside the agent`;
    case 'deleteFile': return `user deletes ${shortPath(step.path)}`;
    case 'rename': return `user renames ${shortPath(step.from)} → ${shortPath(step.to)}`;
    case 'touch': return `user touches ${shortPath(step.path)} (same bytes, new time)`;
    case 'setMode': return `permission mode → ${step.mode}`;
    case 'ide': {
      const parts = [];
      if (step.selection !== undefined) parts.push(step.selection === null ? 'selection cleared' : `selects ${step.selection.lineCount} lines of ${shortPath(step.selection.path)}`);
      if (step.openedFile !== undefined) parts.push(step.openedFile === null ? 'no file open' : `opens ${shortPath(step.openedFile)}`);
      return `IDE: ${parts.join(', ') || 'no change'}`;
    }
    case 'diagnostics': {
      const count = step.files.reduce((n, file) => n + file.items.length, 0);
      return `${count} diagnostics in ${step.files.map((file) => shortPath(file.path)).join(', ')}`;
    }
    case 'advanceTime': return `time passes: ${duration(step.ms)}`;
    case 'registry': {
      const parts = [];
      if (step.skills) parts.push(`${step.skills.length} skills`);
      if (step.agents) parts.push(`${step.agents.length} agents`);
      if (step.mcpServers) parts.push(`${step.mcpServers.length} MCP servers`);
      if (step.deferredTools) parts.push(`${step.deferredTools.length} deferred tools`);
      return `registry now has ${parts.join(', ') || 'nothing new'}`;
    }
    case 'queueCommand': return `queued: “${short(step.prompt)}”`;
    case 'criticalReminder': return step.text === null ? 'critical reminder cleared' : `critical reminder “${short(step.text)}”`;
    case 'usage': {
      const parts = [];
      if (step.spentUsdCents !== undefined) parts.push(`$${(step.spentUsdCents / 100).toFixed(2)} spent`);
      if (step.outputTokens !== undefined) parts.push(`${step.outputTokens} output tokens`);
      return `usage: ${parts.join(', ')}`;
    }
    case 'taskStatus': return `task ${step.taskId} ${step.status}: ${short(step.description)}`;
    // A kind added to the engine after this view still gets a line.
    default: return short(JSON.stringify(step));
  }
}
