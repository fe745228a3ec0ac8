import { toPayload, type MenuItem } from '../../lib/menuTree';

/**
 * NEW_PREFIX marks the ids of items the draft added that the server does not have yet: the
 * menu's save (PATCH /menu-items) gives them permanent ids in the same write, so a draft with
 * added items is saved whole or not at all.
 */
const NEW_PREFIX = 'NEW_';

let counter = 0;

/** newMenuItem is '+ Add Menu Item's item, with SPEC's defaults (label 'Link', url '#', custom URL, on), in the draft only. */
export function newMenuItem(): MenuItem {
  counter += 1;
  return { id: `${NEW_PREFIX}${counter}`, label: 'Link', type: 'CUSTOM_URL', url: '#', status: true, position: 0, children: [] };
}

/** sameMenu says whether two trees would save the same (the draft holds no change). */
export function sameMenu(a: MenuItem[], b: MenuItem[]): boolean {
  return JSON.stringify(toPayload(a)) === JSON.stringify(toPayload(b));
}
