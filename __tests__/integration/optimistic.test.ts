/**
 * Optimistic mutations against the real local server (docs/mutations.md): the guess shows at
 * once, the answer takes its place, a failure takes it back while every other write stays, and
 * any mix of mutations and refetches, answered in any order, ends where the server is.
 */
import fc from 'fast-check';
import { Entity, isNetworkError, RestEndpoint, Scalar, type CacheState } from '../../src/index';
import { postServer, Note } from '../fixtures/postServer';
import { startServer, type TestServer } from '../fixtures/server';
import { jsonProblems, makeRecordingStore } from '../fixtures/recording';
import { makeStore, snapshot } from '../fixtures/store';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

function setup() {
  const api = postServer(server);
  const { cache, store } = makeStore();
  const slice = () => store.getState().cache as CacheState;
  const titles = () => cache.selectQuery(store.getState(), api.getNotes.schema, {})?.map(note => note.title);
  /** Starts a request and waits until the server has it (and holds its answer); boxed, as awaiting would wait for the answer. */
  const start = async <T>(run: () => Promise<T>): Promise<{ settled: Promise<T> }> => {
    const arrival = api.nextArrival();
    const settled = run();
    settled.catch(() => undefined);
    await arrival;
    return { settled };
  };
  /** Releases the held answer of index `i` and lets its write land. */
  const answer = async (i: number, settled: Promise<unknown>) => {
    api.held[i]!.release();
    await settled.catch(() => undefined);
  };
  return { api, cache, store, slice, titles, start, answer };
}

/** The rows and lists the notes API leaves: what the server holds, read back from the cache. */
function notesOf(slice: CacheState) {
  return {
    rows: Object.keys(slice.entities.Note ?? {}).sort(),
    list: (slice.entities['[Note]']?.['{}'] as string[] | undefined) ?? [],
  };
}

