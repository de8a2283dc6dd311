// Keeps the address in step with the view (history.replaceState, so Back leaves the page as
// before) and copies it when the reader asks to share.
import { byId } from '../dom.js';
import { integer } from '../format.js';
import { LINK_LIMIT, fragmentFor } from './link.js';
import { copyText } from './scenario-file.js';

/**
 * @param {import('../store.js').ScenarioStore} store
 * @param {import('../views/scenario.js').ScenarioControls} player
 * @param {{ readonly shown: string }} tabs
 * @param {() => [string, string] | undefined} shownPair the profiles Compare shows side by side
 */
export function setUpShare(store, player, tabs, shownPair) {
  const button = byId('share-link', HTMLButtonElement);
  const status = byId('share-status', HTMLOutputElement);
  /** The latest update; a slower earlier one (packing is async) never overwrites it. */
  let latest = Promise.resolve();
  /** Whether the latest address holds the scenario (a text longer than a link may hold is left out). */
  let fits = true;
  let generation = 0;

  function update() {
    generation += 1;
    const mine = generation;
    const state = store.state;
    const builtIn = player.builtIn;
    latest = fragmentFor({
      file: builtIn, text: builtIn === '' ? state.text : undefined, step: player.step, profile: state.profile, tab: tabs.shown,
      pair: tabs.shown === 'compare' ? shownPair() : undefined,
    }).then((link) => {
      if (mine !== generation) return;
      fits = link.fits;
      history.replaceState(null, '', `${location.pathname}${location.search}${link.fragment}`);
      document.body.dataset.linked = String(mine);
    });
    return latest;
  }

  button.addEventListener('click', async () => {
    update();
    await latest;
    if (!fits) {
      status.value = `This scenario is longer than a link may hold (${integer(LINK_LIMIT)} bytes): download it from the Scenario tab instead.`;
      return;
    }
    const copied = await copyText(location.href);
    status.value = copied ? 'Link copied: it opens this scenario, step, profile and tab (and the pair side by side, on Compare).' : 'The page may not write to the clipboard: copy the address bar instead.';
  });
  return { update };
}
