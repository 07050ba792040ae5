/**
 * A seeded model test of the write side (docs/mutations.md, docs/architecture.md "Ordering",
 * docs/gc.md): random schedules of reads, list refetches, mutations with and without guesses,
 * updaters, aborts, failures, invalidations, resets, sweeps at gcTime 0 and replacements of the
 * slice (a hydration with a server render of an earlier moment), answered in random
 * order by a simulated server that applies each request at one moment between its start and its
 * answer. Both stores join answers with `bursts()`: those of one task, and, in the schedules with
 * an even seed, those within a 30 ms window that passes at random steps (an answer delivered then
 * waits while other steps run).
 *
 * Every schedule runs on two stores at once: A, whose mutations show guesses, and B, the same
 * app without guesses. After every step:
 * - A's confirmed state (its ledger's) equals B's state: guesses leave no trace (A's sweeps may
 *   keep a row B's let go, the confirmed row under a pending guess, with the value B last had);
 * - what A shows equals A's confirmed state with its pending guesses applied in start order, each
 *   computed over the ones before it (a small interpreter of the guesses below, not the library's code).
 * Once every request has settled, every cached post equals the server's (or is absent/deleted).
 *
 * The server answers in any order, mutations too: two overlapping mutation answers that disagree on
 * a post leave it unsure (shown, stale), and once everything settled the reads the cache itself
 * starts (`fetchIfStale` of every stored response) settle the doubt in one round; the extra reads
 * this costs are counted (MODEL_STATS=1). A server-side change the app learns at once (the updater
 * step) is only taken while no applied mutation of that post is still unanswered, or answered but
 * still waiting in a window.
 */

import { configureStore } from '@reduxjs/toolkit';
import {
  bursts,
  Collection,
  createLeanCache,
  Entity,
  garbageCollection,
  liveData,
  optimisticUpdates,
  pagination,
  retries,
  Invalidate,
  RestEndpoint,
  type Cache,
  type EndpointLike,
} from '../../src/index';
import { internalsOf } from '../../src/store/createCache';
import { runtimeOf, ledgerOf, confirmedOf as confirmedIn } from '../fixtures/runtime';
import { random } from '../fixtures/random';

const SCHEDULES = Number(process.env.MODEL_SCHEDULES ?? 2000);
/** The bursts window of the schedules with even seeds, in ms. */
const WINDOW = 30;
const HYDRATE = '__NEXT_REDUX_WRAPPER_HYDRATE__';
const STEPS = 30;
const IDS = ['1', '2', '3', '4'];

class Post extends Entity {
  id = '';
  title = '';
  count = 0;
  static override key = 'Post';
}

interface ServerPost {
  id: string;
  title: string;
  count: number;
}

type Kind = 'getPost' | 'getList' | 'update' | 'increment' | 'remove';
/** Posts per page of the list (the server pages by offset). */
const PAGE = 2;
const MUTATIONS = new Set<Kind>(['update', 'increment', 'remove']);

/** One request, sent by both stores: the server serves (or applies) it once, both get the same answer. */
interface Req {
  n: number;
  kind: Kind;
  id?: string;
  title?: string;
  guess: boolean;
  phase: 'sent' | 'served' | 'done';
  ok?: boolean;
  response?: unknown;
  servedAt?: number;
  /** For a page of the list: its offset. */
  offset?: number;
  settle: { resolve(value: unknown): void; reject(error: unknown): void }[];
  promises: { abort(): void; catch(f: () => void): Promise<unknown> }[];
  /** Set when a reset dropped it: its answer is ignored by the stores. */
  dropped?: boolean;
}

const flush = () => new Promise<void>(resolve => setImmediate(resolve));

/** Where the stores' requests reach the model: `side` is the store, `signature` the request. */
type Enter = (side: 'a' | 'b', signature: string, info: Partial<Req>) => Promise<unknown>;

