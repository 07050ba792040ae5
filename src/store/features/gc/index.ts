/**
 * The garbageCollection feature (docs/gc.md): each store's Collector drops the responses nobody
 * has retained for `gcTime`, with the rows only they reached. A cache built without it keeps
 * everything it is given (as `gcTime: Infinity`).
 */

import type { Feature } from '../../runtime/StoreRuntime.js';
import { ActionTypes } from '../../slice/actions.js';
import { Collector } from './Collector.js';

/** Garbage collection: install with `createLeanCache({ features: [garbageCollection] })` (createCache has it). */
export const garbageCollection: Feature = {
  name: 'garbageCollection',
  install(runtime) {
    const collector = new Collector({
      gcTime: runtime.parts.gcTime,
      subscriptions: runtime.subscriptions,
      requests: runtime.requests,
      slice: () => runtime.state(),
      // A sweep is a confirmed write (docs/gc.md, "Sweeps and pending guesses").
      write: compute => runtime.write(ActionTypes.gc, compute),
      forget: (endpoint, args) => runtime.selectors.forget(endpoint, args),
      dropped: key => runtime.dropped(key),
    });
    return {
      written: (key, endpoint, args) => collector.written(key, endpoint, args),
      reset: () => collector.reset(),
      api: collector,
    };
  },
};
