/**
 * selectRowStatus: whether a record is being saved, and the error its last save failed with
 * (docs/rowStatus.md). A module of its own: an app that never asks bundles none of it.
 */

import { describe, setupError } from '../../base/errors.js';
import { internalsOf, type Cache } from '../Cache.js';
import { ledgers, type RowStatus } from '../features/optimistic/Optimistic.js';

export type { RowStatus } from '../features/optimistic/Optimistic.js';

/** Every row with nothing pending and no failure reads this one object. */
const IDLE: RowStatus = Object.freeze({ saving: false, error: undefined });
const SAVING: RowStatus = Object.freeze({ saving: true, error: undefined });
/** A failure's status while a new guess for its row is pending (held by the failure's own status). */
const savingAgain = new WeakMap<RowStatus, RowStatus>();

/**
 * The status of the row `pk` of `Entity` in the store holding `rootState`: `saving` while a
 * mutation's optimistic guess that writes it is pending, and `error`, the error (as thrown) of the
 * last mutation whose guess wrote it and that failed, until a mutation touching it succeeds. The
 * same object while the status is unchanged; one shared object for every idle row.
 *
 * @example
 * ```ts
 * const { saving, error } = selectRowStatus(cache, store.getState(), Post, '1');
 * ```
 */
export function selectRowStatus(
  cache: Cache<string>,
  rootState: unknown,
  Entity: { readonly key: string },
  pk: string | number,
): RowStatus {
  const reads = internalsOf(cache);
  const table = (Entity as { key?: unknown } | null)?.key;
  if (typeof table !== 'string' || (typeof pk !== 'string' && typeof pk !== 'number')) {
    throw setupError(
      'INVALID_OPTION',
      process.env.NODE_ENV !== 'production' && [
        `selectRowStatus was given ${describe(Entity)} and the pk ${describe(pk)}: expected an Entity class and a string or number pk.`,
        "Pass the row's Entity class and its pk, e.g. selectRowStatus(cache, state, Post, '1').",
      ],
    );
  }
  const state = reads.slice(rootState);
  const key = String(pk);
  const saving = state.entitiesMeta[table]?.[key]?.optimistic === true;
  const row = state.entities[table]?.[key];
  // A row no longer stored (swept, or deleted for good) has no failure to show.
  const failed =
    row != null || saving ? ledgers.get(reads.memo(rootState))?.failed.get(`${table}\u0000${key}`) : undefined;
  if (!failed) return saving ? SAVING : IDLE;
  if (!saving) return failed;
  let status = savingAgain.get(failed);
  if (!status) savingAgain.set(failed, (status = Object.freeze({ saving: true, error: failed.error })));
  return status;
}
