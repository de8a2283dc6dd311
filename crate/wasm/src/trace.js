// A trace crosses shared (every message once; each request as "the first `keep` messages of
// step `base`'s request, then `tail`") and is unfolded here: each step's `turn.request` is an
// enumerable getter that builds the request when it is read, from the same message objects,
// so a trace costs memory in proportion to its steps, while reading it (and
// `JSON.stringify`) sees the full request as before.
export function lazyTrace(shared) {
  const { steps, messages, blockLists } = shared;
  const lists = steps.map((step) => (step.request === undefined ? undefined : step.request.messages));
  function messagesOf(list) {
    const parts = [];
    let limit = list.keep + list.tail.length;
    for (let current = list; current !== undefined && limit > 0;) {
      const fromTail = Math.min(Math.max(0, limit - current.keep), current.tail.length);
      parts.push(current.tail.slice(0, fromTail));
      limit = Math.min(limit, current.keep);
      current = current.base === null ? undefined : lists[current.base];
    }
    const ids = parts.reverse().flat();
    return ids.map((id) => messages[id]);
  }
  for (const step of steps) {
    const request = step.request;
    delete step.request;
    if (request === undefined) continue;
    Object.defineProperty(step.turn, 'request', {
      enumerable: true,
      configurable: true,
      get() {
        return {
          system: blockLists[request.system],
          tools: blockLists[request.tools],
          userContext: blockLists[request.userContext],
          userContextAt: request.userContextAt,
          messages: messagesOf(request.messages),
          tokens: request.tokens,
          window: request.window,
        };
      },
    });
  }
  return shared.cacheAccount === undefined ? { steps } : { steps, cacheAccount: shared.cacheAccount };
}
