/**
 * A seeded model test of a list read at several lenses (docs/pagination.md, "A list read at
 * several lenses"): random schedules of first reads, "load more" and refetches at three
 * portfolios, answered in random order by a simulated server whose weights differ per
 * portfolio. Once every request has settled and the mounted reads have fetched what they find
 * not fresh (`fetchIfStale` at every portfolio, as `useSuspense` does, until nothing more is
 * sent), every portfolio's read shows every row of the list with that portfolio's own weight,
 * never a row without one, and a further round sends nothing (no refetch without end).
 */
import { configureStore } from '@reduxjs/toolkit';
import { Collection, createCache, Entity, firstPageOnly, RestEndpoint, Scalar, type LensArgs } from '../../src/index';
import { random } from '../fixtures/random';

const SCHEDULES = Number(process.env.MODEL_SCHEDULES ?? 300);
const PORTFOLIOS = ['A', 'B', 'C'] as const;
const PAGE = 2;
const ROWS = 8;

class Bond extends Entity {
  id = '';
  weight = 0;
  static override key = 'ModelBond';
  declare static schema: { weight: Scalar };
}
const weightScalar = new Scalar({
  lens: (args: LensArgs<{ portfolio?: string }>) => args[0]?.portfolio,
  key: 'modelBondWeight',
});
Bond.schema = { weight: weightScalar };

/** The server's weight of a bond at a portfolio. */
const weight = (portfolio: string, id: string) => Number(id) * 10 + PORTFOLIOS.indexOf(portfolio as never);

interface Pending {
  url: URL;
  resolve: (response: Response) => void;
}

function makeApp() {
  const pending: Pending[] = [];
  const fetchStub = (input: RequestInfo | URL): Promise<Response> => {
    const url = new URL(String(input));
    return new Promise(resolve => pending.push({ url, resolve }));
  };
  const answer = ({ url, resolve }: Pending) => {
    const portfolio = url.searchParams.get('portfolio') ?? '';
    const start = Number(url.searchParams.get('cursor') ?? 0);
    const results = Array.from({ length: PAGE }, (_, i) => String(start + i + 1)).map(id => ({
      id,
      weight: weight(portfolio, id),
    }));
    const body = { results, nextCursor: start + PAGE < ROWS ? String(start + PAGE) : null };
    resolve(new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } }));
  };
  const getBonds = new RestEndpoint({
    urlPrefix: 'http://model.test',
    path: '/bonds',
    searchParams: {} as { portfolio: string; cursor?: string },
    schema: { results: new Collection([Bond], { argsKey: () => ({}) }), nextCursor: null as string | null },
    paginationField: 'cursor',
  });
  const cache = createCache();
  const store = configureStore({
    reducer: { cache: cache.reducer },
    middleware: getDefault => getDefault({ serializableCheck: false, immutableCheck: false }).concat(cache.middleware),
  });
  return { pending, fetchStub, answer, getBonds, cache, store };
}

type App = ReturnType<typeof makeApp>;

/** Lets the cache's promise chains run, so answers released are written and next requests sent. */
const settle = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
  await new Promise(resolve => setImmediate(resolve));
};

/**
 * Gives every answer waiting, in random order, then has each portfolio's mounted read fetch what is
 * not fresh, until nothing more is sent. Returns how many answers it gave.
 */
async function drain(
  app: Pick<App, 'pending' | 'cache' | 'store' | 'getBonds' | 'answer'>,
  rand: () => number,
  running: Promise<unknown>[],
  track: (value: unknown) => void,
): Promise<number> {
  const { pending, answer, cache, store, getBonds } = app;
  let sent = 0;
  for (let round = 0; round < 10; round++) {
    while (pending.length > 0) {
      answer(pending.splice(Math.floor(rand() * pending.length), 1)[0]!);
      sent++;
      await settle();
    }
    await Promise.all(running.splice(0));
    const before = sent;
    for (const portfolio of PORTFOLIOS) track(store.dispatch(cache.fetchIfStale(getBonds, { portfolio })));
    await settle();
    if (pending.length === 0 && sent === before) break;
  }
  return sent;
}

