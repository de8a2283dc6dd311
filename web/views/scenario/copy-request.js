// "Copy as API request": the request on screen as the JSON body the provider's API would
// receive (the engine's `toApiRequest`), put on the clipboard; when the page may not write
// to the clipboard, the text is shown selected in a dialog to copy by hand.
import { byId, messageOf } from '../../dom.js';
import { withEngine } from '../../engine.js';

/** @typedef {import('../../../pkg/context_assembly.js').Request} Request */
/** @typedef {import('../../../pkg/context_assembly.js').ApiName} ApiName */

/**
 * The API a profile's client calls: Codex the Responses API, the others the Messages API.
 * @param {string} profile
 * @returns {ApiName}
 */
export function defaultApi(profile) {
  return profile === 'codex' || profile.startsWith('codex-') ? 'openai-responses' : 'anthropic-messages';
}

/**
 * Wires the button, the API choice, the status line and the fallback dialog.
 * @param {{ request: () => { request: Request, from: number } | undefined }} shown
 *   the request on screen and the step that sent it
 * @returns {{ profileChanged: (profile: string) => void }} to call when the replay's
 *   profile is known: the API choice follows it
 */
export function setUpCopyRequest(shown) {
  const button = byId('scenario-copy-api', HTMLButtonElement);
  const api = byId('scenario-api', HTMLSelectElement);
  const status = byId('scenario-copy-status', HTMLOutputElement);
  const dialog = byId('scenario-api-dialog', HTMLDialogElement);
  const text = byId('scenario-api-text', HTMLTextAreaElement);
  /** The replay's profile: a Claude Code release's adds its own body fields. */
  let replayed = /** @type {string | undefined} */ (undefined);

  /** Shows `body` selected in the dialog, for Ctrl+C. @param {string} body */
  function showForCopying(body) {
    text.value = body;
    if (!dialog.open) dialog.showModal();
    text.focus();
    text.select();
  }

  async function copy() {
    const current = shown.request();
    if (current === undefined) {
      status.textContent = 'No request to copy: this step sends none, and none was sent before it.';
      return;
    }
    const name = /** @type {ApiName} */ (api.value);
    let body;
    try {
      const options = { api: name, ...(replayed ? { profile: /** @type {import('../../../pkg/context_assembly.js').ProfileName} */ (replayed) } : {}) };
      body = JSON.stringify(withEngine((engine) => engine.toApiRequest(current.request, options)), null, 2);
    } catch (problem) {
      status.textContent = `The request could not be exported: ${messageOf(problem)}`;
      return;
    }
    const what = `the request of step ${current.from + 1} as an ${name} body (${body.length.toLocaleString('en-US')} characters)`;
    try {
      await navigator.clipboard.writeText(body);
      status.dataset.copied = 'clipboard';
      status.textContent = `Copied ${what}.`;
    } catch {
      // No clipboard (an insecure origin, a refused permission): the text, selected.
      status.dataset.copied = 'dialog';
      status.textContent = `The clipboard refused ${what}: it is selected in the dialog, copy it with Ctrl+C (⌘C).`;
      showForCopying(body);
    }
  }

  button.addEventListener('click', () => void copy());
  return {
    profileChanged(profile) {
      replayed = profile;
      api.value = defaultApi(profile);
    },
  };
}
