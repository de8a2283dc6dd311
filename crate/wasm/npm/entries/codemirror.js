// A prompt editor for CodeMirror 6 over the engine: mentions highlighted as the profile reads
// them, `@` completion from a path list, a FileSearcher (on this thread or in the Worker) or a
// Session, a token meter that counts as the profile's requests count, and a hook that is told
// the prompt once typing pauses (to preview the request it would assemble). The engine is the
// host's: the lite or the full module, initialised. Nothing here re-implements an engine rule:
// spans, the `@` token, the search, the insertion and the count are the engine's answers.
import { autocompletion } from '@codemirror/autocomplete';
import { EditorState, Facet, RangeSetBuilder, StateField } from '@codemirror/state';
import { Decoration, EditorView, ViewPlugin, showPanel } from '@codemirror/view';

/**
 * @typedef {import('./codemirror.js').PromptEditorOptions} PromptEditorOptions
 * @typedef {import('./codemirror.js').EditorEngine} EditorEngine
 * @typedef {import('./codemirror.js').FileSource} FileSource
 * @typedef {import('./context_assembly.js').SearchResult} SearchResult
 * @typedef {import('./context_assembly.js').SearchMatch} SearchMatch
 * @typedef {import('./context_assembly.js').MentionKind} MentionKind
 * @typedef {import('@codemirror/state').Extension} Extension
 * @typedef {import('@codemirror/autocomplete').Completion} Completion
 * @typedef {import('@codemirror/autocomplete').CompletionContext} CompletionContext
 * @typedef {import('@codemirror/autocomplete').CompletionResult} CompletionResult
 */

/** Rows a completion list shows by default (the engine's own default). */
const DEFAULT_LIMIT = 20;

/** Milliseconds without typing before the preview hook is told the prompt. */
const DEFAULT_PREVIEW_DELAY = 300;

/**
 * Everything the prompt editor needs: highlighting, completion, the meter and, with
 * `options.preview`, the preview hook.
 * @param {PromptEditorOptions} options
 * @returns {Extension}
 */
export function promptEditor(options) {
  return [
    mentionHighlight(options),
    mentionCompletion(options),
    tokenMeter(options),
    options.preview === undefined ? [] : requestPreview(options),
  ];
}

/**
 * Marks every mention as the profile's grammar reads it: a `cm-mention` span with the class
 * `cm-mention-<kind>` and a `data-mention` attribute naming the kind (`file`, `mcpResource`,
 * `agent`). The spans are the engine's `extractMentionSpans`, sorted and disjoint, in UTF-16
 * offsets, which are CodeMirror's positions.
 * @param {Pick<PromptEditorOptions, 'engine' | 'profile'>} options
 * @returns {Extension}
 */
export function mentionHighlight({ engine, profile }) {
  const marks = engine.mentionKinds().map((kind) => Decoration.mark({
    class: `cm-mention cm-mention-${kind}`,
    attributes: { 'data-mention': kind },
  }));
  /** @param {EditorState} state */
  const decorate = (state) => {
    const spans = engine.extractMentionSpans(state.doc.toString(), { profile });
    /** @type {RangeSetBuilder<Decoration>} */
    const builder = new RangeSetBuilder();
    for (let i = 0; i < spans.length; i += 3) builder.add(spans[i], spans[i + 1], marks[spans[i + 2]]);
    return builder.finish();
  };
  const plugin = ViewPlugin.define((view) => ({
    decorations: decorate(view.state),
    /** @param {import('@codemirror/view').ViewUpdate} update */
    update(update) {
      if (update.docChanged) this.decorations = decorate(update.state);
    },
  }), { decorations: (value) => value.decorations });
  return [plugin, MENTION_THEME];
}

const MENTION_THEME = EditorView.baseTheme({
  '.cm-mention': { borderRadius: '3px' },
  '&light .cm-mention-file': { backgroundColor: '#dbeafe', color: '#1e3a8a' },
  '&light .cm-mention-mcpResource': { backgroundColor: '#dcfce7', color: '#14532d' },
  '&light .cm-mention-agent': { backgroundColor: '#fae8ff', color: '#701a75' },
  '&dark .cm-mention-file': { backgroundColor: '#1e3a8a', color: '#dbeafe' },
  '&dark .cm-mention-mcpResource': { backgroundColor: '#14532d', color: '#dcfce7' },
  '&dark .cm-mention-agent': { backgroundColor: '#701a75', color: '#fae8ff' },
  '.cm-tokenMeter': { padding: '2px 8px', fontVariantNumeric: 'tabular-nums' },
});