function makeApp(guesses: boolean, side: 'a' | 'b', enter: Enter, window: number) {
  // Every feature, as createCache installs them, and bursts: several answers may land in one task,
  // or, with a window, within it (answers then wait while other steps run).
  const features = [garbageCollection, liveData, optimisticUpdates, retries, pagination, bursts({ window })];
  const cache = createLeanCache({ gcTime: 0, features });
  const store = configureStore({
    // The app's root reducer puts a server-rendered slice in place, as next-redux-wrapper's HYDRATE.
    reducer: (state: { cache: unknown } | undefined, action: { type: string; payload?: unknown }) =>
      action.type === HYDRATE ? { cache: action.payload } : { cache: cache.reducer(state?.cache as never, action) },
    middleware: getDefault => getDefault({ serializableCheck: false, immutableCheck: false }).concat(cache.middleware),
  });
  const endpoint = (kind: Kind, schema: unknown, extra: Partial<EndpointLike> = {}): EndpointLike => ({
    key: (...args: unknown[]) => `${kind} ${JSON.stringify(args)}`,
    schema,
    sideEffect: MUTATIONS.has(kind) || undefined,
    fetch: (...args: unknown[]) => {
      const { id } = args[0] as { id: string };
      const title = (args[1] as { title?: string } | undefined)?.title;
      return enter(side, `${kind} ${JSON.stringify(args)}`, { kind, id, ...(title === undefined ? {} : { title }) });
    },
    ...extra,
  });
  // The list is a RestEndpoint that pages by offset: its requests go through `fetch` (stubbed below).
  const list = new RestEndpoint({
    urlPrefix: `http://${side}.test`,
    path: '/posts',
    searchParams: {} as { cursor?: string },
    schema: { results: new Collection([Post]), next: '' as string | null },
    paginationField: 'cursor',
  });
  const guesses_ = {
    update: (_: unknown, { id }: { id: string }, body: { title: string }) => ({ id, ...body }),
    increment: (snap: { get(s: unknown, a: unknown): Post | undefined }, { id }: { id: string }) => {
      const current = snap.get(Post, { id });
      return current === undefined ? undefined : { id, count: current.count + 1 };
    },
    remove: (_: unknown, { id }: { id: string }) => ({ id }),
  };
  const schemas = { update: Post, increment: Post, remove: new Invalidate(Post) };
  const endpoints: Record<string, EndpointLike> = {
    getPost: endpoint('getPost', Post),
    getList: list as unknown as EndpointLike,
    getPage: list.getPage as unknown as EndpointLike,
  };
  // Each mutation twice: without a guess, and with one (in store A only; B never guesses).
  for (const kind of ['update', 'increment', 'remove'] as const) {
    endpoints[kind] = endpoint(kind, schemas[kind]);
    endpoints[`${kind}+guess`] = endpoint(
      kind,
      schemas[kind],
      guesses ? { getOptimisticResponse: guesses_[kind] as EndpointLike['getOptimisticResponse'] } : {},
    );
  }
  return { cache: cache as Cache, store, endpoints };
}

type App = ReturnType<typeof makeApp>;

function sliceOf(app: App) {
  return internalsOf(app.cache).slice(app.store.getState());
}

function confirmedOf(app: App) {
  const slice = sliceOf(app);
  return confirmedIn(runtimeOf(app.cache, app.store), slice);
}

/** A table as plain JSON (views and null-prototype objects compare as their rows). */
function rowsOf(entities: Record<string, unknown>, table: string): Record<string, unknown> {
  const rows = entities[table] as Record<string, unknown> | undefined;
  return rows === undefined
    ? {}
    : JSON.parse(JSON.stringify(Object.fromEntries(Object.keys(rows).map(k => [k, rows[k]]))));
}

function allTables(entities: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.keys(entities)
      .sort()
      .map(table => [table, rowsOf(entities, table)]),
  );
}

/** B's posts with A's pending guesses on top, in start order (the reference interpreter of the guesses). */
function expectedVisible(confirmed: Record<string, unknown>, pending: Req[]): Record<string, unknown> {
  const rows: Record<string, any> = { ...confirmed };
  for (const req of pending) {
    const id = req.id!;
    const row = rows[id];
    if (req.kind === 'update') rows[id] = row ? { ...row, title: req.title } : { id, title: req.title };
    else if (req.kind === 'remove') rows[id] = null;
    // (A post read back has the class's defaults: a guessed post without a count counts 0.)
    else if (req.kind === 'increment' && row) rows[id] = { ...row, count: (row.count ?? 0) + 1 };
  }
  return rows;
}

