/**
 * Garbage collection of one store (docs/gc.md): since when each request key and Query read has
 * been unused, the sweep timer, and the sweep itself (one `cache/gc` action). Owned by the
 * store's runtime (StoreRuntime.ts); what reads what comes from its Subscriptions, what is in
 * flight from its Requests.
 */

import { warn } from '../../../base/env.js';
import { describe } from '../../../base/errors.js';
import type { CacheState } from '../../../base/state.js';
import { hasSchema, type EndpointLike } from '../../endpoint.js';
import { planSweep, type InFlightRead, type KeptRead, type Sweep } from './sweep.js';
import { writableTables } from './writable.js';
import type { SweepReport } from '../../runtime/Feature.js';
import type { StoreRuntime } from '../../runtime/StoreRuntime.js';
import { ActionTypes } from '../../slice/reducer.js';
import type { HeldKind, HeldRead } from '../../runtime/Subscriptions.js';

/** A request key or Query read nobody holds: since when, and what it reads (when known). */
interface Unused {
  since: number;
  read: HeldRead | undefined;
  /** Written and not held since: kept at least WRITE_GRACE, so a suspended reader can mount and hold it. */
  written?: boolean;
}

/** How long a response just written is kept at least, whatever `gcTime`. */
const WRITE_GRACE = 1_000;
/** Timer sweeps never run closer together than this (or `gcTime`, when shorter, down to SWEEP_FLOOR). */
const MIN_GAP = 10_000;
/**
 * Whatever `gcTime`, the timer runs a sweep no sooner than this after it is armed or after the
 * previous sweep: a sweep walks every kept read, so releases in a burst (a screen unmounting
 * row by row) share one (docs/gc.md, "When sweeps run").
 */
const SWEEP_FLOOR = 1_000;
/** The longest delay `setTimeout` takes. */
const MAX_DELAY = 2 ** 31 - 1;

export class Collector {
  /** Per `kind:key` nobody holds: since when (the last release or write). Bounded by the state's keys. */
  private readonly unused = new Map<string, Unused>();
  declare private timer: ReturnType<typeof setTimeout> | undefined;
  private due = Infinity;
  private swept = -Infinity;

  /** `createCache`'s `gcTime`. */
  private readonly gcTime: number;

  constructor(private readonly runtime: StoreRuntime) {
    const { gcTime } = runtime.parts;
    this.gcTime = gcTime;
    runtime.subscriptions.listen((kind, key, held, read) => {
      if (held || !Number.isFinite(gcTime)) return;
      const unused = { since: Date.now(), read };
      this.unused.set(`${kind}:${key}`, unused);
      this.schedule(Date.now() + (kind === 'query' ? gcTime : this.grace(unused)));
    });
  }

  /** A response was written for `key`: its time in the cache starts again. */
  written(key: string, endpoint: EndpointLike, args: readonly unknown[]): void {
    if (!Number.isFinite(this.gcTime)) return;
    const unused = { since: Date.now(), read: { target: endpoint, args }, written: true };
    this.unused.set(`request:${key}`, unused);
    this.schedule(Date.now() + this.grace(unused));
  }

  /** Forgets every key (after a reset, which empties the state). */
  reset(): void {
    this.unused.clear();
  }

  /** Runs a sweep now: one `cache/gc` action when something goes, none otherwise. */
  sweep(now = Date.now()): SweepReport {
    this.swept = now;
    let dropKeys: readonly string[] = [];
    let written: Sweep | undefined;
    try {
      // A sweep is a confirmed write (docs/gc.md, "Sweeps and pending guesses").
      written = this.runtime.write(ActionTypes.gc, (confirmed, visible) => {
        const planned = this.plan(now, confirmed, visible);
        dropKeys = planned.dropKeys;
        return planned.sweep;
      });
    } finally {
      // What the state no longer holds is forgotten, even when a store listener threw.
      const state = this.runtime.state();
      for (const key of dropKeys) if (!(key in state.endpoints) && !(key in state.meta)) this.drop(key);
      this.rearm(now);
    }
    return { requests: written?.requests ?? 0, rows: written?.rows ?? 0 };
  }

