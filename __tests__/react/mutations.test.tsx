/**
 * @jest-environment ./__tests__/fixtures/jsdomWithFetch.js
 */
/**
 * useMutation and useDLE (docs/useMutation.md, docs/useDLE.md) under a real store and the real
 * local server: state per component, optimistic values while pending, failures as state (never
 * thrown to a boundary), nothing after unmount, and how often each renders.
 */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { Suspense, useState } from 'react';
import { Provider } from 'react-redux';
import { CacheProvider, useDLE, useMutation, useQuery } from '../../src/react/index';
import { isNetworkError } from '../../src/index';
import { Note, postServer } from '../fixtures/postServer';
import { Boundary, renderWithCache, settle } from '../fixtures/render';
import { startServer, type TestServer } from '../fixtures/server';
import { makeStore } from '../fixtures/store';
import { runtimeOf } from '../fixtures/runtime';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

function counter() {
  const counts: Record<string, number> = {};
  return { counts, hit: (name: string) => void (counts[name] = (counts[name] ?? 0) + 1) };
}

/** Waits (inside act) until the server holds `n` answers: deterministic, whatever the machine's speed. */
async function heldCount(api: ReturnType<typeof postServer>, n: number): Promise<void> {
  while (api.held.length < n) await act(() => new Promise(resolve => setTimeout(resolve, 5)));
}

async function release(api: ReturnType<typeof postServer>, i: number): Promise<void> {
  await act(async () => api.held[i]!.release());
  await settle();
}

function setupNotes() {
  const api = postServer(server);
  api.db.set('1', { id: '1', title: 'one', body: '' });
  const renders = counter();
  const results: unknown[] = [];
  function Notes() {
    renders.hit('list');
    const notes = useQuery(api.getNotes.schema, {});
    return (
      <ul>
        {notes?.map(note => (
          <li key={note.id}>{note.title}</li>
        ))}
      </ul>
    );
  }
  function Create({ title }: { title: string }) {
    renders.hit('create');
    const [create, { pending, error, data, reset }] = useMutation(api.createNote);
    return (
      <div>
        <button
          onClick={() =>
            create({}, { title }).then(
              value => results.push(value),
              (failure: Error) => results.push(failure.message),
            )
          }
        >
          add
        </button>
        <button onClick={reset}>reset</button>
        <p data-testid="state">
          {pending ? 'pending' : 'idle'}|{error ? (error as Error).message.split('(')[0] : ''}|
          {data ? (data as Note).id : ''}
        </p>
      </div>
    );
  }
  return { api, renders, results, Notes, Create };
}

async function loadNotes(api: ReturnType<typeof postServer>, setup: ReturnType<typeof makeStore>) {
  const loading = setup.store.dispatch(setup.cache.fetch(api.getNotes));
  await heldCount(api, 1);
  api.held[0]!.release();
  await loading;
}

describe('useMutation', () => {
  test('pending with the optimistic value shown, then the answer: one render per step', async () => {
    const { api, renders, results, Notes, Create } = setupNotes();
    const setup = makeStore();
    await loadNotes(api, setup);
    renderWithCache(
      <>
        <Notes />
        <Create title="two" />
      </>,
      { setup },
    );
    expect(screen.getByTestId('state').textContent).toBe('idle||');
    expect(renders.counts).toEqual({ list: 1, create: 1 });
    fireEvent.click(screen.getByText('add'));
    // The guess is in the list at once, and the button's component is pending: one render each.
    expect(screen.getAllByRole('listitem').map(li => li.textContent)).toEqual(['one', 'two']);
    expect(screen.getByTestId('state').textContent).toBe('pending||');
    expect(renders.counts).toEqual({ list: 2, create: 2 });
    await heldCount(api, 2);
    await release(api, 1);
    expect(screen.getByTestId('state').textContent).toBe('idle||2');
    expect(screen.getAllByRole('listitem').map(li => li.textContent)).toEqual(['one', 'two']);
    expect(results).toEqual([expect.any(Note)]);
    // The list renders once more for the answer (the guess's row replaced by the server's).
    expect(renders.counts).toEqual({ list: 3, create: 3 });
  });

  test('a failure rejects the promise and sets error, rolls the guess back, and throws to no boundary', async () => {
    const { api, results, Notes, Create } = setupNotes();
    const setup = makeStore();
    await loadNotes(api, setup);
    const caught: Error[] = [];
    renderWithCache(
      <Boundary caught={caught}>
        <Notes />
        <Create title=" " />
      </Boundary>,
      { setup },
    );
    fireEvent.click(screen.getByText('add'));
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
    await heldCount(api, 2);
    await release(api, 1);
    expect(screen.getByTestId('state').textContent).toMatch(/^idle\|.*A title is required/);
    expect(screen.getAllByRole('listitem').map(li => li.textContent)).toEqual(['one']);
    expect(results).toEqual([expect.stringContaining('The server said: "A title is required."')]);
    expect(caught).toEqual([]);
    fireEvent.click(screen.getByText('reset'));
    expect(screen.getByTestId('state').textContent).toBe('idle||');
  });

  test('under StrictMode (effects mounted twice) the state still follows the call', async () => {
    const { api, results, Notes, Create } = setupNotes();
    const setup = makeStore();
    await loadNotes(api, setup);
    renderWithCache(
      <>
        <Notes />
        <Create title="strict" />
      </>,
      { setup, strict: true },
    );
    fireEvent.click(screen.getByText('add'));
    expect(screen.getByTestId('state').textContent).toBe('pending||');
    await heldCount(api, 2);
    await release(api, 1);
    expect(screen.getByTestId('state').textContent).toBe('idle||2');
    expect(screen.getAllByRole('listitem').map(li => li.textContent)).toEqual(['one', 'strict']);
    expect(results).toHaveLength(1);
  });

  test('state is per component, and an answer after unmount changes nothing in it', async () => {
    const { api, results, Create } = setupNotes();
    const setup = makeStore();
    await loadNotes(api, setup);
    const errors = jest.spyOn(console, 'error');
    function Toggle() {
      const [shown, setShown] = useState(true);
      return (
        <>
          <button onClick={() => setShown(false)}>hide</button>
          {shown && <Create title="gone" />}
        </>
      );
    }
    renderWithCache(
      <>
        <Toggle />
        <section data-testid="other">
          <Create title="kept" />
        </section>
      </>,
      { setup },
    );
    fireEvent.click(screen.getAllByText('add')[0]!);
    expect(screen.getAllByTestId('state').map(p => p.textContent)).toEqual(['pending||', 'idle||']);
    fireEvent.click(screen.getByText('hide'));
    await heldCount(api, 2);
    await release(api, 1);
    // The caller's promise still settles, and the cache stores the answer.
    expect(results).toEqual([expect.any(Note)]);
    expect(setup.cache.selectQuery(setup.store.getState(), api.getNotes.schema, {})!.map(n => n.title)).toEqual([
      'one',
      'gone',
    ]);
    expect(screen.getAllByTestId('state').map(p => p.textContent)).toEqual(['idle||']);
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
  });
});

