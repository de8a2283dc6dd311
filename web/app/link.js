// The view as a link: scenario, step, profile and tab in the address's fragment, so that a
// link opened in a fresh page shows the same thing. A built-in scenario travels as its id; any
// other as its JSON, deflated and in base64url.
import { integer } from '../format.js';

/**
 * What a link holds. `step` is 0-based here and 1-based in the link, as people count. `pair`
 * is the profiles the Compare tab shows side by side (left, right), when it shows them.
 * @typedef {{ file?: string, text?: string, step?: number, profile?: string, tab?: string, pair?: [string, string] }} LinkState
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
 * The most a link's scenario may inflate to, in bytes: 16 MiB. The teaching scenarios deflate 6
 * to 17 times, so a link at the limit is already an address of 1 to 4 MB (Chromium takes 2 MB);
 * past it a link is a deflate bomb (a 136 KB link can inflate to 100 MB) rather than a scenario,
 * and is refused before it costs the page its memory.
 */
export const LINK_LIMIT = 16 * 1024 * 1024;

/**
 * Compressed bytes handed to the inflater at a time. Deflate expands a byte at most 1,032
 * times, so with the stream's backpressure at most a couple of pieces' output (about 2 MiB)
 * is inflated past the limit before inflating stops.
 */
const PIECE = 1024;

/**
 * A scenario's text, deflated (raw) and in base64url; `undefined` when the text is longer than
 * a link may hold (`LINK_LIMIT`), since such a link would be refused when opened.
 * @param {string} text
 */
export async function packScenario(text) {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length > LINK_LIMIT) return undefined;
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  return toBase64Url(new Uint8Array(await new Response(stream).arrayBuffer()));
}

/**
 * The text `packScenario` packed. Inflated as a stream, a piece at a time, and stopped as soon
 * as it passes `LINK_LIMIT` bytes, so that a bomb is never inflated whole.
 * @param {string} packed
 */
export async function unpackScenario(packed) {
  const bytes = fromBase64Url(packed);
  let at = 0;
  const source = new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) {
        controller.close();
        return;
      }
      controller.enqueue(bytes.slice(at, at + PIECE));
      at += PIECE;
    },
  }, { highWaterMark: 0 });
  const reader = source.pipeThrough(new DecompressionStream('deflate-raw')).getReader();
  const decoder = new TextDecoder();
  let inflated = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    inflated += value.length;
    if (inflated > LINK_LIMIT) {
      await reader.cancel().catch(() => {});
      throw new RangeError(`it inflates to more than a link may hold (16 MiB, ${integer(LINK_LIMIT)} bytes); ` +
        `inflating stopped at ${integer(inflated)} bytes`);
    }
    text += decoder.decode(value, { stream: true });
  }
}

/** What a profile's name may hold in a link; the engine says later whether it knows it. */
const PROFILE_NAME = /^[\w.-]+$/;

/**
 * A fragment for a state: `#tab=…&step=…&profile=…&pair=<left>&pair=<right>&s=<id>` or `…&z=<packed JSON>`; `fits` is
 * false when the text is longer than a link may hold, and the fragment then leaves it out.
 * @param {LinkState} state
 * @returns {Promise<{ fragment: string, fits: boolean }>}
 */
export async function fragmentFor({ file, text, step, profile, tab, pair }) {
  const params = new URLSearchParams();
  if (tab !== undefined && tab !== 'step') params.set('tab', tab);
  if (step !== undefined) params.set('step', String(step + 1));
  if (profile !== undefined && profile !== '') params.set('profile', profile);
  for (const side of pair ?? []) params.append('pair', side);
  let fits = true;
  if (file !== undefined && file !== '') {
    params.set('s', file.replace(/\.json$/, ''));
  } else if (text !== undefined && text !== '') {
    const packed = await packScenario(text);
    if (packed === undefined) fits = false;
    else params.set('z', packed);
  }
  return { fragment: `#${params.toString()}`, fits };
}

/**
 * The state a fragment holds; what it does not say is left out, and a scenario that cannot be
 * unpacked (or inflates past `LINK_LIMIT`) is reported in `problem` instead of thrown.
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
  const pair = params.getAll('pair');
  if (pair.length === 2 && pair.every((name) => PROFILE_NAME.test(name))) state.pair = [pair[0], pair[1]];
  const id = params.get('s');
  if (id !== null && /^[\w.-]+$/.test(id)) state.file = `${id}.json`;
  const packed = params.get('z');
  if (packed !== null) {
    try {
      state.text = await unpackScenario(packed);
    } catch (problem) {
      state.problem = `The link's scenario could not be unpacked: ${problem instanceof Error ? problem.message : String(problem)}.`;
    }
  }
  return state;
}