async function runSchedule(seed: number): Promise<void> {
  const rand = random(seed);
  const pick = <T>(list: readonly T[]): T | undefined => list[Math.floor(rand() * list.length)];
  const server = new Map<string, ServerPost>(IDS.map(id => [id, { id, title: `t${id}`, count: 0 }]));
  const reqs: Req[] = [];
  const log: string[] = [];
  let n = 0;
  // A request is made once for both stores: each store's k-th call of a signature is the same one.
  const counts = { a: new Map<string, number>(), b: new Map<string, number>() };
  const made = new Map<string, Req>();
  /** The promises of the mutations started, by signature (to abort them). */
  const started = new Map<string, Req['promises']>();
  const enter: Enter = (side, signature, info) => {
    const index = counts[side].get(signature) ?? 0;
    counts[side].set(signature, index + 1);
    let req = made.get(`${signature}#${index}`);
    if (!req) {
      req = { n: n++, kind: 'getPost', guess: false, phase: 'sent', settle: [], promises: [], ...info };
      req.promises = started.get(signature) ?? [];
      req.guess = (info.guess ?? false) || signature.includes('"guess":true');
      made.set(`${signature}#${index}`, req);
      reqs.push(req);
      log.push(`  sent #${req.n} ${signature}`);
    }
    const target = req;
    return new Promise((resolve, reject) => target.settle.push({ resolve, reject }));
  };
  // Every other schedule joins answers within a window of WINDOW ms: those delivered in different
  // steps then land together once it has passed, after resets, hydrations, sweeps or mutations
  // that came between (the window's timer runs at random steps, and whenever answers must land).
  const window = seed % 2 === 0 ? WINDOW : 0;
  const a = makeApp(true, 'a', enter, window);
  const b = makeApp(false, 'b', enter, window);
  /** Lets a window pass: the answers waiting in a burst land (the model's clock moves with it). */
  const windowPasses = () => {
    if (window === 0) return;
    jest.advanceTimersByTime(window);
    clock += window;
    log.push('(the window passes)');
  };
  // The list is on screen (a mounted view holds it); the posts' details are not.
  for (const app of [a, b]) app.cache.retain(app.store, app.endpoints.getList!);
  /** B's slice at some earlier steps, as JSON: what a hydration may put back. */
  const snapshots: string[] = [];
  let replaced = false;
  fetchOf = (url: string) => {
    const { hostname, pathname, searchParams } = new URL(url);
    const offset = Number(searchParams.get('cursor') ?? 0);
    return enter(hostname === 'a.test' ? 'a' : 'b', `GET ${pathname}?${searchParams}`, {
      kind: 'getList',
      offset,
    }).then(
      body => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } }),
      error => new Response(JSON.stringify({ message: error.message }), { status: error.status ?? 500 }),
    );
  };

  /** The stores' promises that have settled: a guess leaves A once its answer has landed there. */
  const settled = new WeakSet<object>();
  const start = (kind: Kind | 'getPage', args: unknown[], guess = false) => {
    const name = guess ? `${kind}+guess` : kind;
    const signature = `${kind} ${JSON.stringify(args)}`;
    const promises: Req['promises'] = [];
    started.set(signature, promises);
    for (const app of [a, b]) {
      const promise = app.store.dispatch(app.cache.fetch(app.endpoints[name]!, ...args) as never) as Req['promises'][0];
      // (Settled once its answer has landed: with a window, some time after it was delivered.)
      void promise.catch(() => undefined).then(() => settled.add(promise));
      promises.push(promise);
    }
    log.push(`start ${signature}${guess ? ' (guess)' : ''}`);
  };

  const serve = (req: Req) => {
    req.phase = 'served';
    req.servedAt = n++;
    const post = req.id === undefined ? undefined : server.get(req.id);
    if (req.kind === 'getList') {
      const posts = [...server.values()];
      const offset = req.offset ?? 0;
      req.ok = true;
      req.response = {
        results: posts.slice(offset, offset + PAGE).map(p => ({ ...p })),
        next: offset + PAGE < posts.length ? String(offset + PAGE) : null,
      };
    } else if (!post) {
      req.ok = false;
    } else if (req.kind === 'getPost') {
      req.ok = true;
      req.response = { ...post };
    } else if (req.kind === 'update') {
      post.title = req.title!;
      req.ok = true;
      req.response = { ...post };
    } else if (req.kind === 'increment') {
      post.count++;
      req.ok = true;
      req.response = { ...post };
    } else {
      server.delete(req.id!);
      req.ok = true;
      req.response = { id: req.id };
    }
    log.push(`serve #${req.n}`);
  };

  const deliver = (req: Req) => {
    req.phase = 'done';
    for (const { resolve, reject } of req.settle) {
      if (req.ok) resolve(JSON.parse(JSON.stringify(req.response)));
      else reject(Object.assign(new Error('Not found'), { status: 404 }));
    }
    log.push(`answer #${req.n}${req.ok ? '' : ' (404)'}`);
  };

  const fail = (req: Req) => {
    req.phase = 'done';
    for (const { reject } of req.settle) reject(Object.assign(new Error('Server error'), { status: 500 }));
    log.push(`fail #${req.n}`);
  };

  /** Served requests are answered in any order, mutations too (not only in the order they were applied). */
  const deliverable = () => reqs.filter(r => r.phase === 'served');

  /** B's rows as last seen, by table: a row A keeps after B swept it must be that very value. */
  const lastB: Record<string, Record<string, unknown>> = {};
  const check = (where: string) => {
    // The list's record of its pages (docs/architecture.md, "State shape").
    const record = sliceOf(a).entities['Pages([Post])']?.['{}'] as { pages?: unknown[] } | undefined;
    if (record?.pages?.length) stats.held++;
    const confirmedA = allTables(confirmedOf(a).entities as never) as Record<string, Record<string, unknown>>;
    const stateB = allTables(sliceOf(b).entities as never) as Record<string, Record<string, unknown>>;
    const fail = (what: string, got: unknown, want: unknown) => {
      throw new Error(
        `seed ${seed}, ${where}: ${what}\n  got  ${JSON.stringify(got)}\n  want ${JSON.stringify(want)}\n${log.join('\n')}`,
      );
    };
    // A's confirmed state is B's, except rows A's sweeps kept and B's let go: a sweep keeps the
    // confirmed rows under a pending guess (a rollback shows them again, docs/gc.md).
    for (const table of new Set([...Object.keys(confirmedA), ...Object.keys(stateB)])) {
      const rowsA = confirmedA[table] ?? {};
      const rowsB = stateB[table] ?? {};
      for (const key of new Set([...Object.keys(rowsA), ...Object.keys(rowsB)])) {
        const want = key in rowsB ? rowsB[key] : lastB[table]?.[key];
        if (!(key in rowsA) && !(key in rowsB)) continue;
        if (!(key in rowsA) || JSON.stringify(rowsA[key]) !== JSON.stringify(want))
          fail(`A confirmed ≠ B at ${table} ${key}`, rowsA[key], rowsB[key]);
      }
      Object.assign((lastB[table] ??= {}), rowsB);
    }
    // A's guesses whose answer has not landed yet (delivered ones may still wait in a window).
    const pending = reqs
      .filter(r => r.guess && !r.dropped && !(r.phase === 'done' && settled.has(r.promises[0]!)))
      .sort((x, y) => x.n - y.n);
    const want = expectedVisible(confirmedA.Post ?? {}, pending);
    const got = rowsOf(sliceOf(a).entities as never, 'Post');
    if (JSON.stringify(sorted(got)) !== JSON.stringify(sorted(want)))
      fail('A visible ≠ A confirmed + guesses', got, want);
  };

  // The list is on screen from the start, often with its second page loaded too.
  for (const load of rand() < 0.6 ? ['getList', 'getPage'] : ['getList']) {
    start(load as 'getList' | 'getPage', load === 'getList' ? [] : [{ cursor: String(PAGE) }]);
    await flush();
    for (const req of reqs.filter(r => r.phase === 'sent')) serve(req);
    for (const req of reqs.filter(r => r.phase === 'served')) deliver(req);
    await flush();
  }
  for (let step = 0; step < STEPS; step++) {
    jest.setSystemTime((clock += 400));
    const roll = rand();
    if (rand() < 0.2) snapshots.push(JSON.stringify(sliceOf(b)));
    const id = pick(IDS)!;
    const sent = reqs.filter(r => r.phase === 'sent' && !r.dropped && r.settle.length > 0);
    if (roll < 0.08) start('getPost', [{ id }]);
    // The list (a refetch fetches again every page it holds), or its next page ("load more").
    else if (roll < 0.15) start('getList', []);
    // ("Load more" shows once the list is there.)
    else if (roll < 0.21 && sliceOf(a).endpoints[a.endpoints.getList!.key()] !== undefined)
      start('getPage', [{ cursor: String(PAGE) }]);
    else if (roll < 0.34) {
      const kind = pick(['update', 'increment', 'remove'] as const)!;
      const guess = rand() < 0.7;
      // (`n` makes each mutation's request its own; the guesses read only `id`.)
      const params = { id, n: n++, guess };
      start(kind, kind === 'update' ? [params, { title: `x${n}` }] : [params], guess);
    } else if (roll < 0.5 && sent.length > 0) serve(pick(sent)!);
    else if (roll < 0.7 && deliverable().length > 0) {
      // Now and then several answers land in one task: one write for all (the bursts feature).
      const count = rand() < 0.3 ? 3 : 1;
      for (let i = 0; i < count && deliverable().length > 0; i++) deliver(pick(deliverable())!);
      if (count > 1) log.push('(one task)');
    } else if (roll < 0.75 && sent.length > 0) fail(pick(sent)!);
    else if (roll < 0.79) {
      const req = pick(sent.filter(r => MUTATIONS.has(r.kind)));
      if (req) {
        req.phase = 'done';
        for (const promise of req.promises) promise.abort();
        log.push(`abort #${req.n}`);
      }
    } else if (roll < 0.85) {
      const post = server.get(id);
      // (Answered but not landed counts too: with a window, an answer waits before it lands.)
      const busy = reqs.some(
        r =>
          MUTATIONS.has(r.kind) &&
          r.id === id &&
          !r.dropped &&
          (r.phase === 'served' || (r.phase === 'done' && r.ok === true && !r.promises.every(p => settled.has(p)))),
      );
      // The app learns of a server-side change at once and edits the cached post with an updater.
      if (post && !busy && rowsOf(sliceOf(b).entities as never, 'Post')[id]) {
        post.title = `u${n++}`;
        const title = post.title;
        for (const app of [a, b])
          app.store.dispatch(app.cache.set(Post, { id }, (draft: Post) => void (draft.title = title)) as never);
        log.push(`updater ${id} → ${title}`);
      }
    } else if (roll < 0.9) {
      const list = rand() < 0.3;
      for (const app of [a, b])
        app.store.dispatch(
          (list
            ? app.cache.invalidate(app.endpoints.getList!)
            : app.cache.invalidate(app.endpoints.getPost!, { id })) as never,
        );
      log.push(list ? 'invalidate getList' : `invalidate getPost ${id}`);
    } else if (roll < 0.93) {
      for (const app of [a, b]) app.store.dispatch(app.cache.resetEntireStore() as never);
      // Requests the server has not seen yet never reach it; the stores drop every answer.
      for (const req of reqs) {
        if (req.phase === 'sent') req.phase = 'done';
        req.dropped = true;
      }
      log.push('reset');
    } else if (roll < 0.96) {
      // The slice is replaced from outside by a server render of some earlier moment (B's state
      // then, as JSON); guesses pending in A are rebased on it, and requests in flight go on.
      const snapshot = pick(snapshots) ?? JSON.stringify(sliceOf(b));
      // (Each store's list is keyed by its own host.)
      a.store.dispatch({ type: HYDRATE, payload: JSON.parse(snapshot.replaceAll('http://b.test', 'http://a.test')) });
      b.store.dispatch({ type: HYDRATE, payload: JSON.parse(snapshot) });
      replaced = true;
      log.push('replace the slice (hydration)');
    } else if (!process.env.MODEL_NO_SWEEP) {
      for (const app of [a, b]) app.cache.gc(app.store);
      log.push('sweep');
    }
    if (window > 0 && rand() < 0.4) windowPasses();
    await flush();
    if (process.env.MODEL_DEBUG)
      log.push(
        `   pending=${ledgerOf(runtimeOf(a.cache, a.store)).layers.length} A=${JSON.stringify(allTables(confirmedOf(a).entities as never))} B=${JSON.stringify(allTables(sliceOf(b).entities as never))}`,
      );
    check(`after step ${step}`);
  }
  /**
   * Lets every answer delivered (and every failure) land before the schedule asks what is left:
   * with a window, they wait for it; the list's answers are Responses, whose bodies take a few
   * turns to read before they reach the window.
   */
  const landAll = async () => {
    for (let turn = 0; turn < (window ? 3 : 1); turn++) {
      await flush();
      windowPasses();
    }
    await flush();
  };
  /** Serves and answers every request in flight, in random order, checking after each. */
  const settleAll = async (where: string) => {
    for (;;) {
      jest.setSystemTime((clock += 400));
      const sent = reqs.filter(r => r.phase === 'sent');
      const ready = deliverable();
      if (sent.length === 0 && ready.length === 0) break;
      if (sent.length > 0 && (ready.length === 0 || rand() < 0.5)) serve(pick(sent)!);
      // (Now and then several in one task, as above.)
      else for (let i = rand() < 0.3 ? 3 : 1; i > 0 && deliverable().length > 0; i--) deliver(pick(deliverable())!);
      await landAll();
      check(where);
    }
  };
  // Everything settles, in random order (mutation answers too).
  await landAll();
  await settleAll('while settling');
  const unsureNow = Object.values(sliceOf(a).entitiesMeta.Post ?? {}).filter(meta => meta.ambiguous).length;
  stats.unsureRows += unsureNow;
  if (unsureNow > 0) stats.unsureSchedules++;
  // The reads the cache itself starts: what a mounted view of each stored response would fetch
  // (`fetchIfStale`), until nothing is stale; rows the answers left unsure are read again here.
  // (A hydration may have put back data older than the server's, still valid for its time: the
  // app reads it all again, as after coming back to the page.)
  if (replaced) for (const app of [a, b]) app.store.dispatch(app.cache.expireAll({ testKey: () => true }) as never);
  for (let round = 0; round < 5; round++) {
    const before = reqs.length;
    log.push('reads the cache starts');
    for (const app of [a, b]) {
      const ids = IDS.filter(id => sliceOf(app).meta[app.endpoints.getPost!.key({ id })] !== undefined);
      for (const [endpoint, args] of [
        [app.endpoints.getList!, []],
        ...ids.map(id => [app.endpoints.getPost!, [{ id }]] as const),
      ] as const) {
        // A read that is due only to unsure rows (its own expiry is ahead, it was not invalidated):
        // the extra reads this rule costs. One round of them must settle every doubt.
        const key = endpoint.key(...args);
        const meta = sliceOf(app).meta[key];
        const status = app.cache.selectResponse(app.store.getState(), endpoint, ...args).expiryStatus;
        if (status !== 'valid' && meta && !meta.invalidated && !meta.error && meta.expiresAt > Date.now()) {
          if (round > 0) throw new Error(`seed ${seed}: ${key} is still unsure after a read\n${log.join('\n')}`);
          if (app === a) stats.extraReads++;
        }
        const promise = app.store.dispatch(app.cache.fetchIfStale(endpoint, ...args) as never) as Promise<unknown>;
        promise?.catch?.(() => undefined);
      }
    }
    await landAll();
    if (reqs.length === before) break;
    await settleAll('while reading again');
  }
  // Every mutation's answer has landed: each store's promise of it settled, and no guess is left.
  // (Mutations only: a read the cache starts itself shares its signature with earlier ones.)
  const unsettled = reqs.filter(r => MUTATIONS.has(r.kind) && !r.dropped && !r.promises.every(p => settled.has(p)));
  if (unsettled.length > 0 || ledgerOf(runtimeOf(a.cache, a.store)).layers.length > 0)
    throw new Error(
      `seed ${seed}: requests never settled: ${unsettled.map(r => `#${r.n}`).join(' ')}\n${log.join('\n')}`,
    );
  stats.unsureLeft += Object.values(sliceOf(a).entitiesMeta.Post ?? {}).filter(meta => meta.ambiguous).length;
  if (process.env.MODEL_SHOW === String(seed)) throw new Error(log.join('\n'));
  stats.pageLoads += log.filter(line => line.startsWith('start getPage')).length;
  // A page sent by a refetch of the list (not right after a "load more" started).
  stats.pageRefetches += log.filter(
    (line, i) => line.includes('sent') && line.includes('cursor=') && !log[i - 1]!.startsWith('start getPage'),
  ).length;
  stats.sweeps += log.filter(line => line === 'sweep').length;
  stats.replacements += log.filter(line => line.startsWith('replace')).length;
  stats.guesses += log.filter(line => line.endsWith('(guess)')).length;
  // A hydration may have put back a post the server has deleted since, which no read brings back
  // to the server's state (a list refetch does not delete): the app's sweep drops what nobody reads.
  // (Keys a hydration brought are unknown to the store: a first sweep starts their time.)
  for (let sweep = 0; replaced && sweep < 2; sweep++) {
    jest.setSystemTime((clock += 5_000));
    for (const app of [a, b]) app.cache.gc(app.store);
  }
  const cached = rowsOf(sliceOf(a).entities as never, 'Post');
  for (const [id, row] of Object.entries(cached)) {
    const post = server.get(id);
    // A row no stored response reads may stay unsure: shown, but never called valid.
    if (sliceOf(a).entitiesMeta.Post?.[id]?.ambiguous) continue;
    if (row === null ? post === undefined : JSON.stringify(row) === JSON.stringify(post)) continue;
    throw new Error(
      `seed ${seed}: once settled, post ${id} is ${JSON.stringify(row)} but the server has ${JSON.stringify(post)}\n${log.join('\n')}`,
    );
  }
}