describe('useDLE', () => {
  test('loading, then data: two renders; never suspends', async () => {
    const api = postServer(server);
    api.db.set('1', { id: '1', title: 'one', body: '' });
    const renders = counter();
    function Reader() {
      renders.hit('dle');
      const { data, loading, error } = useDLE(api.getNotes);
      return <p data-testid="dle">{`${loading}|${data?.map(n => n.title).join(',') ?? ''}|${error?.message ?? ''}`}</p>;
    }
    const setup = makeStore();
    render(
      <Provider store={setup.store}>
        <CacheProvider cache={setup.cache}>
          <Suspense fallback={<p>suspended</p>}>
            <Reader />
          </Suspense>
        </CacheProvider>
      </Provider>,
    );
    expect(screen.getByTestId('dle').textContent).toBe('true||');
    await heldCount(api, 1);
    await release(api, 0);
    expect(screen.getByTestId('dle').textContent).toBe('false|one|');
    expect(renders.counts).toEqual({ dle: 2 });
    expect(screen.queryByText('suspended')).toBeNull();
    // Retained while mounted, as useSuspense's reads are.
    expect(runtimeOf(setup.cache, setup.store).subscriptions.count('request', api.getNotes.key())).toBe(1);
  });

  test('an error is returned, not thrown; null params skip', async () => {
    const api = postServer(server);
    const edit = api.editNote;
    const failing = api.getNotes.extend({ path: '/missing-notes' });
    function Reader({ skip }: { skip: boolean }) {
      const failed = useDLE(failing);
      const skipped = useDLE(api.getNotes, skip ? null : {});
      return (
        <p data-testid="dle">
          {`${failed.loading}|${failed.error?.message.includes('404') ?? false}|${skipped.loading}|${skipped.data}`}
        </p>
      );
    }
    const caught: Error[] = [];
    renderWithCache(
      <Boundary caught={caught}>
        <Reader skip />
      </Boundary>,
    );
    expect(screen.getByTestId('dle').textContent).toBe('true|false|false|undefined');
    await settle(50);
    expect(screen.getByTestId('dle').textContent).toBe('false|true|false|undefined');
    expect(caught).toEqual([]);
    expect(api.held).toHaveLength(0);
    expect(edit).toBeDefined();
  });

  test('the error returned is the one the request failed with, from its first render: a NetworkError with its body', async () => {
    const failing = postServer(server).getNotes.extend({ path: '/missing-notes-dle' });
    const errors: Array<Error | undefined> = [];
    function Reader() {
      const { error } = useDLE(failing);
      if (error) errors.push(error);
      return <p data-testid="dle">{error ? 'failed' : 'loading'}</p>;
    }
    renderWithCache(<Reader />);
    await screen.findByText('failed');
    const hasMessage = (body: unknown): body is { message: string } =>
      typeof (body as { message?: unknown } | null)?.message === 'string';
    expect(errors.length).toBeGreaterThan(0);
    for (const error of errors) {
      expect(isNetworkError(error, hasMessage) && error.status).toBe(404);
    }
  });
});
