/**
 * Bursts of answers (docs/architecture.md, "Bursts"): the requests of one store whose answers
 * land in one task are written as one action, each answer computed in turn against a working
 * copy of the slice that holds the answers before it. Each touched table is copied once for the
 * burst there, and once more by the reducer, instead of once per answer.
 */

import type { Patch } from '../../base/patch.js';
import type { CacheState } from '../../base/state.js';
import { applyPatches } from '../slice/applyPatches.js';
import {
  ActionTypes,
  writeAction,
  type ActionMeta,
  type ActionType,
  type WriteAction,
  type WritePayload,
} from '../slice/reducer.js';
import type { StoreLike } from '../types.js';

/** What a burst needs of the store's runtime (StoreRuntime; not imported, as it imports this). */
interface BurstRuntime {
  readonly store: StoreLike;
  readonly parts: {
    readonly reducerPath: string;
    carry(from: CacheState, to: CacheState, start: number | undefined, patches: readonly Patch[]): void;
  };
  state(): CacheState;
}

/**
 * One answer's landing: writes its outcome (through `StoreRuntime.write`), and returns what tells
 * its caller, called once the write is dispatched (its value or throw settles the request's promise).
 */
export type Landing = () => () => unknown;

/** A store's bursts: what `StoreRuntime` calls. */
export interface Burst {
  /** Lands an answer with the others of this task; settles as its `Landing`'s result does. */
  land(land: Landing): Promise<unknown>;
  /** The working copy while answers are joined (undefined outside a burst). */
  state(): CacheState | undefined;
  /** A write: dispatched, or joined while answers are. */
  add(type: ActionType, payload: WritePayload, meta: ActionMeta): void;
  /** Runs `hook` once what is being written is dispatched (at once, outside a burst). */
  later(hook: () => void): void;
  /** What is joined is written before the next answer lands (a 401's reset follows this one). */
  split(): void;
}

export function burstOf(runtime: BurstRuntime): Burst {
  let queue: [Landing, (value: unknown) => void, (error: unknown) => void][] = [];
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
      runtime.store.dispatch(
        writeAction(
          ActionTypes.resolve,
          runtime.parts.reducerPath,
          {
            patches: actions.flatMap(action => action.payload.patches),
            // Undone last first.
            inversePatches: [...actions].reverse().flatMap(action => action.payload.inversePatches),
          },
          // (Every write of an answer carries its stamp.)
          { start: Math.max(...actions.map(action => action.meta.start ?? 0)) },
        ) as never,
      );
    else if (first) runtime.store.dispatch(first as never);
    actions = [];
  };

  /** Dispatches the joined write, runs the hooks after it, then tells each answer's caller. */
  const end = (told: [() => unknown, (value: unknown) => void, (error: unknown) => void][]): void => {
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
    let told: [() => unknown, (value: unknown) => void, (error: unknown) => void][] = [];
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
    land: land => new Promise((resolve, reject) => queue.push([land, resolve, reject]) === 1 && wait(1)),
    state: () => work,
    add(type, { patches, inversePatches }, meta) {
      const action = writeAction(type, runtime.parts.reducerPath, { patches, inversePatches }, meta);
      if (!work) {
        runtime.store.dispatch(action as never);
        return;
      }
      try {
        const next = applyPatches(work, patches, copied);
        // The working copy is the slice's descendant: the ledger keeps its guesses against it.
        runtime.parts.carry(work, next, meta.start, patches);
        work = next;
        actions.push(action);
      } catch {
        // A write the working copy refuses: what is joined goes out, then this one alone (the
        // reducer refuses it as it would have), and the burst goes on from the slice.
        dispatch();
        runtime.store.dispatch(action as never);
        work = runtime.state();
        copied = new Set();
      }
    },
    later: hook => (work ? after.push(hook) : hook()),
    split: () => void (cut = true),
  };
}
