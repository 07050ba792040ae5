/** selectQuery and selectResponse (docs/store.md, "Reading a response"), on top of the memoized Reader. */

import { INVALID } from '../../schema/contract.js';
import { denormalizeQuery } from '../../denormalize/denormalize.js';
import { fromErrorRecord, type ErrorRecord } from '../../base/errors.js';
import { argsKey, isSkipArgs } from '../../base/json.js';
import { ArgsKeys } from '../../base/argsKeys.js';
import { Lru } from '../../base/Lru.js';
import { tableId } from '../../base/tableDiffs.js';
import type { WriteMeta } from '../../base/patch.js';
import type { CacheState } from '../../base/state.js';
import type { Dict } from '../../base/dict.js';
import type { Reader, ReadResult } from '../../memo/Reader.js';
import { hasSchema, requestKey, type EndpointLike } from '../endpoint.js';
import { lacksPages } from '../runtime/pages.js';

export type ExpiryStatus = 'valid' | 'stale' | 'invalid';

/** What `selectResponse` returns. */
export interface ResponseState<T = unknown> {
  data: T | undefined;
  expiryStatus: ExpiryStatus;
  expiresAt: number;
  error: Error | undefined;
}

const SKIPPED: ResponseState<never> = Object.freeze({
  data: undefined,
  expiryStatus: 'valid',
  expiresAt: Infinity,
  error: undefined,
});

/** An endpoint read's two keys: the request key (`endpoint.key(...args)`) and the args' memo key. */
export interface RequestKeys {
  request: string;
  memo: string;
}

/** A read's rows: their earliest expiry (Infinity for none), and whether one is unsure. */
interface RowFacts {
  readonly meta: number;
  expiresAt: number;
  unsure: boolean;
}

const NO_ROWS: RowFacts = Object.freeze({ meta: 0, expiresAt: Infinity, unsure: false });

export class Selectors {
  /**
   * What each read's rows say (their earliest expiry, whether one is unsure), with the entitiesMeta
   * map it was found in named by its `tableId`: an old map must not stay in memory, and a WeakRef
   * would keep it until the end of the job.
   */
  private readonly facts = new WeakMap<ReadResult, RowFacts>();
  private answers = new WeakMap<object, Lru<string, ResponseState>>();
  /** The memo keys of args read often (one-field params), remembered. */
  private readonly keys = new ArgsKeys();

  constructor(
    private readonly reader: Reader,
    private readonly argsCacheSize: number,
    private readonly maxEntityDepth: number,
    /** Errors by their stored record: the original instance where this cache stored it (docs/store.md); shared by the cache's stores. */
    readonly errors: WeakMap<ErrorRecord, Error>,
    /** Whether a slice may hold unsure rows (slice/reducer.ts, SliceFacts). */
    private readonly unsure: (slice: CacheState) => boolean,
  ) {}

  /** `memoKey` is `argsKey(args)`, for callers (the hooks) that computed it once already. */
  query(state: CacheState, schema: unknown, args: readonly unknown[], memoKey = this.keys.of(args)): unknown {
    if (isSkipArgs(args)) return undefined;
    const { value } = this.reader.query(state, schema, args, memoKey);
    return value === INVALID ? undefined : value;
  }

  /**
   * `query` over `state`, which may be a view that is not the store's slice (the confirmed state
   * under pending guesses, docs/mutations.md): read through the memo when it is the store's
   * slice `visible`, plainly otherwise (a view is new on every write; memoizing it would only
   * fill the caches).
   */
  queryAt(state: CacheState, visible: CacheState, schema: unknown, args: readonly unknown[]): unknown {
    if (state === visible) return this.query(visible, schema, args);
    if (isSkipArgs(args)) return undefined;
    const value = denormalizeQuery(schema, args, state.entities, { maxEntityDepth: this.maxEntityDepth });
    return value === INVALID ? undefined : value;
  }

  /** A normalized result read back for args (what a fetch resolves to); `undefined` when invalid. */
  denormalized(state: CacheState, schema: unknown, args: readonly unknown[], result: unknown): unknown {
    if (result === undefined) return undefined;
    const { value } = this.reader.result(state, schema, args, result);
    return value === INVALID ? undefined : value;
  }

