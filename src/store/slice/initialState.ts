/** The slice's initial value (docs/store.md, "The slice"). */

import { createDict } from '../../base/dict.js';
import type { CacheState } from '../../base/state.js';

export function initialState(lastReset = 0): CacheState {
  return { entities: createDict(), entitiesMeta: createDict(), endpoints: createDict(), meta: createDict(), lastReset };
}
