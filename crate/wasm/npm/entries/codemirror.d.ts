// `context-assembly/codemirror`: a prompt editor for CodeMirror 6 over the engine (its peer
// dependencies: @codemirror/state, @codemirror/view and @codemirror/autocomplete).
import type { EditorState, Extension } from '@codemirror/state';
import type * as Full from './context_assembly.js';
import type * as Lite from './lite/context_assembly_lite.js';

/** The engine calls the editor makes: the lite or the full module, once initialised. */
export type EditorEngine = Pick<typeof Lite | typeof Full, 'extractMentionSpans' | 'mentionKinds' | 'atToken' | 'completionInsertion' | 'estimateTokens' | 'FileSearcher'>;

/** Anything that answers a search as `FileSearcher.search` does, at once or as a Promise: a `FileSearcher`, or one in the Worker (`engine.createFileSearcher`). */
export interface PathSearch { search(query: string, options?: Full.SearchOptions): Full.SearchResult | Promise<Full.SearchResult> }
/** Anything that searches a session's workspace as `Session.searchFiles` does: a `Session`, or one in the Worker. */
export interface SessionSearch { searchFiles(query: string, options?: Full.SearchOptions): Full.SearchResult | Promise<Full.SearchResult> }
/** Where `@` completion looks: a path list (relative to the root; a path ending in `/` is a directory), prepared once in a `FileSearcher` on this thread; a searcher; or a session. */
export type FileSource = readonly string[] | PathSearch | SessionSearch;

export interface PromptEditorOptions {
  /** The lite or the full module, initialised (`await init()` in a browser). */
  engine: EditorEngine;
  /** Whose grammar highlights and completes, and whose requests the meter counts as (default `recommended`). */
  profile?: Full.ProfileName;
  /** Where `@` completion looks. */
  files: FileSource;
  /** Paths a bare `@` lists first (most recent first), before the shortest paths. */
  recent?: readonly string[] | (() => readonly string[]);
  /** Rows a completion list shows (default 20). */
  limit?: number;
  /** `false`: no meter panel under the editor (the count is still kept: `tokenCount`, `onTokens`). */
  meter?: boolean;
  /** Told the meter's count when it changes (and once at the start). */
  onTokens?: (tokens: number) => void;
  /** Told the prompt once typing has paused, with a signal that aborts when it changes again: the hook to preview the request it would assemble. */
  preview?: (prompt: string, signal: AbortSignal) => void | Promise<unknown>;
  /** Milliseconds without a change before `preview` is called (default 300). */
  previewDelay?: number;
}

/** Highlighting, `@` completion, the token meter and, with `preview`, the preview hook. */
export function promptEditor(options: PromptEditorOptions): Extension;
/** Mentions marked as the profile reads them: `.cm-mention.cm-mention-<kind>` with `data-mention="<kind>"`. */
export function mentionHighlight(options: Pick<PromptEditorOptions, 'engine' | 'profile'>): Extension;
/** `@` completion from `files`, the insertion the profile reads back. */
export function mentionCompletion(options: Pick<PromptEditorOptions, 'engine' | 'profile' | 'files' | 'recent' | 'limit'>): Extension;
/** The token meter: a panel (`.cm-tokenMeter`) and `onTokens`. */
export function tokenMeter(options: Pick<PromptEditorOptions, 'engine' | 'profile' | 'meter' | 'onTokens'>): Extension;
/** The meter's count in `state`; throws when the editor has no meter. */
export function tokenCount(state: EditorState): number;
/** The preview hook alone. */
export function requestPreview(options: Pick<PromptEditorOptions, 'preview' | 'previewDelay'>): Extension;
