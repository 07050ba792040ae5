/**
 * Everything one cache knows about one store outside the Redux state (docs/architecture.md, "Who
 * owns what"): its requests in flight and start clock (Requests), who reads what (Subscriptions),
 * its read memo (Selectors), what the last settled request of each key left, its Controller, and
 * the features installed into it. One per cache and store, made when the cache's middleware is
 * mounted on the store, and living as long as the store. The React hooks only call its Controller;
 * the same rules hold without React.
 */

import { ErrorCode, setupError } from '../../base/errors.js';
import { Lru } from '../../base/Lru.js';
import type { CacheState, EndpointMeta } from '../../base/state.js';
import type { NormalizeOptions } from '../../normalize/normalize.js';
import type { UnauthorizedPolicy } from '../cacheOptions.js';
import type { EndpointLike, ExpiryDefaults } from '../endpoint.js';
import type { Selectors } from '../reads/selectors.js';
import type { ActionType, WritePayload } from '../slice/actions.js';
import type { StoreLike } from '../types.js';
import { confirmedWrite, type ActionMeta } from '../writes/confirmedWrite.js';
import { cancelWrite, resolveWrite } from '../writes/resolve.js';
import { Controller } from './Controller.js';
import type { ConfirmedWriter, FeatureApis, FeatureHooks, FeatureName, OutgoingRequest } from './Feature.js';
import { listRecord } from './pages.js';
import { Requests } from './Requests.js';
import { isCancellation } from './sending.js';
import { Subscriptions } from './Subscriptions.js';

/** Settled marks kept at most (least recently marked out first): one per key a hook fetched. */
const SETTLED_MARKS = 1_000;

/**
 * A capability installed into each store's runtime (docs/features.md): `install` runs once per
 * store, as the cache's middleware is mounted, and returns the hook points it fills.
 */
export interface Feature {
  readonly name: FeatureName;
  install(runtime: StoreRuntime): FeatureHooks;
}

/** What the cache gives each store's runtime: its parts shared by every store. */
export interface CacheParts {
  readonly reducerPath: string;
  readonly normalizeOptions: NormalizeOptions;
  /** `createCache`'s `gcTime`, checked. */
  readonly gcTime: number;
  /** `createCache`'s `dataExpiryLength` and `errorExpiryLength`, checked: what endpoints that set none get. */
  readonly expiry: ExpiryDefaults;
  /** `createCache`'s `timeout`, checked: what endpoints that set none get. */
  readonly timeout: number | undefined;
  /** `createCache`'s `onUnauthorized` and `isUnauthorized`, checked; undefined when off. */
  readonly unauthorized: UnauthorizedPolicy | undefined;
  readonly features: readonly Feature[];
  slice(rootState: unknown): CacheState;
  /** The highest start stamp in a slice (StartClock.ts). */
  highWater(slice: CacheState): number;
  /** A token shared by the slices the cache's own writes made from one another (slice/Lineage.ts). */
  lineage(slice: CacheState): object;
  /** A new read memo, for a store. */
  memo(): Selectors;
  /** Reads `state` as `selectQuery` does; `visible` is the slice the store shows. */
  readState(state: CacheState, visible: CacheState, schema: unknown, args: readonly unknown[]): unknown;
}

export class StoreRuntime {
  readonly subscriptions = new Subscriptions();
  readonly requests: Requests;
  readonly controller: Controller;
  /** This store's read memo: a reset or sweep here never touches another store's. */
  readonly selectors: Selectors;
  /** The confirmed-write computation a feature supplies (optimistic updates), if any. */
  readonly writer: ConfirmedWriter | undefined;
  private readonly hooks: FeatureHooks[] = [];
  private readonly apis = new Map<FeatureName, unknown>();
  /**
   * Per request key: the meta record the last settled request left. While that very record is
   * still the key's meta, nothing was written for the key since.
   */
  private readonly settled = new Lru<string, object>(SETTLED_MARKS);
  /**
   * Per request key: the start of the request readers waited for (they had nothing to show),
   * until a mounted reader has shown its answer. An answer stale as it arrives (an expiry of 0)
   * is shown to them without being fetched again (docs/store.md, "An expiry of 0").
   */
  private readonly fresh = new Lru<string, number>(SETTLED_MARKS);
  private readonly watched = new WeakSet<Promise<unknown>>();
  /** An unauthorized failure reset the store, and no request succeeded since (docs/store.md, "Reset on 401"). */
  private signedOut = false;
  private readonly quiet = new WeakMap<Promise<unknown>, Promise<unknown>>();

