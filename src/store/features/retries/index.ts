/**
 * The retries feature (docs/RestEndpoint.md, "Retries"): a read whose endpoint has `retry` is
 * sent again on network failures and 5xx, as one request.
 */

import type { Feature } from '../../runtime/StoreRuntime.js';
import { withRetries } from './retrying.js';

/** Retries: install with `createLeanCache({ features: [retries] })` (createCache has it). */
export const retries: Feature<'retries'> = {
  name: 'retries',
  install: () => ({
    // (A mutation is never sent twice: the server may have applied it.)
    sending: ({ endpoint }, send, stop) => (endpoint.sideEffect ? send() : withRetries(send, endpoint.retry!, stop)),
  }),
};