describe('optimistic updates', () => {
  test('the guess shows before the answer; the answer replaces it (a create)', async () => {
    const { api, cache, store, slice, titles, start, answer } = setup();
    const { settled: first } = await start(() => store.dispatch(cache.fetch(api.getNotes)));
    await answer(0, first);
    expect(titles()).toEqual([]);
    const { settled: created } = await start(() => store.dispatch(cache.fetch(api.createNote, {}, { title: 'A' })));
    // Visible while the server holds the answer, through the same normalize as the answer.
    expect(titles()).toEqual(['A']);
    expect(Object.keys(slice().entities.Note!)).toEqual([expect.stringMatching(/^optimistic-/)]);
    api.held[1]!.release();
    const note = await created;
    expect(note).toBeInstanceOf(Note);
    expect((note as Note).id).toBe('1');
    expect(titles()).toEqual(['A']);
    expect(notesOf(slice())).toEqual({ rows: ['1'], list: ['1'] });
  });

  test('the guess is its own small action; the answer another; the state stays plain JSON', async () => {
    const api = postServer(server);
    for (let i = 1; i <= 500; i++) api.db.set(String(i), { id: String(i), title: `t${i}`, body: '' });
    const { cache, store, actions, slice } = makeRecordingStore();
    const loading = store.dispatch(cache.fetch(api.getNotes));
    while (api.held.length < 1) await new Promise(resolve => setTimeout(resolve, 2));
    api.held[0]!.release();
    await loading;
    actions.length = 0;
    const editing = store.dispatch(cache.fetch(api.editNote, { id: '250' }, { title: 'edited' }));
    expect(actions.map(action => action.type)).toEqual(['cache/optimistic']);
    // One row and its meta, with their inverses: small whatever the table's size.
    expect(JSON.stringify(actions[0]!.payload).length).toBeLessThan(600);
    expect(jsonProblems(snapshot(slice()))).toEqual([]);
    while (api.held.length < 2) await new Promise(resolve => setTimeout(resolve, 2));
    api.held[1]!.release();
    await editing;
    expect(actions.map(action => action.type)).toEqual(['cache/optimistic', 'cache/resolve']);
    expect(JSON.stringify(actions[1]!.payload).length).toBeLessThan(1_200);
    expect((slice() as CacheState).entities.Note!['250']).toEqual({ id: '250', title: 'edited', body: '' });
  });

  test('a failure takes the guess back and leaves the store exactly as it was', async () => {
    const { api, cache, store, slice, titles, start } = setup();
    const { settled: first } = await start(() => store.dispatch(cache.fetch(api.getNotes)));
    api.held[0]!.release();
    await first;
    const before = snapshot(slice());
    const { settled: failing } = await start(() => store.dispatch(cache.fetch(api.createNote, {}, { title: ' ' })));
    expect(titles()).toEqual([' ']);
    api.held[1]!.release();
    await expect(failing).rejects.toThrow('A title is required.');
    const after = snapshot(slice()) as CacheState;
    // Only the request's own error record is new.
    const key = api.createNote.key({}, { title: ' ' });
    expect(after.meta[key]!.error).toMatchObject({ status: 400 });
    delete (after.meta as Record<string, unknown>)[key];
    expect(after).toEqual(before);
  });

  test('a failure keeps a refetch and another mutation that landed meanwhile', async () => {
    const { api, cache, store, slice, titles, start, answer } = setup();
    api.db.set('1', { id: '1', title: 'one', body: '' });
    api.db.set('2', { id: '2', title: 'two', body: '' });
    const { settled: first } = await start(() => store.dispatch(cache.fetch(api.getNotes)));
    await answer(0, first);
    // A refetch started before the edits, an edit that fails, an edit that succeeds.
    const { settled: refetch } = await start(() => store.dispatch(cache.fetch(api.getNotes)));
    api.db.get('2')!.body = 'changed on the server';
    const { settled: failing } = await start(() =>
      store.dispatch(cache.fetch(api.editNote, { id: '1' }, { title: '' })),
    );
    const { settled: editing } = await start(() =>
      store.dispatch(cache.fetch(api.editNote, { id: '2' }, { title: 'TWO' })),
    );
    expect(titles()).toEqual(['', 'TWO']);
    await answer(1, refetch); // older than both guesses: it must not be hidden behind them
    expect(titles()).toEqual(['', 'TWO']);
    await answer(3, editing);
    await answer(2, failing);
    expect(titles()).toEqual(['one', 'TWO']);
    expect(cache.selectQuery(store.getState(), Note, { id: '2' })!.body).toBe('changed on the server');
    expect(notesOf(slice())).toEqual({ rows: ['1', '2'], list: ['1', '2'] });
  });

  test('a write that lands while a guess is pending is confirmed under it, and shows once the guess is taken back', async () => {
    const { api, cache, store, titles, start } = setup();
    api.db.set('1', { id: '1', title: 'one', body: '' });
    const { settled: first } = await start(() => store.dispatch(cache.fetch(api.getNotes)));
    api.held[0]!.release();
    await first;
    const { settled: failing } = await start(() =>
      store.dispatch(cache.fetch(api.editNote, { id: '1' }, { title: '' })),
    );
    store.dispatch(cache.set(Note, { id: '1', title: 'set later', body: 'b' }));
    // The guess is shown on top of the confirmed state, whatever the confirmed rows' stamps.
    expect(titles()).toEqual(['']);
    expect(cache.selectQuery(store.getState(), Note, { id: '1' })!.body).toBe('b');
    api.held[1]!.release();
    await failing.catch(() => undefined);
    expect(titles()).toEqual(['set later']);
  });

  test('a delete by Invalidate hides the row at once and brings it back on failure', async () => {
    const { api, cache, store, titles, start } = setup();
    api.db.set('1', { id: '1', title: 'one', body: '' });
    const { settled: first } = await start(() => store.dispatch(cache.fetch(api.getNotes)));
    api.held[0]!.release();
    await first;
    server.on(`DELETE ${new URL(api.getNotes.url()).pathname}/:id`, () => ({ status: 500, json: { message: 'no' } }));
    const deleting = store.dispatch(cache.fetch(api.deleteNote, { id: '1' }));
    expect(titles()).toEqual([]);
    expect(cache.selectQuery(store.getState(), Note, { id: '1' })).toBeUndefined();
    await expect(deleting).rejects.toThrow();
    expect(titles()).toEqual(['one']);
  });

  test('Scalar cells are guessed through the same normalize', async () => {
    class Company extends Entity {
      id = '';
      name = '';
      static override key = 'OptCompany';
    }
    const Pct = new Scalar({
      lens: args => (args[0] as { p?: string } | undefined)?.p,
      key: 'optPct',
      entity: Company,
    });
    server.on('PATCH /opt-cells/:id', () => ({ status: 500, json: { message: 'down' } }));
    const update = new RestEndpoint({
      urlPrefix: server.origin,
      path: '/opt-cells/:id',
      method: 'PATCH',
      searchParams: {} as { p: string },
      schema: [Pct],
      getOptimisticResponse: (_snap, params: { id: string }, body: { pct: number }) => [
        { id: params.id, pct: body.pct },
      ],
    });
    const { cache, store } = makeStore();
    const before = snapshot(store.getState());
    const failing = store.dispatch(cache.fetch(update, { id: '1', p: 'A' }, { pct: 0.5 }));
    expect((store.getState() as { cache: CacheState }).cache.entities['Scalar(optPct)']).toEqual({
      'OptCompany|1|A': { id: '1', pct: 0.5 },
    });
    await failing.catch(() => undefined);
    const after = snapshot(store.getState()) as { cache: CacheState };
    delete (after.cache.meta as Record<string, unknown>)[update.key({ id: '1', p: 'A' }, { pct: 0.5 })];
    expect(after).toEqual(before);
  });

  test('an aborted mutation takes its guess back', async () => {
    const { api, cache, store, titles, start } = setup();
    api.db.set('1', { id: '1', title: 'one', body: '' });
    const { settled: first } = await start(() => store.dispatch(cache.fetch(api.getNotes)));
    api.held[0]!.release();
    await first;
    const editing = store.dispatch(cache.fetch(api.editNote, { id: '1' }, { title: 'aborted' }));
    expect(titles()).toEqual(['aborted']);
    editing.abort();
    await expect(editing).rejects.toMatchObject({ name: 'AbortError' });
    expect(titles()).toEqual(['one']);
    // An abort is no failure of the mutation: nothing is stored for its key.
    expect(store.getState().cache.meta[api.editNote.key({ id: '1' }, { title: 'aborted' })]).toBeUndefined();
  });

  test('a refused mutation with a guess: a store subscriber reads the NetworkError it failed with, body and all', async () => {
    const { api, cache, store, start, answer } = setup();
    api.db.set('1', { id: '1', title: 'one', body: '' });
    const { settled: first } = await start(() => store.dispatch(cache.fetch(api.getNotes)));
    await answer(0, first);
    const args = [{ id: '1' }, { title: ' ' }] as const;
    const seen: unknown[] = [];
    const unsubscribe = store.subscribe(() => {
      const { error } = cache.selectResponse(store.getState(), api.editNote, ...args);
      if (error) seen.push(error);
    });
    const { settled } = await start(() => store.dispatch(cache.fetch(api.editNote, ...args)));
    await answer(1, settled);
    unsubscribe();
    const error = await settled.catch((caught: unknown) => caught);
    expect(isNetworkError(error) && error.body).toEqual({ message: 'A title is required.' });
    expect(seen[0]).toBe(error);
  });

  test('a guess that does not fit the schema fails the call: nothing is sent or written', async () => {
    const { api, cache, store, slice } = setup();
    const bad = api.createNote.extend({ getOptimisticResponse: () => 42 });
    const before = snapshot(slice());
    const sent = server.count();
    await expect(store.dispatch(cache.fetch(bad, {}, { title: 'x' }))).rejects.toThrow();
    expect(snapshot(slice())).toEqual(before);
    expect(server.count()).toBe(sent);
  });
});

