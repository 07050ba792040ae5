/**
 * The features a cache can be built with (docs/features.md). createCache installs all of them but
 * crossTab, outbox and bursts; createLeanCache only those it is given.
 */

export { garbageCollection } from './gc/index.js';
export { liveData } from './live/index.js';
export { optimisticUpdates } from './optimistic/index.js';
export { retries } from './retries/index.js';
export { pagination } from './pages/index.js';
export { crossTab, type CrossTab, type CrossTabOptions, type TabChannel } from './crossTab/index.js';
export { bursts, type BurstOptions } from './bursts/index.js';
export { outbox, type Outbox, type OutboxOptions, type OutboxStorage } from './outbox/index.js';