  constructor(
    readonly parts: CacheParts,
    readonly store: StoreLike,
  ) {
    this.selectors = parts.memo();
    this.requests = new Requests({
      resolve: (endpoint, input) => resolveWrite(this, endpoint, input),
      data: (endpoint, args, result) => this.selectors.denormalized(this.state(), endpoint.schema, args, result),
      highWater: () => parts.highWater(this.state()),
      heldPages: place => listRecord(this.state(), place)?.pages,
      check: (endpoint, key) => this.checkFeatures(endpoint, key),
      starting: request => this.starting(request),
      sending: (request, send, stop) => this.sending(request, send, stop),
      cancelled: (endpoint, start) => cancelWrite(this, endpoint, start),
      failed: error => this.failed(error),
      succeeded: () => this.succeeded(),
      timeout: parts.timeout,
    });
    this.controller = new Controller(this);
    let writer: ConfirmedWriter | undefined;
    for (const feature of parts.features) {
      const hooks = feature.install(this);
      this.hooks.push(hooks);
      if (hooks.api !== undefined) this.apis.set(feature.name, hooks.api);
      writer ??= hooks.writer;
    }
    this.writer = writer;
  }

  /** The store's slice now. */
  state(): CacheState {
    return this.parts.slice(this.store.getState());
  }

  /** Whether the cache was built with the feature. */
  has(name: FeatureName): boolean {
    return this.parts.features.some(feature => feature.name === name);
  }

  /** The API of a feature; FEATURE_MISSING when the cache was built without it. */
  api<N extends keyof FeatureApis>(name: N, use: string): FeatureApis[N] {
    const api = this.apis.get(name);
    if (api === undefined) throw featureMissing(name, use);
    return api as FeatureApis[N];
  }

  /** What the feature `name` offers (its `api`), when the cache has it: for diagnostics and tests. */
  installed(name: FeatureName): unknown {
    return this.apis.get(name);
  }

  /**
   * A confirmed write (writes/confirmedWrite.ts): `compute` gets the confirmed state and the one
   * the store shows, and what it returns is dispatched as one `type` action.
   */
  write<T extends WritePayload>(
    type: ActionType,
    compute: (confirmed: CacheState, visible: CacheState) => T | undefined,
    meta?: ActionMeta | ((computed: T | undefined) => ActionMeta),
  ): T | undefined {
    return confirmedWrite(this.parts, this.writer, this.store, type, compute, meta);
  }

  /**
   * Refuses an endpoint whose options need a feature the cache lacks (FEATURE_MISSING), when it
   * is fetched or subscribed to: before anything is held, sent or written.
   */
  checkFeatures(endpoint: EndpointLike, key: string): void {
    if (endpoint.retry && !endpoint.sideEffect && !this.has('retries'))
      throw featureMissing('retries', `The endpoint ${key}, with retry,`);
    if (typeof endpoint.getOptimisticResponse === 'function' && !this.has('optimisticUpdates'))
      throw featureMissing('optimisticUpdates', `The endpoint ${key}, with getOptimisticResponse,`);
  }

  /** The fetch path's first hook point: each feature's `starting`. */
  private starting(request: OutgoingRequest): void {
    for (const hooks of this.hooks) hooks.starting?.(request);
  }

