/**
 * Everything one cache knows about one store outside the Redux state: its requests in flight and
 * its start clock (Requests), what the last settled request of each key left, the Controller, and
 * who reads what (Subscriptions). One object per cache and store, made on first use and held
 * weakly by the store's `getState`, so it lives exactly as long as the store. The React hooks
 * only register with it; the same rules hold without React. See docs/architecture.md, "Who owns what".
 */

import { Lru } from '../../base/Lru.js';
import type { Controller } from './Controller.js';
import { Pollers } from '../features/live/Pollers.js';
import { Optimistic } from '../features/optimistic/Optimistic.js';
import type { Collector } from '../features/gc/Collector.js';
import type { Requests } from './Requests.js';
import type { Selectors } from '../reads/selectors.js';
import { Subscriptions } from './Subscriptions.js';

/** Settled marks kept at most (least recently marked out first): one per key a hook fetched. */
const SETTLED_MARKS = 1_000;

export class StoreRuntime {
  readonly subscriptions = new Subscriptions();
  /** One poller per subscribed request key (docs/live-data.md#polling). */
  readonly pollers = new Pollers();
  /** Optimistic values of mutations in flight, over the confirmed state (Optimistic.ts). */
  readonly optimistic = new Optimistic();
  /** Garbage collection (features/gc/Collector.ts): since when each key has been unused, and the sweep timer. Set by createCache. */
  collector: Collector | undefined;
  /**
   * Per request key: the meta record the last settled request left. While that very record is
   * still the key's meta, nothing was written for the key since.
   */
  private readonly settled = new Lru<string, object>(SETTLED_MARKS);
  private readonly watched = new WeakSet<Promise<unknown>>();
  private readonly quiet = new WeakMap<Promise<unknown>, Promise<unknown>>();

  constructor(
    readonly requests: Requests,
    readonly controller: Controller,
    private readonly metaOf: (key: string) => object | undefined,
    /** This store's read memo: a reset or sweep here never touches another store's (docs/architecture.md). */
    readonly selectors: Selectors,
  ) {}

  /** Notes the meta record `request` leaves for `key` when it settles (once per request). */
  watch(key: string, request: Promise<unknown>): void {
    if (this.watched.has(request)) return;
    this.watched.add(request);
    const note = (): void => {
      const meta = this.metaOf(key);
      if (meta) this.settled.set(key, meta);
    };
    request.then(note, note);
  }

  /**
   * True when the last request for `key` settled, nothing was written for the key since (`meta`
   * is the record it left), and the response still reads as invalid (a root entity the answer
   * itself deleted, an error that expired at once): fetching again would loop without end. The
   * mark stays while that holds; any write for the key or a usable read forgets it.
   */
  settledInvalid(key: string, meta: object | undefined, invalid: boolean): boolean {
    const mark = this.settled.get(key);
    if (mark === undefined) return false;
    if (invalid && mark === meta) return true;
    this.settled.delete(key);
    return false;
  }

  /**
   * A promise that settles with `request` and never rejects (its value, or `undefined` on
   * failure: the error is stored). The same one for the same request, so React sees one thenable.
   */
  settledOf<T>(request: Promise<T>): Promise<T | undefined> {
    let settled = this.quiet.get(request);
    if (!settled) {
      settled = request.then(
        value => value,
        () => undefined,
      );
      this.quiet.set(request, settled);
    }
    return settled as Promise<T | undefined>;
  }

  /** After `resetEntireStore`: requests in flight are dropped, and so are the settled marks. */
  reset(): void {
    this.requests.clear();
    this.settled.clear();
    this.optimistic.clear();
    this.collector?.reset();
  }

  /** A sweep collected `key`: what was noted about it goes too. */
  dropped(key: string): void {
    this.settled.delete(key);
  }
}