/**
 * `@` completion: on the `@` token under the caret (the engine's `atToken`), the best matches
 * of `options.files` for what follows it, best first; a bare `@` lists `options.recent` first,
 * then the shortest paths. Accepting one writes the engine's `completionInsertion` for the
 * profile: a mention its grammar reads back as that path (quoted or escaped where needed), or
 * the plain path for a profile that does not attach mentioned files. Results show in the
 * order they were typed: a search answered after a later one is dropped.
 * @param {Pick<PromptEditorOptions, 'engine' | 'profile' | 'files' | 'recent' | 'limit'>} options
 * @returns {Extension}
 */
export function mentionCompletion({ engine, profile, files, recent, limit = DEFAULT_LIMIT }) {
  const search = searchOf(engine, files);
  let asked = 0;
  let shown = 0;
  /**
   * @param {CompletionContext} context
   * @returns {Promise<CompletionResult | null>}
   */
  const source = async (context) => {
    const line = context.state.doc.lineAt(context.pos);
    const token = engine.atToken(line.text, context.pos - line.from);
    if (token === null) return null;
    const ticket = ++asked;
    const result = await search(token.query, { limit });
    if (result === undefined || context.aborted || ticket < shown) return null;
    shown = ticket;
    const matches = token.query === '' ? withRecent(result.matches, recentPaths(recent), limit) : result.matches;
    return {
      from: line.from + token.start,
      to: line.from + token.end,
      filter: false,
      options: matches.map((match) => completion(engine, profile, match)),
      getMatch: (option) => ranges(/** @type {PathCompletion} */ (option).indices),
    };
  };
  return [autocompletion(), EditorState.languageData.of(() => [{ autocomplete: source }])];
}

/**
 * @typedef {Completion & { indices: number[] }} PathCompletion
 */

/**
 * @param {EditorEngine} engine
 * @param {PromptEditorOptions['profile']} profile
 * @param {SearchMatch} match
 * @returns {PathCompletion}
 */
function completion(engine, profile, match) {
  return {
    label: match.path,
    type: match.kind === 'directory' ? 'folder' : 'file',
    apply: engine.completionInsertion(match.path, undefined, { profile }),
    indices: match.indices,
  };
}

/**
 * Matched positions as CodeMirror's ranges `[from, to, from, to, …]` (UTF-16, as the engine
 * gives them), consecutive positions joined.
 * @param {number[]} indices
 */
function ranges(indices) {
  /** @type {number[]} */
  const out = [];
  for (const index of indices) {
    if (out.length > 0 && out[out.length - 1] === index) out[out.length - 1] = index + 1;
    else out.push(index, index + 1);
  }
  return out;
}

/** @param {PromptEditorOptions['recent']} recent @returns {readonly string[]} */
function recentPaths(recent) {
  if (recent === undefined) return [];
  return typeof recent === 'function' ? recent() : recent;
}

/**
 * The recent paths first (as matches of score 0), then the listing, each path once.
 * @param {SearchMatch[]} listed @param {readonly string[]} recent @param {number} limit
 * @returns {SearchMatch[]}
 */
function withRecent(listed, recent, limit) {
  const first = recent.slice(0, limit).map((path) => listed.find((match) => match.path === path)
    ?? { path, kind: /** @type {const} */ ('file'), score: 0, indices: [] });
  const seen = new Set(first.map((match) => match.path));
  return [...first, ...listed.filter((match) => !seen.has(match.path))].slice(0, limit);
}

/**
 * One way to search whatever the host gave: a path list (prepared once in a FileSearcher on
 * this thread), a FileSearcher (here or in the Worker) or a Session (here or in the Worker).
 * Searches run one at a time, in order; while one runs, only the latest query waits (the one
 * it replaced is answered `undefined`), so a slow source never builds a queue of stale
 * keystrokes. A search that throws is answered `undefined` too: no list, and typing goes on.
 * @param {EditorEngine} engine
 * @param {FileSource} files
 * @returns {(query: string, options: { limit: number }) => Promise<SearchResult | undefined>}
 */
function searchOf(engine, files) {
  /** @type {(query: string, options: { limit: number }) => SearchResult | Promise<SearchResult>} */
  let ask;
  if (isPathList(files)) {
    /** @type {InstanceType<EditorEngine['FileSearcher']> | undefined} */
    let searcher;
    ask = (query, options) => (searcher ??= new engine.FileSearcher([...files])).search(query, options);
  } else if ('search' in files) {
    ask = (query, options) => files.search(query, options);
  } else {
    ask = (query, options) => files.searchFiles(query, options);
  }
  /** @type {Promise<unknown>} */
  let running = Promise.resolve();
  /** @type {{ query: string, options: { limit: number }, resolve: (result: SearchResult | undefined) => void } | undefined} */
  let waiting;
  return (query, options) => new Promise((resolve) => {
    if (waiting !== undefined) {
      // A newer keystroke takes the place of the one that waited, which gets no answer.
      waiting.resolve(undefined);
      waiting = { query, options, resolve };
      return;
    }
    waiting = { query, options, resolve };
    running = running.then(async () => {
      const next = /** @type {NonNullable<typeof waiting>} */ (waiting);
      waiting = undefined;
      try {
        next.resolve(await ask(next.query, next.options));
      } catch {
        next.resolve(undefined);
      }
    });
  });
}

