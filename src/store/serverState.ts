/**
 * Server state into the browser's store (docs/server-rendering.md): `serializeState` writes state
 * as text safe inside an HTML `<script>`; `streamState` gives, before each chunk of a streamed
 * render, a script with what the server's store wrote since the last one; `receiveState` merges
 * those scripts into the browser's store (`hydrate`), the ones that ran before it and the ones
 * that run after. An app that renders on the client only carries none of it.
 */

import { describe, setupError } from '../base/errors.js';
import type { CacheState } from '../base/state.js';
import type { Cache } from './Cache.js';
import { ActionTypes } from './slice/reducer.js';
import { RUNTIMES, thunk, type CacheThunk } from './slice/middleware.js';
import type { StoreRuntime } from './runtime/StoreRuntime.js';
import type { StoreLike } from './types.js';
import { computeHydrate } from './writes/hydrate.js';

/**
 * Merges state from outside (a server render's slice, or a part of one a streamed render sent)
 * into the store `cache` is mounted in: each response and row the store lacks, or holds from an
 * earlier start, is taken with its meta; what it holds newer stays, and pending guesses are kept
 * on top (docs/server-rendering.md). Bad input is UNEXPECTED_INPUT, and nothing is written.
 *
 * @example
 * ```ts
 * store.dispatch(hydrate(cache, JSON.parse(text)[cache.reducerPath]));
 * ```
 */
export function hydrate(cache: Pick<Cache<string>, 'reducerPath'>, state: unknown): CacheThunk {
  return thunk(dispatch => {
    const runtimes = dispatch({ type: RUNTIMES }) as StoreRuntime[];
    const runtime = (Array.isArray(runtimes) ? runtimes : []).find(r => r.parts.reducerPath === cache.reducerPath);
    if (!runtime) {
      throw setupError(
        'MIDDLEWARE_MISSING',
        process.env.NODE_ENV !== 'production' && [
          `hydrate found no cache at ${cache.reducerPath} in this store: its middleware is not mounted.`,
          'Add it: configureStore({ ..., middleware: getDefault => getDefault().concat(cache.middleware) }).',
        ],
        cache.reducerPath,
      );
    }
    // The write's start is the latest stamp it took: the store's clock moves past it.
    runtime.write(
      // (A write of rows and responses, as `set` is: one action type fewer in every bundle.)
      ActionTypes.set,
      confirmed => computeHydrate(confirmed, state),
      computed => ({ start: computed && computed.start > -Infinity ? computed.start : undefined }),
    );
  });
}

/** The characters that could end a `<script>` or a JavaScript string early, and their escapes. */
const UNSAFE = /[<>&\u2028\u2029]/g;

/**
 * `value` as JSON text that is safe inside an HTML `<script>` tag: `<`, `>` and `&` are written
 * as `\u003c`, `\u003e` and `\u0026`, and U+2028 and U+2029 escaped, so a string holding
 * `</script><script>…` stays a string. Read it back with `JSON.parse`, or as a JavaScript literal.
 */
export function serializeState(value: unknown): string {
  return (JSON.stringify(value) ?? 'null').replace(UNSAFE, c => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The page's queue of state parts, filled by the scripts `streamState` writes. */
const QUEUE = '__LENSCACHE__';

/** A part of a slice as the scripts carry it: the cache's path, and the maps' changed members. */
interface StatePart {
  path: string;
  state: Partial<CacheState>;
}

const MAPS = ['endpoints', 'meta'] as const;
const TABLES = ['entities', 'entitiesMeta'] as const;

/**
 * A server render's state, streamed: each call of `next()` returns a `<script>` holding what
 * `store`'s cache slice wrote since the call before (everything, the first time), or `''` when
 * nothing changed. Write it into the HTML stream before each chunk React writes, so the data of a
 * Suspense boundary reaches the browser's store before the boundary's HTML does. `code()` is the
 * same without the tags, for a framework that writes the `<script>` element itself (Next.js's
 * `useServerInsertedHTML`, with its own nonce); the two share what was sent.
 */
export function streamState(
  store: StoreLike,
  cache: Pick<Cache<string>, 'reducerPath'>,
  options: { nonce?: string } = {},
): { next(): string; code(): string } {
  let sent: CacheState | undefined;
  const { nonce } = options;
  if (nonce !== undefined && !/^[\w+/=-]+$/.test(nonce)) {
    throw setupError(
      'INVALID_OPTION',
      process.env.NODE_ENV !== 'production' && [
        `streamState({ nonce }) takes a CSP nonce (letters, digits, +, /, =, - and _), but received ${describe(nonce)}.`,
        "Pass the nonce your Content-Security-Policy header names, e.g. streamState(store, cache, { nonce: 'r4nd0m' }).",
      ],
    );
  }
  const open = nonce === undefined ? '<script>' : `<script nonce="${nonce}">`;
  const code = (): string => {
    const slice = (store.getState() as Record<string, CacheState>)[cache.reducerPath]!;
    if (slice === sent) return '';
    const state = changedSince(slice, sent);
    sent = slice;
    if (!state) return '';
    const part: StatePart = { path: cache.reducerPath, state };
    return `(self.${QUEUE}=self.${QUEUE}||[]).push(${serializeState(part)})`;
  };
  return {
    code,
    next() {
      const script = code();
      return script && `${open}${script}</script>`;
    },
  };
}

/** The members of `slice` that are not the same objects in `before`; `undefined` when none. */
function changedSince(slice: CacheState, before: CacheState | undefined): Partial<CacheState> | undefined {
  const part: Record<string, Record<string, unknown>> = {};
  let any = false;
  for (const name of MAPS) {
    for (const key of Object.keys(slice[name])) {
      const value = slice[name][key];
      if (value === before?.[name][key]) continue;
      (part[name] ??= {})[key] = value;
      any = true;
    }
  }
  for (const name of TABLES) {
    for (const table of Object.keys(slice[name])) {
      const rows = slice[name][table]!;
      const old = before?.[name][table];
      if (rows === old) continue;
      for (const key of Object.keys(rows)) {
        const value = rows[key];
        if (value === old?.[key]) continue;
        const tables = (part[name] ??= {}) as Record<string, Record<string, unknown>>;
        (tables[table] ??= {})[key] = value;
        any = true;
      }
    }
  }
  return any ? (part as Partial<CacheState>) : undefined;
}

/**
 * Merges into `store` (the browser's) every state part the page's scripts have queued for this
 * cache, then each one that arrives later, as it arrives (`hydrate`: what the store holds
 * newer stays). Call it once, before `hydrateRoot`. Returns the removal of the listener.
 */
export function receiveState(store: StoreLike, cache: Pick<Cache<string>, 'reducerPath'>): () => void {
  const page = globalThis as unknown as Record<string, StatePart[] | undefined>;
  const queue = (page[QUEUE] ??= []);
  const take = (part: StatePart): void => {
    if (part?.path === cache.reducerPath) store.dispatch(hydrate(cache, part.state));
  };
  for (const part of queue) take(part);
  // Parts that arrive later still go into the queue (a cache that calls this later takes them
  // from there), and to this store at once.
  const previous = queue.push;
  queue.push = function (this: StatePart[], ...parts: StatePart[]): number {
    const length = previous.apply(this, parts);
    for (const part of parts) take(part);
    return length;
  };
  return () => void (queue.push = previous);
}
