// The view as a link: scenario, step, profile and tab in the address's fragment, so that a
// link opened in a fresh page shows the same thing. A built-in scenario travels as its id; any
// other as its JSON, deflated and in base64url.

/**
 * What a link holds. `step` is 0-based here and 1-based in the link, as people count.
 * @typedef {{ file?: string, text?: string, step?: number, profile?: string, tab?: string }} LinkState
 */

/**
 * Bytes as base64url without padding.
 * @param {Uint8Array} bytes
 */
function toBase64Url(bytes) {
  let binary = '';
  for (let at = 0; at < bytes.length; at += 0x8000) binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * base64url (padded or not) as bytes.
 * @param {string} text
 */
function fromBase64Url(text) {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/**
 * Runs bytes through a compression or decompression stream.
 * @param {Uint8Array<ArrayBuffer>} bytes
 * @param {CompressionStream | DecompressionStream} transform
 */
async function through(bytes, transform) {
  const stream = new Blob([bytes]).stream().pipeThrough(transform);
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * A scenario's text, deflated (raw) and in base64url.
 * @param {string} text
 */
export async function packScenario(text) {
  return toBase64Url(await through(new TextEncoder().encode(text), new CompressionStream('deflate-raw')));
}

/**
 * The text `packScenario` packed.
 * @param {string} packed
 */
export async function unpackScenario(packed) {
  return new TextDecoder().decode(await through(fromBase64Url(packed), new DecompressionStream('deflate-raw')));
}

/**
 * A fragment for a state: `#tab=…&step=…&profile=…&s=<id>` or `…&z=<packed JSON>`.
 * @param {LinkState} state
 */
export async function fragmentFor({ file, text, step, profile, tab }) {
  const params = new URLSearchParams();
  if (tab !== undefined && tab !== 'step') params.set('tab', tab);
  if (step !== undefined) params.set('step', String(step + 1));
  if (profile !== undefined && profile !== '') params.set('profile', profile);
  if (file !== undefined && file !== '') params.set('s', file.replace(/\.json$/, ''));
  else if (text !== undefined && text !== '') params.set('z', await packScenario(text));
  return `#${params.toString()}`;
}

/**
 * The state a fragment holds; what it does not say is left out, and a scenario that cannot be
 * unpacked is reported instead of thrown.
 * @param {string} fragment `location.hash`
 * @returns {Promise<LinkState & { problem?: string }>}
 */
export async function stateOf(fragment) {
  const params = new URLSearchParams(fragment.replace(/^#/, ''));
  /** @type {LinkState & { problem?: string }} */
  const state = {};
  const tab = params.get('tab');
  if (tab !== null) state.tab = tab;
  const step = Number(params.get('step'));
  if (Number.isInteger(step) && step >= 1) state.step = step - 1;
  const profile = params.get('profile');
  if (profile !== null) state.profile = profile;
  const id = params.get('s');
  if (id !== null && /^[\w.-]+$/.test(id)) state.file = `${id}.json`;
  const packed = params.get('z');
  if (packed !== null) {
    try {
      state.text = await unpackScenario(packed);
    } catch (problem) {
      state.problem = `The link's scenario could not be unpacked (${problem instanceof Error ? problem.message : String(problem)}); the first teaching scenario is shown instead.`;
    }
  }
  return state;
}
