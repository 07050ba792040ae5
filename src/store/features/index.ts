/**
 * The features a cache can be built with (docs/features.md). createCache installs all of them;
 * createLeanCache only those it is given.
 */

export { garbageCollection } from './gc/index.js';
export { liveData } from './live/index.js';
export { optimisticUpdates } from './optimistic/index.js';
export { retries } from './retries/index.js';
export { pagination } from './pages/index.js';