async function runSchedule(seed: number): Promise<{ sent: number }> {
  const rand = random(seed);
  const app: App = makeApp();
  const { pending, answer, getBonds, cache, store } = app;
  const original = globalThis.fetch;
  globalThis.fetch = app.fetchStub as typeof fetch;
  const running: Promise<unknown>[] = [];
  const track = (value: unknown) => running.push(Promise.resolve(value).catch(() => undefined));
  try {
    for (let step = 0; step < 12; step++) {
      const portfolio = PORTFOLIOS[Math.floor(rand() * PORTFOLIOS.length)]!;
      const roll = rand();
      const response = cache.selectResponse(store.getState(), getBonds, { portfolio });
      if (roll < 0.35) track(store.dispatch(cache.fetchIfStale(getBonds, { portfolio })));
      else if (roll < 0.65) {
        // "Load more" at this portfolio, when its read offers a next page.
        const next = response.data?.nextCursor;
        if (typeof next === 'string') track(store.dispatch(cache.fetch(getBonds.getPage, { portfolio, cursor: next })));
      } else if (roll < 0.8) track(store.dispatch(cache.fetch(getBonds, { portfolio })));
      // Answer some of what is waiting, in random order.
      while (pending.length > 0 && rand() < 0.6) answer(pending.splice(Math.floor(rand() * pending.length), 1)[0]!);
      await settle();
    }
    // Everything settles: every answer given, then the mounted reads fetch what is not fresh.
    const sent = await drain({ ...app, getBonds, answer }, rand, running, track);
    expect(pending).toHaveLength(0);
    for (const portfolio of PORTFOLIOS) {
      const { data, expiryStatus } = cache.selectResponse(store.getState(), getBonds, { portfolio });
      expect(expiryStatus).toBe('valid');
      const rows = data!.results.map(bond => [bond.id, bond.weight]);
      // Every row the list holds, with this portfolio's weight.
      expect(rows).toEqual(rows.map(([id]) => [id, weight(portfolio, id as string)]));
      expect(rows.length).toBeGreaterThanOrEqual(PAGE);
    }
    // Nothing more is fetched: the reads are fresh.
    for (const portfolio of PORTFOLIOS) await store.dispatch(cache.fetchIfStale(getBonds, { portfolio }));
    expect(pending).toHaveLength(0);
    return { sent };
  } finally {
    globalThis.fetch = original;
  }
}

test(`a list at three portfolios, pages and refetches answered in any order: ${SCHEDULES} seeded schedules`, async () => {
  let requests = 0;
  for (let seed = 1; seed <= SCHEDULES; seed++) {
    try {
      requests += (await runSchedule(seed)).sent;
    } catch (error) {
      throw new Error(`schedule ${seed} failed: ${(error as Error).message}`);
    }
  }
  expect(requests).toBeGreaterThan(SCHEDULES);
}, 120_000);

/**
 * Both ways, at most three pages: 16 rows, the list opening at row 7 (its own answer names the pages before
 * and after it), and the schedules load the page after or before those held (the list's record
 * names them, as `useInfinite` reads it), refetch every page or the first page alone, at three
 * portfolios, answered in any order. Once settled: every portfolio's read shows the rows of the
 * pages the record holds, in the record's order, each row once, with that portfolio's weights; the
 * record holds three pages at most; a further round sends nothing.
 */
const START = 6;
const BOTH_ROWS = 16;
const MAX_PAGES = 3;

function makeBothWaysApp() {
  const app = makeApp();
  const answer = ({ url, resolve }: Pending) => {
    const portfolio = url.searchParams.get('portfolio') ?? '';
    const start = Number(url.searchParams.get('cursor') ?? START);
    const results = rowsAt(start).map(id => ({ id, weight: weight(portfolio, id) }));
    const body = {
      results,
      nextCursor: start + PAGE < BOTH_ROWS ? String(start + PAGE) : null,
      previousCursor: start > 0 ? String(start - PAGE) : null,
    };
    resolve(new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } }));
  };
  const getBonds = app.getBonds.extend({ maxPages: MAX_PAGES });
  return { ...app, answer, getBonds };
}

