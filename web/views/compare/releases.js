// The compare view's release choices: one button per client with more than one release among
// the presets (Claude Code 2.1.88 and 2.1.332, Codex CLI 0.139.0 and 0.171.0), which ticks
// exactly those presets, so two releases of one client show side by side.
import { h } from '../../dom.js';

/** @typedef {{ name: string, client?: string, version?: string }} ProfileRelease */

/** The client's name as people know it. @param {string} client */
const clientName = (client) => (client === 'codex' ? 'Codex CLI' : 'Claude Code');

/**
 * The presets of each client that has several releases, oldest release first.
 * @param {ProfileRelease[]} releases
 * @returns {{ client: string, profiles: ProfileRelease[] }[]}
 */
export function releaseGroups(releases) {
  /** @type {Map<string, ProfileRelease[]>} */
  const byClient = new Map();
  for (const release of releases) {
    if (release.client === undefined || release.version === undefined) continue;
    byClient.set(release.client, [...(byClient.get(release.client) ?? []), release]);
  }
  const older = (/** @type {string} */ a, /** @type {string} */ b) =>
    a.localeCompare(b, 'en', { numeric: true });
  return [...byClient.entries()]
    .filter(([, profiles]) => profiles.length > 1)
    .map(([client, profiles]) => ({
      client,
      profiles: [...profiles].sort((a, b) => older(a.version ?? '', b.version ?? '')),
    }));
}

/**
 * The buttons: each hands `tick` the names of one client's releases.
 * @param {ProfileRelease[]} releases
 * @param {(names: Set<string>) => void} tick
 */
export function releaseButtons(releases, tick) {
  return releaseGroups(releases).map(({ client, profiles }) => {
    const versions = profiles.map((profile) => profile.version).join(' and ');
    const names = new Set(profiles.map((profile) => profile.name));
    const button = h('button', {
      type: 'button',
      class: 'compare-releases',
      'data-client': client,
      title: `Tick only ${[...names].join(' and ')}: what changed between ${clientName(client)}'s releases, on this scenario`,
    }, `${clientName(client)} ${versions}`);
    button.addEventListener('click', () => tick(names));
    return button;
  });
}
