/**
 * The optimisticUpdates feature (docs/mutations.md): a mutation's `getOptimisticResponse` is
 * shown at once, as a layer over the confirmed state kept by the store's ledger, until its answer
 * or failure. With it, every confirmed write of the store goes through the ledger.
 */

import type { Feature } from '../../runtime/StoreRuntime.js';
import { dispatchGuess } from './guess.js';
import { Optimistic } from './Optimistic.js';
import { ActionTypes } from '../../slice/reducer.js';

/** Optimistic updates: install with `createLeanCache({ features: [optimisticUpdates] })` (createCache has it). */
export const optimisticUpdates: Feature<'optimisticUpdates'> = {
  name: 'optimisticUpdates',
  install(runtime) {
    const ledger = new Optimistic(runtime);
    return {
      writer: ledger,
      // The guesses are shown again over the new slice at once (a write that confirms nothing).
      replaced: () => {
        if (ledger.active) runtime.write(ActionTypes.optimistic, () => undefined);
      },
      guessing: dispatchGuess.bind(null, runtime, ledger),
      settling: ledger.settle.bind(ledger),
      reset: ledger.clear.bind(ledger),
      api: ledger,
    };
  },
};