  /** The sweep of the confirmed `state`, and the request keys it drops. */
  private plan(now: number, state: CacheState, visible: CacheState): { sweep: Sweep; dropKeys: string[] } {
    const { subscriptions, requests } = this.runtime;
    const { gcTime } = this;
    const inFlight = new Set<string>();
    const reading: InFlightRead[] = [];
    for (const { key, start, schema } of requests.unsettled()) {
      inFlight.add(key);
      // Mutations too: one the server applied before a later write whose answer landed first
      // overlaps it, which only that write's row still tells its answer (docs/gc.md).
      reading.push({ start, tables: writableTables(schema) });
    }
    const dropKeys: string[] = [];
    const kept: KeptRead[] = [];
    let opaque = false;
    const keep = (read: HeldRead | undefined, stored: unknown): void => {
      const endpoint = read?.target as EndpointLike | undefined;
      if (!endpoint || !read) opaque = true;
      else if (hasSchema(endpoint)) kept.push({ schema: endpoint.schema, args: read.args, stored });
    };
    const keys = new Set([...Object.keys(state.endpoints), ...Object.keys(state.meta)]);
    for (const key of keys) {
      const stored = state.endpoints[key];
      const held = subscriptions.read('request', key);
      const unused = this.unused.get(`request:${key}`);
      if (held || inFlight.has(key)) {
        // An unheld key in flight with nothing stored and no known read has nothing to reach yet.
        if (held || unused?.read || stored !== undefined) keep(held ?? unused?.read, stored);
        continue;
      }
      // A key this runtime never saw (restored state, another cache's writes) is unused from now on.
      if (!unused) {
        this.unused.set(`request:${key}`, { since: now, read: undefined });
        keep(undefined, stored);
      } else if (now - unused.since < this.grace(unused)) keep(unused.read, stored);
      else dropKeys.push(key);
    }
    // A held key with nothing stored yet (its first request in flight, or none needed) reads
    // what its args find in the store (an entity by its id): those rows are shown, and stay.
    for (const [key, read] of subscriptions.held('request')) if (!keys.has(key)) keep(read, undefined);
    for (const [, read] of subscriptions.held('query')) kept.push({ schema: read.target, args: read.args });
    for (const [id, unused] of this.unused) {
      const [kind, key] = splitId(id);
      if (kind === 'query' && unused.read && now - unused.since < gcTime)
        kept.push({ schema: unused.read.target, args: unused.read.args });
      // (A dropped key's record goes once the sweep is written: drop reads it.)
      else if (kind === 'query' || !keys.has(key)) this.unused.delete(id);
    }
    const sweep = planSweep(state, { dropKeys, kept, opaque, reading, visible, now, gcTime });
    return { sweep, dropKeys };
  }

  private drop(key: string): void {
    const read = this.unused.get(`request:${key}`)?.read;
    this.unused.delete(`request:${key}`);
    if (read) this.runtime.selectors.forget(read.target as EndpointLike, read.args);
    this.runtime.marks.drop(key);
  }

  /**
   * How long an unused response stays: `gcTime` (at least WRITE_GRACE after a write), and
   * nothing for a mutation's: its promise has resolved already (see docs/gc.md).
   */
  private grace(unused: Unused): number {
    if ((unused.read?.target as EndpointLike | undefined)?.sideEffect) return 0;
    return unused.written ? Math.max(this.gcTime, WRITE_GRACE) : this.gcTime;
  }

  /** Arms the timer for `at` (or the earliest time sweeps may run again), unless it runs sooner. */
  private schedule(at: number): void {
    if (!Number.isFinite(this.gcTime) || !Number.isFinite(at)) return;
    const gap = Math.min(MIN_GAP, this.gcTime);
    const when = Math.max(at, Date.now() + SWEEP_FLOOR, this.swept + gap);
    if (this.timer !== undefined && this.due <= when) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.due = when;
    // The timer holds the collector weakly: a store dropped by the app is not kept for its sweep.
    const self = new WeakRef(this);
    this.timer = setTimeout(
      () => {
        const collector = self.deref();
        if (!collector) return;
        collector.timer = undefined;
        collector.due = Infinity;
        try {
          collector.sweep();
        } catch (error) {
          // A timer has no caller to throw to (a store whose cache slice was removed, say).
          if (process.env.NODE_ENV !== 'production') warn(`A garbage-collection sweep failed: ${describe(error)}`);
        }
      },
      Math.min(MAX_DELAY, Math.max(0, when - Date.now())),
    );
    // Never keeps a Node process alive (browsers have no unref).
    (this.timer as { unref?: () => void }).unref?.();
  }

  private rearm(now: number): void {
    let next = Infinity;
    for (const [id, unused] of this.unused) {
      const [kind, key] = splitId(id);
      if (this.runtime.subscriptions.count(kind, key) > 0) continue;
      next = Math.min(next, unused.since + (kind === 'query' ? this.gcTime : this.grace(unused)));
    }
    if (next !== Infinity) this.schedule(Math.max(next, now));
  }
}

function splitId(id: string): [HeldKind, string] {
  const at = id.indexOf(':');
  return [id.slice(0, at) as HeldKind, id.slice(at + 1)];
}
