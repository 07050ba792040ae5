/**
 * A record's status against the real local server (docs/rowStatus.md): `saving` while a guess that
 * writes the row is pending, the error of its last failed mutation (as the promise rejected with)
 * until a mutation touching it succeeds, and one object per unchanged status.
 */
import { isNetworkError, selectRowStatus, type CacheState } from '../../src/index';
import { postServer, Note } from '../fixtures/postServer';
import { startServer, type TestServer } from '../fixtures/server';
import { makeStore } from '../fixtures/store';
import { runtimeOf } from '../fixtures/runtime';
import { keptRows } from '../../src/store/reads/rowStatus';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

async function setup(titles: string[] = ['one', 'two']) {
  const api = postServer(server);
  titles.forEach((title, i) => api.db.set(String(i + 1), { id: String(i + 1), title, body: '' }));
  const { cache, store } = makeStore();
  const status = (pk: string) => selectRowStatus(cache, store.getState(), Note, pk);
  /** Starts a request and waits until the server holds it; boxed, as awaiting would wait for the answer. */
  const start = async <T>(run: () => Promise<T>): Promise<{ settled: Promise<T> }> => {
    const arrival = api.nextArrival();
    const settled = run();
    settled.catch(() => undefined);
    await arrival;
    return { settled };
  };
  const release = async (settled: Promise<unknown>) => {
    api.held[api.held.length - 1]!.release();
    return settled.catch(error => error as unknown);
  };
  const { settled } = await start(() => store.dispatch(cache.fetch(api.getNotes)));
  await release(settled);
  const edit = (id: string, title: string) => start(() => store.dispatch(cache.fetch(api.editNote, { id }, { title })));
  return { api, cache, store, status, start, release, edit };
}

describe('selectRowStatus', () => {
  test('saving while the guess is pending, then idle after the answer', async () => {
    const { status, edit, release } = await setup();
    const idle = status('1');
    expect(idle).toEqual({ saving: false, error: undefined });
    const { settled } = await edit('1', 'ONE');
    expect(status('1')).toEqual({ saving: true, error: undefined });
    expect(status('2')).toBe(idle);
    await release(settled);
    expect(status('1')).toBe(idle);
  });

  test('a failed update leaves its error, as thrown, until the next success of that row', async () => {
    const { status, edit, release } = await setup();
    const { settled: failing } = await edit('1', '');
    const thrown = await release(failing);
    expect(isNetworkError(thrown) && thrown.status).toBe(400);
    const failed = status('1');
    expect(failed.saving).toBe(false);
    expect(failed.error).toBe(thrown);
    expect(status('1')).toBe(failed);
    // Another row's mutations leave it.
    const { settled: other } = await edit('2', 'TWO');
    await release(other);
    expect(status('1')).toBe(failed);
    // A retry shows saving and the error still; its success clears both.
    const { settled: retry } = await edit('1', 'ONE');
    expect(status('1')).toEqual({ saving: true, error: thrown });
    expect(status('1')).toBe(status('1'));
    await release(retry);
    expect(status('1')).toEqual({ saving: false, error: undefined });
  });

  test('a mutation without a guess clears the row its answer writes; its failure names no row', async () => {
    const { api, cache, store, status, edit, release, start } = await setup();
    const plainEdit = api.editNote.extend({ getOptimisticResponse: undefined });
    const { settled: failing } = await edit('1', '');
    const thrown = await release(failing);
    const { settled: refused } = await start(() => store.dispatch(cache.fetch(plainEdit, { id: '2' }, { title: '' })));
    expect(status('2')).toEqual({ saving: false, error: undefined });
    await release(refused);
    expect(status('2')).toEqual({ saving: false, error: undefined });
    expect(status('1').error).toBe(thrown);
    const { settled } = await start(() => store.dispatch(cache.fetch(plainEdit, { id: '1' }, { title: 'ONE' })));
    await release(settled);
    expect(status('1')).toEqual({ saving: false, error: undefined });
  });

  test('a refetch of the row leaves its error', async () => {
    const { api, cache, store, status, edit, release, start } = await setup();
    const { settled: failing } = await edit('1', '');
    const thrown = await release(failing);
    const { settled } = await start(() => store.dispatch(cache.fetch(api.refetchNotes, { r: 1 })));
    await release(settled);
    expect(status('1').error).toBe(thrown);
  });

  test('a failed delete leaves its error on the row it put back', async () => {
    const { api, cache, store, status, start, release } = await setup(['locked']);
    const { settled } = await start(() => store.dispatch(cache.fetch(api.deleteNote, { id: '1' })));
    expect((store.getState().cache as CacheState).entities.Note!['1']).toBeNull();
    expect(status('1')).toEqual({ saving: true, error: undefined });
    const thrown = await release(settled);
    expect(isNetworkError(thrown) && thrown.status).toBe(409);
    expect((store.getState().cache as CacheState).entities.Note!['1']).toMatchObject({ title: 'locked' });
    expect(status('1')).toEqual({ saving: false, error: thrown });
  });

  test('a successful delete, and a reset, leave the row idle', async () => {
    const { api, cache, store, status, edit, start, release } = await setup();
    const { settled: failing } = await edit('2', '');
    await release(failing);
    expect(status('2').error).toBeDefined();
    const { settled } = await start(() => store.dispatch(cache.fetch(api.deleteNote, { id: '2' })));
    await release(settled);
    expect(status('2')).toEqual({ saving: false, error: undefined });
    const { settled: again } = await edit('1', '');
    await release(again);
    expect(status('1').error).toBeDefined();
    store.dispatch(cache.resetEntireStore());
    expect(status('1')).toEqual({ saving: false, error: undefined });
    // The row back, its error is not: the reset forgot every outcome.
    const { settled: refetched } = await start(() => store.dispatch(cache.fetch(api.getNotes)));
    await release(refetched);
    expect((store.getState().cache as CacheState).entities.Note!['1']).toBeDefined();
    expect(status('1')).toEqual({ saving: false, error: undefined });
  });

  test('bounded: the outcomes of the last 100 mutations are kept, the oldest out first', async () => {
    const titles = Array.from({ length: 105 }, (_, i) => `t${i + 1}`);
    const { status, edit, release, store, cache } = await setup(titles);
    for (let i = 1; i <= 105; i++) {
      const { settled } = await edit(String(i), '');
      await release(settled);
      // Read after each, as a mounted useRowStatus does: what is kept per row stays bounded too.
      expect(status(String(i)).error).toBeDefined();
    }
    expect(keptRows(runtimeOf(cache, store))).toBe(100);
    expect(status('5').error).toBeUndefined();
    expect(status('6').error).toBeDefined();
    expect(status('105').error).toBeDefined();
  });

  test('an idle row reads one shared frozen object; bad input is a coded error', async () => {
    const { cache, store, status } = await setup();
    expect(status('1')).toBe(status('2'));
    expect(status('nope')).toBe(status('1'));
    expect(Object.isFrozen(status('1'))).toBe(true);
    const before = store.getState();
    expect(() => selectRowStatus(cache, store.getState(), {} as typeof Note, '1')).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTION' }),
    );
    expect(() => selectRowStatus(cache, store.getState(), Note, {} as string)).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTION' }),
    );
    expect(store.getState()).toBe(before);
  });
});