const rowsAt = (start: number) => Array.from({ length: PAGE }, (_, i) => String(start + i + 1));

async function runBothWays(seed: number): Promise<{ sent: number; moved: boolean; dropped: boolean }> {
  const rand = random(seed);
  const app = makeBothWaysApp();
  const { pending, answer, getBonds, cache, store } = app;
  const record = () => {
    const entities = (store.getState().cache as { entities: Record<string, Record<string, any>> }).entities;
    const table = Object.keys(entities).find(name => name.startsWith('Pages('));
    return table ? entities[table]!['{}'] : undefined;
  };
  const original = globalThis.fetch;
  globalThis.fetch = app.fetchStub as typeof fetch;
  const running: Promise<unknown>[] = [];
  const track = (value: unknown) => running.push(Promise.resolve(value).catch(() => undefined));
  try {
    for (let step = 0; step < 14; step++) {
      const portfolio = PORTFOLIOS[Math.floor(rand() * PORTFOLIOS.length)]!;
      const roll = rand();
      const held = record();
      if (roll < 0.3) track(store.dispatch(cache.fetchIfStale(getBonds, { portfolio })));
      else if (roll < 0.55 || roll < 0.8) {
        const cursor = roll < 0.55 ? held?.next : held?.previous;
        if (typeof cursor === 'string') track(store.dispatch(cache.fetch(getBonds.getPage, { portfolio, cursor })));
      } else if (roll < 0.92) track(store.dispatch(cache.fetch(getBonds, { portfolio })));
      else track(store.dispatch(cache.fetch(firstPageOnly(getBonds), { portfolio })));
      while (pending.length > 0 && rand() < 0.6) answer(pending.splice(Math.floor(rand() * pending.length), 1)[0]!);
      await settle();
    }
    // Everything settles: every answer given, then the mounted reads fetch what is not fresh.
    const sent = await drain({ ...app, getBonds, answer }, rand, running, track);
    expect(pending).toHaveLength(0);
    const held = record();
    // The pages the record holds, in order (the list's own answer where `base` says), and their rows.
    const pages: string[] = [...held.pages];
    if (held.base !== null) pages.splice(held.base ?? 0, 0, String(START));
    expect(pages.length).toBeLessThanOrEqual(MAX_PAGES);
    // Each row once, where it first appears (a page asked for as the list was replaced by its first
    // page alone may repeat that page: docs/pagination.md, "Ordering").
    const expected = [...new Set(pages.flatMap(cursor => rowsAt(Number(cursor))))];
    for (const portfolio of PORTFOLIOS) {
      const { data, expiryStatus } = cache.selectResponse(store.getState(), getBonds, { portfolio });
      expect(expiryStatus).toBe('valid');
      const rows = data!.results.map(bond => [bond.id, bond.weight]);
      expect(rows).toEqual(expected.map(id => [id, weight(portfolio, id)]));
    }
    for (const portfolio of PORTFOLIOS) await store.dispatch(cache.fetchIfStale(getBonds, { portfolio }));
    expect(pending).toHaveLength(0);
    // Whether the list ends with a page before its own answer, or without that answer (dropped).
    return { sent, moved: held.base !== undefined, dropped: held.base === null };
  } finally {
    globalThis.fetch = original;
  }
}

test(`both ways, at most ${MAX_PAGES} pages, at three portfolios, answered in any order: ${SCHEDULES} seeded schedules`, async () => {
  let requests = 0;
  let moved = 0;
  let dropped = 0;
  for (let seed = 1; seed <= SCHEDULES; seed++) {
    try {
      const run = await runBothWays(seed);
      requests += run.sent;
      moved += Number(run.moved);
      dropped += Number(run.dropped);
    } catch (error) {
      throw new Error(`schedule ${seed} failed: ${(error as Error).message}`);
    }
  }
  expect(requests).toBeGreaterThan(SCHEDULES);
  // The schedules do page both ways and past maxPages.
  expect(moved).toBeGreaterThan(SCHEDULES / 10);
  expect(dropped).toBeGreaterThan(SCHEDULES / 20);
}, 120_000);
