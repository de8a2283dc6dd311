// Keeps the address in step with the view (history.replaceState, so Back leaves the page as
// before) and copies it when the reader asks to share.
import { byId } from '../dom.js';
import { fragmentFor } from './link.js';
import { copyText } from './scenario-file.js';

/**
 * @param {import('../store.js').ScenarioStore} store
 * @param {import('../views/scenario.js').ScenarioControls} player
 * @param {{ readonly shown: string }} tabs
 */
export function setUpShare(store, player, tabs) {
  const button = byId('share-link', HTMLButtonElement);
  const status = byId('share-status', HTMLOutputElement);
  /** The latest update; a slower earlier one (packing is async) never overwrites it. */
  let latest = Promise.resolve();
  let generation = 0;

  function update() {
    generation += 1;
    const mine = generation;
    const state = store.state;
    const builtIn = player.builtIn;
    latest = fragmentFor({
      file: builtIn, text: builtIn === '' ? state.text : undefined, step: player.step, profile: state.profile, tab: tabs.shown,
    }).then((fragment) => {
      if (mine !== generation) return;
      history.replaceState(null, '', `${location.pathname}${location.search}${fragment}`);
      document.body.dataset.linked = String(mine);
    });
    return latest;
  }

  button.addEventListener('click', async () => {
    update();
    await latest;
    const copied = await copyText(location.href);
    status.value = copied ? 'Link copied: it opens this scenario, step, profile and tab.' : 'The page may not write to the clipboard: copy the address bar instead.';
  });
  return { update };
}
