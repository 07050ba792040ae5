/**
 * The bursts feature (docs/architecture.md, "Bursts of answers"): the requests of one store whose
 * answers land in one task are written as one action, each answer computed in turn against a
 * working copy of the slice that holds the answers before it. Each touched table is copied once
 * for the burst there, and once more by the reducer, instead of once per answer.
 */

import type { CacheState } from '../../../base/state.js';
import type { Burst } from '../../runtime/Feature.js';
import type { Feature } from '../../runtime/StoreRuntime.js';
import type { Patch } from '../../../base/patch.js';
import { describe, setupError } from '../../../base/errors.js';
import { applyOne, checkPatch, writable } from '../../slice/applyPatches.js';
import { ActionTypes, writeAction, type WriteAction } from '../../slice/reducer.js';

type Told = [() => unknown, (value: unknown) => void, (error: unknown) => void];

/**
 * Bursts of answers, opt-in (createCache does not install it):
 * `createLeanCache({ features: [...features, bursts()] })`.
 *
 * @example
 * ```ts
 * const cache = createLeanCache({ features: [garbageCollection, optimisticUpdates, bursts()] });
 * ```
 */
export function bursts({ window = 0 }: BurstOptions = {}): Feature<'bursts'> {
  if (!(typeof window === 'number' && window >= 0 && window <= 1000))
    throw setupError(
      'INVALID_OPTION',
      process.env.NODE_ENV !== 'production' && [
        `bursts({ window }) takes a number of milliseconds from 0 to 1000, but received ${describe(window)}.`,
        'Leave it out to join the answers that land in one task, or pass e.g. bursts({ window: 16 }) to join those of one frame.',
      ],
    );
  return { name: 'bursts', install: runtime => ({ burst: burstOf(runtime, window) }) };
}

/** `bursts()`'s options. */
export interface BurstOptions {
  /**
   * How long the first answer of a burst waits for others, in milliseconds (0 to 1000). 0, the
   * default, joins the answers that land in one task: those a fetch stub or a cache resolves
   * together. Answers from the network each land in a task of their own, so joining them takes a
   * window: 16 joins those of about one frame, and delays each answer by at most that.
   */
  window?: number;
}

function burstOf(runtime: Parameters<Feature['install']>[0], window: number): Burst {
  const { store, parts } = runtime;
  let queue: [() => () => unknown, (value: unknown) => void, (error: unknown) => void][] = [];
  // The joined write in progress (during a flush of two answers or more): the working copy, the
  // containers it copied, the writes applied to it, what runs once they are dispatched.
  let work: CacheState | undefined;
  let copied = new Set<object>();
  let actions: WriteAction[] = [];
  let after: (() => void)[] = [];
  let cut = false;

  /** The writes joined so far as one action (one alone as it is), as old as the newest of them. */
  const dispatch = (): void => {
    const [first] = actions;
    if (actions[1])
      store.dispatch(
        writeAction(
          ActionTypes.resolve,
          parts.reducerPath,
          {
            patches: actions.flatMap(action => action.payload.patches),
            // Undone last first.
            inversePatches: [...actions].reverse().flatMap(action => action.payload.inversePatches),
          },
          // (Every write of an answer carries its stamp.)
          { start: Math.max(...actions.map(action => action.meta.start ?? 0)) },
        ) as never,
      );
    else if (first) store.dispatch(first as never);
    actions = [];
  };

  /** Dispatches the joined write, runs the hooks after it, then tells each answer's caller. */
  const end = (told: Told[]): void => {
    const hooks = after;
    work = undefined;
    after = [];
    dispatch();
    for (const hook of hooks) hook();
    for (const [tell, resolve, reject] of told) {
      try {
        resolve(tell());
      } catch (error) {
        reject(error);
      }
    }
  };

  const flush = (): void => {
    const items = queue;
    queue = [];
    let told: Told[] = [];
    // A burst of one is written as a single answer is.
    const start = (): CacheState | undefined => ((copied = new Set()), items[1] && runtime.state());
    work = start();
    for (const [land, resolve, reject] of items) {
      cut = false;
      let tell: () => unknown;
      try {
        tell = land();
      } catch (error) {
        tell = () => {
          throw error;
        };
      }
      told.push([tell, resolve, reject]);
      if (cut) {
        end(told);
        told = [];
        work = start();
      }
    }
    end(told);
  };

  /** One microtask more while answers keep coming (answers a hop or two behind join this burst). */
  const wait = (count: number): void =>
    void Promise.resolve().then(() => (queue.length > count ? wait(queue.length) : flush()));

  return {
    // With a window, the burst is written once it has passed (a timer: nothing waits longer).
    land: land =>
      new Promise(
        (resolve, reject) =>
          queue.push([land, resolve, reject]) === 1 && (window > 0 ? void setTimeout(flush, window) : wait(1)),
      ),
    state: () => work ?? runtime.state(),
    store: {
      dispatch: action => {
        if (!work) {
          store.dispatch(action as never);
          return;
        }
        // A failure may be a 401, whose reset follows its answer: what is joined is written first.
        if (action.type === ActionTypes.setError && parts.unauthorized) cut = true;
        const { patches } = action.payload;
        let next: CacheState | undefined;
        try {
          next = patchWork(work, patches, copied);
        } catch {
          // (Refused: below.)
        }
        if (next) {
          // The working copy is the slice's descendant: the ledger keeps its guesses against it.
          parts.facts.carry(work, next, action.meta.start, patches);
          work = next;
          actions.push(action);
        } else {
          // A write the working copy refuses: what is joined goes out, then this one alone (the
          // reducer refuses it, or applies a whole slice, as it would have), and the burst goes on
          // from the slice.
          dispatch();
          store.dispatch(action as never);
          work = runtime.state();
          copied = new Set();
        }
      },
    },
    later: hook => (work ? after.push(hook) : hook()),
  };
}

/**
 * `work` with `patches` applied as the reducer applies them (slice/applyPatches.ts), except that
 * the containers copied are kept in `copied` across the burst's writes and changed in place by
 * later ones, never frozen. Undefined for a patch of the whole slice (a reset, never an answer's),
 * which the reducer applies instead; a patch it cannot apply throws as the reducer's does.
 */
function patchWork(work: CacheState, patches: readonly Patch[], copied: Set<object>): CacheState | undefined {
  let root = work as unknown;
  for (const patch of patches) {
    const path = checkPatch(patch);
    if (path.length === 0) return undefined;
    root = writable(root, copied, copied, 0);
    let parent = root as Record<string | number, unknown>;
    for (let i = 0; i < path.length - 1; i++) {
      const child = writable(parent[path[i]!], copied, copied, i + 1, path);
      parent[path[i]!] = child;
      parent = child as Record<string | number, unknown>;
    }
    applyOne(parent, path, patch);
  }
  return root as CacheState;
}
