/**
 * @jest-environment ./__tests__/fixtures/jsdomWithFetch.js
 */
/**
 * useRowStatus (docs/rowStatus.md) under a real store and the real local server: a row shows
 * "saving…" while its edit is pending, then the error its save failed with, and a write to
 * another row renders nothing.
 */
import { act, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { CacheProvider, useRowStatus } from '../../src/react/index';
import { Note, postServer } from '../fixtures/postServer';
import { settle } from '../fixtures/render';
import { startServer, type TestServer } from '../fixtures/server';
import { makeStore } from '../fixtures/store';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

/** Waits (inside act) until the server holds `n` answers: deterministic, whatever the machine's speed. */
async function heldCount(api: ReturnType<typeof postServer>, n: number): Promise<void> {
  while (api.held.length < n) await act(() => new Promise(resolve => setTimeout(resolve, 5)));
}

test('a row shows saving…, then its error; a write to another row renders nothing', async () => {
  const api = postServer(server);
  api.db.set('1', { id: '1', title: 'one', body: '' });
  api.db.set('2', { id: '2', title: 'two', body: '' });
  const { cache, store } = makeStore();
  const loading = store.dispatch(cache.fetch(api.getNotes));
  await heldCount(api, 1);
  api.held[0]!.release();
  await loading;
  let renders = 0;
  function Row({ id }: { id: string }) {
    renders++;
    const { saving, error } = useRowStatus(Note, id);
    return <p data-testid="row">{saving ? 'saving…' : error instanceof Error ? error.message : 'idle'}</p>;
  }
  render(
    <Provider store={store}>
      <CacheProvider cache={cache}>
        <Row id="1" />
      </CacheProvider>
    </Provider>,
  );
  expect(screen.getByTestId('row').textContent).toBe('idle');
  let failing!: Promise<unknown>;
  act(() => {
    failing = store.dispatch(cache.fetch(api.editNote, { id: '1' }, { title: '' }));
    failing.catch(() => undefined);
  });
  expect(screen.getByTestId('row').textContent).toBe('saving…');
  await heldCount(api, 2);
  await act(async () => api.held[1]!.release());
  await settle();
  expect(screen.getByTestId('row').textContent).toMatch(/A title is required/);
  const shown = renders;
  // Another row's edit, its answer, and a write outside the cache: the row renders nothing.
  let other!: Promise<unknown>;
  act(() => {
    other = store.dispatch(cache.fetch(api.editNote, { id: '2' }, { title: 'TWO' }));
    store.dispatch({ type: 'other/bump' });
  });
  await heldCount(api, 3);
  await act(async () => api.held[2]!.release());
  await act(() => other);
  expect(renders).toBe(shown);
  expect(screen.getByTestId('row').textContent).toMatch(/A title is required/);
});
