/**
 * The pagination feature (docs/pagination.md): a paginated list keeps the record of the pages it
 * holds, refetches them together, and pages both ways with `maxPages`. A cache built without it
 * refuses paginated endpoints (FEATURE_MISSING), and bundles none of this.
 */

import type { Feature } from '../../runtime/StoreRuntime.js';
import { listRecord } from '../../runtime/pages.js';
import { runnerOf } from '../../runtime/Requests.js';
import { withHeldPages } from './heldPages.js';
import { pagedRunner } from './pagedRunner.js';

/** Pagination: install with `createLeanCache({ features: [pagination] })` (createCache has it). */
export const pagination: Feature<'pagination'> = {
  name: 'pagination',
  install: runtime => ({
    paging: {
      send: (endpoint, send, joined) =>
        pagedRunner(
          endpoint,
          send,
          place => listRecord(runtime.state(), place),
          joined,
          page => runnerOf(page, runtime.request, runtime.store),
        ),
      written: withHeldPages,
    },
  }),
};