type Op =
  | { kind: 'create'; title: string }
  | { kind: 'edit'; note: number; title: string }
  | { kind: 'delete'; note: number }
  | { kind: 'refetch' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), title: fc.constantFrom('a', 'b', '') }),
  fc.record({
    kind: fc.constant('edit' as const),
    note: fc.integer({ min: 0, max: 2 }),
    title: fc.constantFrom('x', 'y', ''),
  }),
  fc.record({ kind: fc.constant('delete' as const), note: fc.integer({ min: 0, max: 2 }) }),
  fc.constant({ kind: 'refetch' as const }),
);

describe('optimistic updates in any completion order', () => {
  test('every order of two mutations and a refetch ends in the server state', async () => {
    // Two edits (one of them failing) and a refetch between them: all 6 completion orders.
    for (const order of [
      [0, 1, 2],
      [0, 2, 1],
      [1, 0, 2],
      [1, 2, 0],
      [2, 0, 1],
      [2, 1, 0],
    ]) {
      await runScenario(
        [{ kind: 'edit', note: 0, title: 'x' }, { kind: 'refetch' }, { kind: 'create', title: '' }],
        order,
      );
      await runScenario(
        [{ kind: 'create', title: 'a' }, { kind: 'edit', note: 1, title: 'y' }, { kind: 'refetch' }],
        order,
      );
    }
  });

  test('random mixes of creates, edits (some refused) and refetches, answered in random orders', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .array(opArb, { minLength: 1, maxLength: 5 })
          .chain(ops => fc.tuple(fc.constant(ops), fc.shuffledSubarray([...ops.keys()], { minLength: ops.length }))),
        ([ops, order]) => runScenario(ops, order),
      ),
      { numRuns: 60 },
    );
  }, 60_000);
});