function sorted(rows: Record<string, unknown>): unknown {
  return Object.fromEntries(
    Object.keys(rows)
      .sort()
      .map(key => [key, rows[key]]),
  );
}

let clock = 1_000_000;
/** What the schedules did, counted (printed with MODEL_STATS=1). */
const stats = {
  pageLoads: 0,
  pageRefetches: 0,
  sweeps: 0,
  guesses: 0,
  held: 0,
  replacements: 0,
  unsureSchedules: 0,
  unsureRows: 0,
  extraReads: 0,
  unsureLeft: 0,
};
/** The stubbed `fetch` of the running schedule (the list's RestEndpoint calls it). */
let fetchOf: (url: string) => Promise<Response> = () => Promise.reject(new Error('no schedule is running'));

test(`write order: ${SCHEDULES} random schedules against a simulated server`, async () => {
  // The clock is the model's. Sweeps run at the schedule's sweep steps, and in the schedules with
  // a window also on their timers, which fire when the window passes (both stores alike).
  jest.useFakeTimers({ doNotFake: ['setImmediate', 'queueMicrotask', 'nextTick'], now: clock });
  const realFetch = globalThis.fetch;
  globalThis.fetch = ((url: string) => fetchOf(String(url))) as typeof fetch;
  try {
    const first = Number(process.env.MODEL_SEED ?? 1);
    for (let seed = first; seed < first + SCHEDULES; seed++) await runSchedule(seed);
  } finally {
    jest.useRealTimers();
    globalThis.fetch = realFetch;
  }
  if (process.env.MODEL_STATS) console.log(stats);
}, 600_000);
