/**
 * A seeded model test of the outbox (docs/outbox.md) against a simulated server, in the manner of
 * writeOrder.model.test.ts: random schedules of edits (a title set, a count incremented, both with
 * guesses; some of a post the server does not have, which it refuses), reads, the server serving
 * and answering requests in any order, offline periods (requests not yet served fail as the
 * network does) and reloads (the page goes with every request it had not had served; a new store
 * and cache read the same storage).
 *
 * After every step:
 * - the storage holds exactly the edits not yet answered, in the order they were made;
 * - what the store shows is its confirmed state with those edits' guesses applied in order (a
 *   small interpreter of the guesses below, not the library's code).
 * Once online and everything settled: the server applied every edit of a post it has exactly
 * once, in the order made, and refused the others (each told to `onError` once); the outbox and
 * its storage are empty; every cached post equals the server's, none unsure.
 */
import { configureStore } from '@reduxjs/toolkit';
import {
  createLeanCache,
  Entity,
  garbageCollection,
  optimisticUpdates,
  outbox,
  type EndpointLike,
} from '../../src/index';
import { internalsOf } from '../../src/store/createCache';
import { confirmedOf, runtimeOf } from '../fixtures/runtime';
import { random } from '../fixtures/random';

const SCHEDULES = Number(process.env.MODEL_SCHEDULES ?? 300);
const STEPS = 40;
const IDS = ['1', '2', '3'];
/** A post the server does not have: its edits are refused (404). */
const MISSING = '9';

class Post extends Entity {
  id = '';
  title = '';
  count = 0;
  static override key = 'Post';
}

type Kind = 'getPost' | 'update' | 'increment';

interface Edit {
  n: number;
  kind: 'update' | 'increment';
  id: string;
  title?: string;
  /** Answered or refused: it left the outbox. */
  ended?: boolean;
}