  /** `keys` are `endpoint.key(...args)` and `argsKey(args)`, for callers (the hooks) that computed them once already. */
  response(
    state: CacheState,
    endpoint: EndpointLike,
    args: readonly unknown[],
    now: number,
    keys?: RequestKeys,
  ): ResponseState {
    if (isSkipArgs(args)) return SKIPPED;
    const key = keys?.request ?? requestKey(endpoint, args);
    const meta = state.meta[key];
    const schema = endpoint.schema;
    const normalizes = hasSchema(endpoint);
    const stored = state.endpoints[key];
    let data: unknown = stored;
    let read: ReadResult | undefined;
    let usable = true;
    // Computed once: the read memo and the response memo are both keyed by it.
    const memoKey = keys?.memo ?? this.keys.of(args);
    if (normalizes) {
      read =
        stored !== undefined
          ? this.reader.result(state, schema, args, stored, memoKey)
          : this.reader.query(state, schema, args, memoKey);
      data = read.value;
      // A paginated list is the answer of its pages: with none stored at this key (the list read
      // at another lens), they are fetched here, not shown as the rows alone (docs/pagination.md).
      if (stored === undefined) usable = endpoint.pagination?.kind !== 'list' && isUsableKey(read.key);
    }
    let expiresAt = meta?.expiresAt ? meta.expiresAt : !usable ? 1 : this.rowsOf(read, state.entitiesMeta).expiresAt;
    // A row two overlapping answers disagreed on makes every response that reads it stale.
    if (meta && this.unsure(state) && this.rowsOf(read, state.entitiesMeta).unsure) expiresAt = Math.min(expiresAt, 1);
    const dataInvalid = (data === INVALID && !deletedByGuess(read, state)) || (stored === undefined && !normalizes);
    const expired = now > expiresAt;
    // An endpoint with `invalidIfStale` has no stale status: expired is invalid, so readers
    // suspend and fetch rather than show it (docs/store.md, "Reading a response").
    const expiryStatus: ExpiryStatus =
      meta?.invalidated ||
      // A list answer that lacks pages loaded at another lens since (docs/pagination.md).
      (stored !== undefined && meta !== undefined && lacksPages(state, endpoint, args, meta)) ||
      (dataInvalid && !meta?.error) ||
      ((dataInvalid || !usable || endpoint.invalidIfStale === true) && expired)
        ? 'invalid'
        : expired
          ? 'stale'
          : 'valid';
    const next: ResponseState = {
      // A key the query could not fill (a wrapped page's list never fetched) reads as missing,
      // not as the schema's defaults, even while its error is valid.
      data: expiryStatus === 'invalid' || data === INVALID || !usable ? undefined : data,
      expiryStatus,
      expiresAt,
      error: meta?.error ? this.errorOf(meta.error) : undefined,
    };
    return this.same(endpoint, memoKey, next);
  }

  /** Forgets every memoized read and response (after a reset). */
  clear(): void {
    this.answers = new WeakMap();
    this.reader.clear();
  }

  /**
   * Forgets what the memo keeps for an endpoint's args (the response object with its data and
   * original error, and the read): garbage collection dropped their request.
   */
  forget(endpoint: EndpointLike, args: readonly unknown[]): void {
    const memoKey = argsKey(args);
    this.answers.get(endpoint)?.delete(memoKey);
    this.reader.forget(endpoint.schema, memoKey);
  }

  /** The same response object while its fields are the same, so selector consumers see no change. */
  private same(endpoint: EndpointLike, memoKey: string, next: ResponseState): ResponseState {
    let slot = this.answers.get(endpoint);
    if (!slot) this.answers.set(endpoint, (slot = new Lru(this.argsCacheSize)));
    const previous = slot.get(memoKey);
    if (
      previous &&
      previous.data === next.data &&
      previous.expiryStatus === next.expiryStatus &&
      previous.expiresAt === next.expiresAt &&
      previous.error === next.error
    ) {
      return previous;
    }
    slot.set(memoKey, next);
    return next;
  }

  /** What the rows `read` visited say in `entitiesMeta`, found once per read and meta map. */
  private rowsOf(read: ReadResult | undefined, entitiesMeta: Dict<Dict<WriteMeta>>): RowFacts {
    if (!read) return NO_ROWS;
    const metaId = tableId(entitiesMeta);
    const cached = this.facts.get(read);
    if (cached && cached.meta === metaId) return cached;
    const facts: RowFacts = { meta: metaId, expiresAt: Infinity, unsure: false };
    read.someDep((table, key) => {
      const rowMeta = entitiesMeta[table]?.[key];
      if (rowMeta && rowMeta.expiresAt < facts.expiresAt) facts.expiresAt = rowMeta.expiresAt;
      if (rowMeta?.ambiguous) facts.unsure = true;
      return false;
    });
    this.facts.set(read, facts);
    return facts;
  }

  private errorOf(record: ErrorRecord): Error {
    let error = this.errors.get(record);
    if (!error) this.errors.set(record, (error = fromErrorRecord(record)));
    return error;
  }
}

/**
 * Whether a read that came out deleted reached a row a pending optimistic guess deleted: its
 * readers must not refetch it, the deletion is not the server's yet (docs/mutations.md).
 */
function deletedByGuess(read: ReadResult | undefined, state: CacheState): boolean {
  return (
    read?.someDep((table, key, row) => row === null && state.entitiesMeta[table]?.[key]?.optimistic === true) ?? false
  );
}

/** A key is usable when defined and, for object keys, every member is, recursively. */
function isUsableKey(key: unknown): boolean {
  if (key === undefined) return false;
  if (typeof key !== 'object' || key === null || Array.isArray(key)) return true;
  return Object.values(key).every(isUsableKey);
}