/**
 * Starts `ops` one after another (each reaches the server before the next starts), answers them
 * in `order`, then checks that the cache shows exactly the server's notes, with no guess left.
 * Refetches answer in any order; mutations answer in the order the server applied them, among
 * themselves (the cache orders mutation answers by arrival: docs/architecture.md, "Ordering").
 */
async function runScenario(ops: readonly Op[], shuffled: readonly number[]): Promise<void> {
  const mutations = shuffled.filter(i => ops[i]!.kind !== 'refetch').sort((x, y) => x - y);
  const order = shuffled.map(i => (ops[i]!.kind === 'refetch' ? i : mutations.shift()!));
  const { api, cache, store, slice, start } = setup();
  for (const id of ['1', '2', '3']) api.db.set(id, { id, title: `t${id}`, body: '' });
  const { settled: loaded } = await start(() => store.dispatch(cache.fetch(api.getNotes)));
  api.held[0]!.release();
  await loaded;
  const promises: Promise<unknown>[] = [];
  for (const op of ops) {
    const run = (): Promise<unknown> => {
      if (op.kind === 'refetch') return store.dispatch(cache.fetch(api.refetchNotes, { r: promises.length }));
      if (op.kind === 'create') return store.dispatch(cache.fetch(api.createNote, {}, { title: op.title }));
      if (op.kind === 'delete') return store.dispatch(cache.fetch(api.deleteNote, { id: String(op.note + 1) }));
      return store.dispatch(cache.fetch(api.editNote, { id: String(op.note + 1) }, { title: op.title }));
    };
    promises.push((await start(run)).settled);
  }
  for (const i of order) {
    api.held[i + 1]!.release();
    await promises[i]!.catch(() => undefined);
  }
  const state = slice();
  const server = [...api.db.values()];
  const list = cache.selectQuery(store.getState(), api.getNotes.schema, {})!;
  // Every note the server has, with its fields, and no optimistic row anywhere.
  for (const note of server) expect({ ...cache.selectQuery(store.getState(), Note, { id: note.id }) }).toEqual(note);
  // Deleted notes stay as tombstones (null rows); no other row is left.
  const live = Object.keys(state.entities.Note!).filter(id => state.entities.Note![id] !== null);
  expect(live.sort()).toEqual(server.map(n => n.id).sort());
  expect(Object.keys(state.entities.Note!).filter(id => id.startsWith('optimistic-'))).toEqual([]);
  expect(list.map(note => note.id).sort()).toEqual(server.map(n => n.id).sort());
}