/** One request that reached the network. */
interface Req {
  kind: Kind;
  id: string;
  n?: number;
  title?: string;
  visit: number;
  phase: 'sent' | 'served' | 'done';
  ok?: boolean;
  response?: unknown;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

const flush = () => new Promise<void>(resolve => setImmediate(resolve));

const stats = { schedules: 0, edits: 0, refused: 0, reloads: 0, offline: 0, resent: 0 };

async function runSchedule(seed: number): Promise<void> {
  const rand = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const server = new Map(IDS.map(id => [id, { id, title: `t${id}`, count: 0 }]));
  const applied: number[] = [];
  const edits: Edit[] = [];
  const reqs: Req[] = [];
  const log: string[] = [];
  const items = new Map<string, string>();
  const storage = {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
  };
  const errors: unknown[] = [];
  let online = rand() < 0.5;
  let visit = 0;
  let n = 0;

  /** One visit of the page: its own cache and store, the outbox reading the shared storage. */
  const open = () => {
    const here = visit;
    const resumes = new Set<() => void>();
    const enter = (kind: Kind, args: unknown[]) =>
      new Promise((resolve, reject) => {
        const { id, n: editN } = args[0] as { id: string; n?: number };
        const title = (args[1] as { title?: string } | undefined)?.title;
        // Offline, a request fails at once, as fetch does without a network.
        if (!online) return reject(new TypeError('Failed to fetch'));
        reqs.push({ kind, id, n: editN, title, visit: here, phase: 'sent', resolve, reject });
        log.push(`  sent ${kind} ${id}${editN === undefined ? '' : ` #${editN}`}`);
      });
    const endpoint = (kind: Kind, extra: Partial<EndpointLike> = {}): EndpointLike => ({
      key: (...args: unknown[]) => `${kind} ${JSON.stringify(args)}`,
      schema: Post,
      sideEffect: kind === 'getPost' ? undefined : true,
      fetch: (...args: unknown[]) => enter(kind, args),
      ...extra,
    });
    const endpoints = {
      getPost: endpoint('getPost'),
      update: endpoint('update', {
        getOptimisticResponse: (_snap: unknown, { id }: { id: string }, { title }: { title: string }) => ({
          id,
          title,
        }),
      } as Partial<EndpointLike>),
      increment: endpoint('increment', {
        getOptimisticResponse: (snap: { get(s: unknown, a: unknown): Post | undefined }, { id }: { id: string }) => {
          const current = snap.get(Post, { id });
          return current === undefined ? undefined : { id, count: current.count + 1 };
        },
      } as Partial<EndpointLike>),
    };
    const box = outbox({
      endpoints: { update: endpoints.update, increment: endpoints.increment },
      storage,
      isOnline: () => online,
      onOnline: resume => (resumes.add(resume), () => void resumes.delete(resume)),
      onError: error => errors.push(error),
    });
    const cache = createLeanCache({ features: [garbageCollection, optimisticUpdates, box] });
    const store = configureStore({
      reducer: { [cache.reducerPath]: cache.reducer },
      middleware: getDefault =>
        getDefault({ serializableCheck: false, immutableCheck: false }).concat(cache.middleware),
    });
    return { box, cache, store, endpoints, resumes };
  };
  let page = open();

  const slice = () => internalsOf(page.cache).slice(page.store.getState());
  const rows = (entities: Record<string, unknown>) => {
    const table = (entities.Post ?? {}) as Record<string, unknown>;
    return JSON.parse(JSON.stringify(Object.fromEntries(Object.keys(table).map(key => [key, table[key]])))) as Record<
      string,
      { id: string; title?: string; count?: number } | null
    >;
  };
  const fail = (what: string, got: unknown, want: unknown): never => {
    throw new Error(
      `seed ${seed}: ${what}\n  got  ${JSON.stringify(got)}\n  want ${JSON.stringify(want)}\n${log.join('\n')}`,
    );
  };

  const check = (where: string) => {
    const pending = edits.filter(edit => !edit.ended);
    const stored = (JSON.parse(items.get('lenscache:outbox:cache') ?? '[]') as { args: [{ n: number }] }[]).map(
      entry => entry.args[0].n,
    );
    if (JSON.stringify(stored) !== JSON.stringify(pending.map(edit => edit.n)))
      fail(
        `${where}: the storage ≠ the edits not answered`,
        stored,
        pending.map(edit => edit.n),
      );
    if (page.box.waiting(page.store) !== pending.length)
      fail(`${where}: waiting ≠ the edits not answered`, page.box.waiting(page.store), pending.length);
    // What the store shows: its confirmed rows with the pending guesses over them, in order.
    const want = rows(confirmedOf(runtimeOf(page.cache, page.store), slice()).entities as never);
    for (const edit of pending) {
      const row = want[edit.id];
      if (edit.kind === 'update')
        want[edit.id] = row ? { ...row, title: edit.title } : { id: edit.id, title: edit.title };
      else if (row) want[edit.id] = { ...row, count: (row.count ?? 0) + 1 };
    }
    const got = rows(slice().entities as never);
    if (JSON.stringify(sorted(got)) !== JSON.stringify(sorted(want)))
      fail(`${where}: shown ≠ confirmed + guesses`, got, want);
  };

  const serve = (req: Req) => {
    req.phase = 'served';
    const post = server.get(req.id);
    if (!post) req.ok = false;
    else {
      if (req.kind === 'update') post.title = req.title!;
      if (req.kind === 'increment') post.count++;
      if (req.kind !== 'getPost') applied.push(req.n!);
      req.ok = true;
      req.response = { ...post };
    }
    log.push(`serve ${req.kind} ${req.id}${req.n === undefined ? '' : ` #${req.n}`}`);
  };
  const deliver = (req: Req) => {
    req.phase = 'done';
    if (req.n !== undefined) edits.find(edit => edit.n === req.n)!.ended = true;
    if (req.ok) req.resolve(JSON.parse(JSON.stringify(req.response)));
    else req.reject(Object.assign(new Error('Not found'), { status: 404 }));
    log.push(`answer ${req.kind} ${req.id}${req.ok ? '' : ' (404)'}`);
  };
  const mine = (phase: Req['phase']) => reqs.filter(req => req.visit === visit && req.phase === phase);

  await flush();
  for (let step = 0; step < STEPS; step++) {
    const roll = rand();
    if (roll < 0.3) {
      const kind = rand() < 0.6 ? 'update' : 'increment';
      const id = rand() < 0.1 ? MISSING : pick(IDS);
      const edit: Edit = { n: n++, kind, id, ...(kind === 'update' ? { title: `x${n}` } : {}) };
      edits.push(edit);
      const args = kind === 'update' ? [{ id, n: edit.n }, { title: edit.title }] : [{ id, n: edit.n }];
      const promise = page.store.dispatch(page.cache.fetch(page.endpoints[kind], ...args) as never) as Promise<unknown>;
      promise.catch(() => undefined);
      log.push(`edit #${edit.n} ${kind} ${id}${edit.title ? ` ${edit.title}` : ''}${online ? '' : ' (offline)'}`);
    } else if (roll < 0.42) {
      const id = pick(IDS);
      const promise = page.store.dispatch(
        page.cache.fetch(page.endpoints.getPost, { id }) as never,
      ) as Promise<unknown>;
      promise.catch(() => undefined);
      log.push(`read ${id}`);
    } else if (roll < 0.6 && mine('sent').length > 0) serve(pick(mine('sent')));
    else if (roll < 0.8 && mine('served').length > 0) deliver(pick(mine('served')));
    else if (roll < 0.86 && online) {
      online = false;
      stats.offline++;
      // What the server has not received yet never reaches it.
      for (const req of mine('sent')) {
        req.phase = 'done';
        if (req.n !== undefined) stats.resent++;
        req.reject(new TypeError('Failed to fetch'));
      }
      log.push('offline');
    } else if (roll < 0.93 && !online) {
      online = true;
      for (const resume of page.resumes) resume();
      log.push('online');
    } else if (roll < 0.97 && mine('served').length === 0) {
      // The page goes: its requests not served never reach the server, and are never answered.
      for (const req of mine('sent')) req.phase = 'done';
      visit++;
      stats.reloads++;
      page = open();
      log.push('reload');
    }
    await flush();
    check(`after step ${step}`);
  }
  // Back online, every request served and answered, in random order.
  if (!online) {
    online = true;
    for (const resume of page.resumes) resume();
    log.push('online');
  }
  for (let round = 0; ; round++) {
    await flush();
    const sent = mine('sent');
    const served = mine('served');
    if (sent.length === 0 && served.length === 0) break;
    if (round > 10_000) fail('never settles', reqs.length, 0);
    if (sent.length > 0 && (served.length === 0 || rand() < 0.5)) serve(pick(sent));
    else deliver(pick(served));
    await flush();
    check('while settling');
  }
  const kept = edits.filter(edit => edit.id !== MISSING).map(edit => edit.n);
  if (JSON.stringify(applied) !== JSON.stringify(kept))
    fail('the server applied ≠ the edits, once each in order', applied, kept);
  const refused = edits.length - kept.length;
  if (errors.length !== refused) fail('refusals told to onError', errors.length, refused);
  if (page.box.waiting(page.store) !== 0 || items.get('lenscache:outbox:cache') !== '[]')
    if (edits.length > 0) fail('the outbox is not empty', items.get('lenscache:outbox:cache'), '[]');
  const cached = rows(slice().entities as never);
  for (const [id, row] of Object.entries(cached)) {
    if (slice().entitiesMeta.Post?.[id]?.ambiguous) fail(`post ${id} is unsure`, slice().entitiesMeta.Post?.[id], {});
    if (JSON.stringify(row) !== JSON.stringify(server.get(id))) fail(`post ${id} ≠ the server's`, row, server.get(id));
  }
  stats.schedules++;
  stats.edits += edits.length;
  stats.refused += refused;
}

function sorted(rows: Record<string, unknown>): unknown {
  return Object.fromEntries(
    Object.keys(rows)
      .sort()
      .map(key => [key, rows[key]]),
  );
}

test(`outbox: ${SCHEDULES} random schedules with offline periods and reloads against a simulated server`, async () => {
  const first = Number(process.env.MODEL_SEED ?? 1);
  for (let seed = first; seed < first + SCHEDULES; seed++) await runSchedule(seed);
  if (process.env.MODEL_STATS) console.log(stats);
  expect(stats.schedules).toBe(SCHEDULES);
}, 600_000);
