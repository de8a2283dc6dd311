// The worker's half of the session-log import: the file is read here a slice at a time and
// streamed through a `SessionImport`, so that a log of tens of megabytes costs the page nothing
// but the progress messages, and Cancel (which replaces the worker) stops it at once.

/** @typedef {typeof import('../../pkg/tools/context_assembly_tools.js')} Tools */
/** @typedef {import('../../pkg/tools/context_assembly_tools.js').ImportResult} ImportResult */
/** @typedef {{ onProgress?: (done: number, total: number) => void }} ImportLogOptions */

/** Bytes read and pushed at a time: progress after each, and a bounded copy into the engine. */
const SLICE = 1 << 20;

/**
 * The worker function: `importLog(file, options)`, reporting the bytes read after each slice.
 * @param {() => Promise<Tools>} loadTools the tools module, where `SessionImport` is
 * @param {(slice: Blob) => ArrayBuffer} read reads a slice of the file at once (a worker's
 *   `FileReaderSync`: the engine's call is synchronous, so the reading is too)
 */
export function importLog(loadTools, read) {
  /**
   * @param {Blob} file
   * @param {ImportLogOptions} [options]
   * @returns {Promise<ImportResult>}
   */
  return async (file, options = {}) => {
    const importer = new (await loadTools()).SessionImport();
    try {
      for (let at = 0; at < file.size; at += SLICE) {
        importer.pushChunk(new Uint8Array(read(file.slice(at, at + SLICE))));
        options.onProgress?.(Math.min(at + SLICE, file.size), file.size);
      }
      return importer.finish();
    } finally {
      importer.free();
    }
  };
}
