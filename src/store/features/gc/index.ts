/**
 * The garbageCollection feature (docs/gc.md): each store's Collector drops the responses nobody
 * has retained for `gcTime`, with the rows only they reached. A cache built without it keeps
 * everything it is given (as `gcTime: Infinity`).
 */

import type { Feature } from '../../runtime/StoreRuntime.js';
import { Collector } from './Collector.js';

/** Garbage collection: install with `createLeanCache({ features: [garbageCollection] })` (createCache has it). */
export const garbageCollection: Feature<'garbageCollection'> = {
  name: 'garbageCollection',
  install(runtime) {
    const collector = new Collector(runtime);
    return { written: collector.written.bind(collector), reset: collector.reset.bind(collector), api: collector };
  },
};
