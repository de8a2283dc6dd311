// What both mock APIs answer with: JSON bodies, server-sent event streams, and a rough token
// count. Each client only uses the counts to decide on compaction and to show the context
// left, so a session stays far below any threshold unless its scenario asks for one.

/** About a token per four characters, never 0. @param {string} text */
export function roughTokens(text) {
  return Math.max(1, Math.round(text.length / 4));
}

/** A JSON answer. @param {import('node:http').ServerResponse} res @param {number} status @param {unknown} value */
export function answerJson(res, status, value) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

/**
 * Opens an event stream and returns its writer: each event names its type in the `event:`
 * line and again as the data's `type`, as both APIs do.
 * @param {import('node:http').ServerResponse} res
 */
export function eventStream(res) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  return (/** @type {string} */ type, /** @type {object} */ data) =>
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
}