  private sending(request: OutgoingRequest, send: () => Promise<unknown>, stop: readonly AbortSignal[]) {
    const sender = this.hooks.find(hooks => hooks.sending);
    return sender ? sender.sending!(request, send, stop) : send();
  }

  /**
   * A request this store sent failed, and its failure was written. With the cache's
   * `onUnauthorized`, an unauthorized failure resets the store, then calls the app back
   * (docs/store.md, "Reset on 401"); what either callback throws rejects the request instead.
   */
  private failed(error: unknown): void {
    const policy = this.parts.unauthorized;
    if (!policy?.isUnauthorized(error)) return;
    // Once per session: until a request succeeds again, a further 401 is stored as the error it
    // is (and shown), not a new reset, so readers still mounted do not refetch without end.
    if (!this.signedOut) {
      this.signedOut = true;
      this.controller.resetEntireStore();
    }
    policy.onUnauthorized(error, this.controller);
  }

  /** A request this store sent succeeded: the next unauthorized failure resets the store again. */
  private succeeded(): void {
    this.signedOut = false;
  }

  /** The request `endpoint` started at `start` settled (its outcome is written next). */
  settling(endpoint: EndpointLike, start: number): void {
    for (const hooks of this.hooks) hooks.settling?.(endpoint, start);
  }

  /** A request's outcome was written for `key`. */
  written(key: string, endpoint: EndpointLike, args: readonly unknown[]): void {
    for (const hooks of this.hooks) hooks.written?.(key, endpoint, args);
  }

  /** Notes the meta record `request` leaves for `key` when it settles (once per request). */
  watch(key: string, request: Promise<unknown>): void {
    if (this.watched.has(request)) return;
    this.watched.add(request);
    const note = (): void => {
      const meta = this.state().meta[key];
      if (meta) this.settled.set(key, meta);
    };
    // An aborted request wrote nothing: it says nothing of what a new one would bring.
    request.then(note, (error: unknown) => (isCancellation(error) ? this.settled.delete(key) : note()));
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

  /** Readers with nothing to show wait for the request in flight for `key`. */
  waiting(key: string): void {
    const start = this.requests.startOf(key);
    if (start !== undefined) this.fresh.set(key, start);
  }

  /** Whether `meta` is the answer readers waited for, stale as it arrived, and not shown by a mounted reader yet. */
  freshAnswer(key: string, meta: EndpointMeta | undefined): boolean {
    return meta !== undefined && meta.expiresAt <= meta.date && this.fresh.get(key) === meta.fetchedAt;
  }

  /** A mounted reader showed `key`'s current record: a reader mounting after it fetches it again when stale. */
  shown(key: string): void {
    const meta = this.state().meta[key];
    if (meta && this.fresh.get(key) === meta.fetchedAt) this.fresh.delete(key);
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

  /** After `resetEntireStore`: requests in flight, settled marks and the memo go, and each feature is told. */
  reset(): void {
    this.requests.clear();
    this.settled.clear();
    this.fresh.clear();
    // The memo would hold the old rows until evicted (docs/gc.md, "Outside the state").
    this.selectors.clear();
    for (const hooks of this.hooks) hooks.reset?.();
  }

  /** The slice was replaced by an action the cache did not make (slice/Lineage.ts): each feature is told. */
  replaced(): void {
    for (const hooks of this.hooks) hooks.replaced?.();
  }

  /** A sweep collected `key`: what was noted about it goes too. */
  dropped(key: string): void {
    this.settled.delete(key);
    this.fresh.delete(key);
  }
}

/** The set-up error of a method or endpoint option whose feature the cache was built without. */
export function featureMissing(name: FeatureName, use: string): Error {
  return setupError(
    ErrorCode.FEATURE_MISSING,
    process.env.NODE_ENV !== 'production' && [
      `${use} needs the ${name} feature, but this cache was built without it.`,
      `Add it where the cache is built: createLeanCache({ features: [${name}, ...] }) (import { ${name} } from 'lenscache'), or use createCache(), which has every feature.`,
    ],
    name,
  );
}
