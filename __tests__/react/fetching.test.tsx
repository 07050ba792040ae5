/**
 * @jest-environment ./__tests__/fixtures/jsdomWithFetch.js
 */
/**
 * Refetching without losing what is shown (docs/hooks.md, "Changing args"): useDLE's `fetching`
 * is true while any request for its args is in flight, first load or refetch, with the data kept;
 * useSuspense inside `startTransition` (or read with `useDeferredValue`) keeps the old content on
 * screen while the new args load, instead of going back to the fallback.
 */
import { act, fireEvent, screen } from '@testing-library/react';
import { Suspense, useDeferredValue, useState, useTransition } from 'react';
import { Entity, RestEndpoint } from '../../src/index';
import { useController, useDLE, useSuspense } from '../../src/react/index';
import { renderWithCache } from '../fixtures/render';
import { gate, startServer, type TestServer } from '../fixtures/server';

class Doc extends Entity {
  id = '';
  title = '';
  static override key = 'FetchingDoc';
}

let server: TestServer;
let hold: Promise<void> | undefined;
let version = 0;
let getDoc: RestEndpoint<{ path: '/docs/:id'; urlPrefix: string; schema: typeof Doc }>;
beforeAll(async () => {
  server = await startServer();
  server.on('GET /docs/:id', (_request, url) => {
    const id = url.pathname.split('/').pop()!;
    return { json: { id, title: `doc ${id} v${version}` }, ...(hold ? { hold } : {}) };
  });
  getDoc = new RestEndpoint({ urlPrefix: server.origin, path: '/docs/:id', schema: Doc });
});
afterAll(() => server.close());
beforeEach(() => {
  hold = undefined;
  version = 0;
});

test('useDLE: fetching is true for the first load and for a refetch, which keeps the data shown', async () => {
  const states: string[] = [];
  let controller!: ReturnType<typeof useController>;
  function View() {
    controller = useController();
    const { data, loading, fetching } = useDLE(getDoc, { id: '1' });
    const state = `${data?.title ?? '-'}|loading=${loading}|fetching=${fetching}`;
    if (states[states.length - 1] !== state) states.push(state);
    return <p data-testid="doc">{state}</p>;
  }
  renderWithCache(<View />);
  await screen.findByText('doc 1 v0|loading=false|fetching=false');
  expect(states[0]).toBe('-|loading=true|fetching=true');
  const release = gate();
  hold = release.promise;
  version = 1;
  let refetch!: Promise<unknown>;
  act(() => {
    refetch = controller.fetch(getDoc, { id: '1' });
  });
  await screen.findByText('doc 1 v0|loading=false|fetching=true');
  release.open();
  await act(async () => {
    await refetch;
  });
  await screen.findByText('doc 1 v1|loading=false|fetching=false');
});

test('useSuspense in a transition keeps the old content while the new args load; without one, the fallback shows', async () => {
  function Title({ id }: { id: string }) {
    return <h1>{useSuspense(getDoc, { id }).title}</h1>;
  }
  function Page() {
    const [id, setId] = useState('1');
    const [pending, startTransition] = useTransition();
    return (
      <>
        <button onClick={() => startTransition(() => setId('2'))}>next in a transition</button>
        <button onClick={() => setId('3')}>next</button>
        {pending && <p>switching</p>}
        <Suspense fallback={<p>loading</p>}>
          <Title id={id} />
        </Suspense>
      </>
    );
  }
  renderWithCache(<Page />);
  await screen.findByText('doc 1 v0');
  const release = gate();
  hold = release.promise;
  fireEvent.click(screen.getByText('next in a transition'));
  await screen.findByText('switching');
  // The old title stays on screen; the fallback is not shown.
  expect(screen.getByText('doc 1 v0').style.display).not.toBe('none');
  expect(screen.queryByText('loading')).toBeNull();
  release.open();
  await screen.findByText('doc 2 v0');
  // Without a transition, the subtree goes back to the fallback while the new args load.
  const again = gate();
  hold = again.promise;
  fireEvent.click(screen.getByText('next'));
  await screen.findByText('loading');
  expect(screen.queryByText('doc 2 v0')?.style.display).toBe('none'); // (hidden by Suspense, not unmounted)
  again.open();
  await screen.findByText('doc 3 v0');
});

test('useDeferredValue: the old args render until the new ones are loaded', async () => {
  function Title({ id }: { id: string }) {
    return <h1>{useSuspense(getDoc, { id }).title}</h1>;
  }
  function Page() {
    const [id, setId] = useState('1');
    const shown = useDeferredValue(id);
    return (
      <>
        <button onClick={() => setId('2')}>next</button>
        {shown !== id && <p>stale</p>}
        <Suspense fallback={<p>loading</p>}>
          <Title id={shown} />
        </Suspense>
      </>
    );
  }
  renderWithCache(<Page />);
  await screen.findByText('doc 1 v0');
  const release = gate();
  hold = release.promise;
  fireEvent.click(screen.getByText('next'));
  await screen.findByText('stale');
  expect(screen.getByText('doc 1 v0')).toBeTruthy();
  expect(screen.queryByText('loading')).toBeNull();
  release.open();
  await screen.findByText('doc 2 v0');
});