/**
 * Whether `files` is a path list (`Array.isArray` does not narrow a readonly array's type).
 * @param {FileSource} files
 * @returns {files is readonly string[]}
 */
function isPathList(files) {
  return Array.isArray(files);
}

/**
 * What the meter counts with: the engine and the profile (a Facet, so the one field below
 * serves any editor and follows a reconfiguration).
 * @type {import('@codemirror/state').Facet<Pick<PromptEditorOptions, 'engine' | 'profile'>, Pick<PromptEditorOptions, 'engine' | 'profile'> | undefined>}
 */
const meterConfig = Facet.define({ combine: (values) => values[0] });

/** @param {EditorState} state */
const countTokens = (state) => {
  const config = state.facet(meterConfig);
  return config === undefined ? 0 : config.engine.estimateTokens(state.doc.toString(), { profile: config.profile });
};

/** The tokens the profile's requests count for the prompt, recounted on every change. */
const tokenField = StateField.define({
  create: countTokens,
  update: (count, transaction) => transaction.docChanged
    || transaction.startState.facet(meterConfig) !== transaction.state.facet(meterConfig)
    ? countTokens(transaction.state) : count,
});

/**
 * The token meter: the engine's `estimateTokens(prompt, { profile })`, what the profile's
 * requests count for the prompt, recounted on every change; shown in a panel under the editor
 * (`.cm-tokenMeter`, unless `meter: false`), told to `options.onTokens` when it changes, and
 * read with `tokenCount(state)`.
 * @param {Pick<PromptEditorOptions, 'engine' | 'profile' | 'meter' | 'onTokens'>} options
 * @returns {Extension}
 */
export function tokenMeter(options) {
  const label = (/** @type {number} */ count) => `${count.toLocaleString('en')} ${count === 1 ? 'token' : 'tokens'} (${options.profile ?? 'recommended'})`;
  /** @type {Extension[]} */
  const parts = [meterConfig.of({ engine: options.engine, profile: options.profile }), tokenField];
  if (options.meter !== false) {
    parts.push(showPanel.of((view) => {
      const dom = document.createElement('div');
      dom.className = 'cm-tokenMeter';
      dom.setAttribute('aria-live', 'polite');
      dom.textContent = label(view.state.field(tokenField));
      return {
        dom,
        update: (update) => {
          const count = update.state.field(tokenField);
          if (count !== update.startState.field(tokenField, false)) dom.textContent = label(count);
        },
      };
    }));
  }
  const onTokens = options.onTokens;
  if (onTokens !== undefined) {
    parts.push(ViewPlugin.define((view) => {
      onTokens(view.state.field(tokenField));
      return {
        /** @param {import('@codemirror/view').ViewUpdate} update */
        update(update) {
          const count = update.state.field(tokenField);
          if (count !== update.startState.field(tokenField, false)) onTokens(count);
        },
      };
    }));
  }
  return parts;
}

/**
 * The meter's count in `state`: the tokens the profile's requests count for the prompt.
 * @param {EditorState} state
 * @returns {number}
 */
export function tokenCount(state) {
  const count = state.field(tokenField, false);
  if (count === undefined) throw new Error('tokenCount: this editor has no token meter (promptEditor or tokenMeter)');
  return count;
}

/**
 * The preview hook: once typing has paused for `previewDelay` ms (default 300), `preview` is
 * called with the prompt and an `AbortSignal` that aborts when the prompt changes again.
 * What it does is the host's: run the prompt on a copy of the session (in the Worker,
 * `Session.restore` of a snapshot, then `submitFigures`) and show the request it assembled.
 * @param {Pick<PromptEditorOptions, 'preview' | 'previewDelay'>} options
 * @returns {Extension}
 */
export function requestPreview({ preview, previewDelay = DEFAULT_PREVIEW_DELAY }) {
  if (preview === undefined) return [];
  return ViewPlugin.define((view) => {
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    /** @type {AbortController | undefined} */
    let current;
    const schedule = () => {
      clearTimeout(timer);
      current?.abort();
      timer = setTimeout(() => {
        current = new AbortController();
        void Promise.resolve(preview(view.state.doc.toString(), current.signal)).catch(() => {});
      }, previewDelay);
    };
    schedule();
    return {
      /** @param {import('@codemirror/view').ViewUpdate} update */
      update(update) {
        if (update.docChanged) schedule();
      },
      destroy() {
        clearTimeout(timer);
        current?.abort();
      },
    };
  });
}
