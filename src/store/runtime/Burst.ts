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
    carry(from: CacheState, to: CacheState, start: number | undefined, patches: Patch[]): void;
  };
  state(): CacheState;
}

/**
 * One answer's landing: writes its outcome (through `StoreRuntime.write`), and returns what tells
 * its caller, called once the write is dispatched (its value or throw settles the request's promise).
 */
export type Landing = () => () => unknown;

interface Queued {
  land: Landing;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** The joined write of a burst: the working copy, and the writes applied to it so far. */
class Batch {
  readonly copied = new Set<object>();
  readonly actions: WriteAction[] = [];
  /** What runs once the joined write is dispatched (the features' `written` hooks), in order. */
  readonly after: (() => void)[] = [];
  constructor(public state: CacheState) {}
}

export class Burst {
  /** The joined write in progress (during a flush of two answers or more), which `write` adds to. */
  declare batch: Batch | undefined;
  private queue: Queued[] = [];
  /** The answer being landed asked for what is joined to be written before the next one lands. */
  private cut = false;

  constructor(private readonly runtime: BurstRuntime) {}

  /** Lands an answer with the others of this task; settles as its `Landing`'s result does. */
  land(land: Landing): Promise<unknown> {
    return new Promise((resolve, reject) => {
      if (this.queue.push({ land, resolve, reject }) === 1) this.wait(1);
    });
  }

  /** One microtask more while answers keep coming (answers a hop or two behind join this burst). */
  private wait(count: number): void {
    void Promise.resolve().then(() => (this.queue.length > count ? this.wait(this.queue.length) : this.flush()));
  }

  /** After the write of the answer being landed, what is joined goes out before the next lands (a 401's reset). */
  split(): void {
    this.cut = true;
  }

  /** Runs `hook` once what is being written is dispatched (at once, outside a burst). */
  later(hook: () => void): void {
    if (this.batch) this.batch.after.push(hook);
    else hook();
  }

  /** A write (`StoreRuntime.write`): dispatched, or joined when in a burst. */
  add(type: ActionType, { patches, inversePatches }: WritePayload, meta: ActionMeta): void {
    const action = writeAction(type, this.runtime.parts.reducerPath, { patches, inversePatches }, meta);
    const batch = this.batch;
    if (!batch) {
      this.runtime.store.dispatch(action as never);
      return;
    }
    try {
      const next = applyPatches(batch.state, patches, batch.copied);
      // The working copy is the slice's descendant: the ledger keeps its guesses against it.
      this.runtime.parts.carry(batch.state, next, action.meta.start, patches);
      batch.state = next;
      batch.actions.push(action);
    } catch {
      // A write the working copy refuses: what is joined goes out, then this one alone (the
      // reducer refuses it as it would have), and the burst goes on from the slice.
      this.dispatch(batch);
      this.runtime.store.dispatch(action as never);
      batch.state = this.runtime.state();
      batch.copied.clear();
    }
  }

  private flush(): void {
    const items = this.queue;
    this.queue = [];
    // A burst of one is written as a single answer is.
    let batch = items.length > 1 ? new Batch(this.runtime.state()) : undefined;
    let landed: [Queued, () => unknown][] = [];
    for (const item of items) {
      this.batch = batch;
      this.cut = false;
      let told: () => unknown;
      try {
        told = item.land();
      } catch (error) {
        told = () => {
          throw error;
        };
      }
      landed.push([item, told]);
      if (this.cut && batch) {
        this.end(batch, landed);
        landed = [];
        batch = new Batch(this.runtime.state());
      }
    }
    this.end(batch, landed);
  }

  /** Dispatches the joined write, runs the hooks after it, then settles each answer's promise. */
  private end(batch: Batch | undefined, landed: [Queued, () => unknown][]): void {
    this.batch = undefined;
    if (batch) {
      this.dispatch(batch);
      for (const hook of batch.after) hook();
    }
    for (const [item, told] of landed) {
      try {
        item.resolve(told());
      } catch (error) {
        item.reject(error);
      }
    }
  }

  /** The writes joined so far as one action (one write alone as it is). */
  private dispatch(batch: Batch): void {
    const { actions } = batch;
    if (actions.length > 1) {
      const patches: Patch[] = [];
      let inversePatches: Patch[] = [];
      let start: number | undefined;
      for (const { payload, meta } of actions) {
        patches.push(...payload.patches);
        // Undone last first.
        inversePatches = [...payload.inversePatches, ...inversePatches];
        if (meta.start !== undefined && !(meta.start <= start!)) start = meta.start;
      }
      const type = actions.every(action => action.type === actions[0]!.type) ? actions[0]!.type : ActionTypes.resolve;
      const meta = { reducerPath: actions[0]!.meta.reducerPath, ...(start !== undefined && { start }) };
      this.runtime.store.dispatch({ type, payload: { patches, inversePatches }, meta } as never);
    } else if (actions[0]) this.runtime.store.dispatch(actions[0] as never);
    actions.length = 0;
  }
}
