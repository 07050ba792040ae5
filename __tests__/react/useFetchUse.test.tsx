/**
 * @jest-environment ./__tests__/fixtures/jsdomWithFetch.js
 */
/**
 * `use(useFetch(...))` (docs/useFetch.md, "Parallel reads with use()"): several useFetch calls in
 * one component start their requests together, then `use()` waits for them; a failure reaches
 * the error boundary as useSuspense's would. Two useSuspense calls, for contrast, waterfall. A
 * real local server holds its answers until the test lets them go. React 19 only (`use`).
 */
import { act, screen, waitFor } from '@testing-library/react';
import * as React from 'react';
import { Suspense } from 'react';
import { useFetch, useSuspense } from '../../src/react/index';
import { exampleEndpoints } from '../fixtures/endpoints';
import { Boundary, quietErrors, renderWithCache } from '../fixtures/render';
import { gate, startServer, type TestServer } from '../fixtures/server';

const use = (React as { use?: <T>(promise: Promise<T>) => T }).use;
const react19 = typeof use === 'function' ? describe : describe.skip;

let server: TestServer;
let api: ReturnType<typeof exampleEndpoints>;
let held = gate();

beforeAll(async () => {
  server = await startServer();
  api = exampleEndpoints(server.origin);
  server.on('GET /users', async () => ({ json: [{ id: 'u1', name: 'Ann', isAdmin: true }], hold: held.promise }));
  server.on('GET /tickers/:id', request => ({
    json: { product_id: request.url.split('/').pop(), price: 101 },
    hold: held.promise,
  }));
  server.on('GET /stats/:id', () => ({ status: 500, json: { message: 'boom' } }));
});
afterAll(() => {
  held.open();
  return server.close();
});
beforeEach(() => {
  held.open();
  held = gate();
});

/** The paths the server was asked for since the test began. */
function asked(since: number): string[] {
  return server.requests.slice(since).map(request => request.url);
}

react19('use(useFetch())', () => {
  test('two reads in one component start their requests together, then show both', async () => {
    const since = server.requests.length;
    function Both() {
      const users = useFetch(api.getUsers);
      const ticker = useFetch(api.getTicker, { product_id: 'PAR' });
      return <p>{`${use!(users).length} users, ${use!(ticker).price}`}</p>;
    }
    // use() suspends inside act: the act must be awaited (React's rule for tests).
    await act(async () => {
      renderWithCache(
        <Suspense fallback={<p>loading</p>}>
          <Both />
        </Suspense>,
      );
    });
    // Both requests reach the server while neither has an answer.
    await waitFor(() => expect(asked(since).sort()).toEqual(['/tickers/PAR', '/users']));
    expect(screen.getByText('loading')).toBeTruthy();
    await act(async () => held.open());
    await screen.findByText('1 users, 101');
    expect(asked(since)).toHaveLength(2);
  });

  test('for contrast, two useSuspense calls waterfall: the second request waits for the first answer', async () => {
    const since = server.requests.length;
    function Both() {
      const users = useSuspense(api.getUsers);
      const ticker = useSuspense(api.getTicker, { product_id: 'WATERFALL' });
      return <p>{`${users.length} users, ${ticker.price}`}</p>;
    }
    renderWithCache(
      <Suspense fallback={<p>loading</p>}>
        <Both />
      </Suspense>,
    );
    await waitFor(() => expect(asked(since)).toEqual(['/users']));
    await new Promise(resolve => setTimeout(resolve, 50));
    expect(asked(since)).toEqual(['/users']);
    await act(async () => held.open());
    await screen.findByText('1 users, 101');
    expect(asked(since)).toEqual(['/users', '/tickers/WATERFALL']);
  });

  test('a failed read reaches the error boundary with the error useSuspense would throw', async () => {
    const restore = quietErrors();
    try {
      const caught: Error[] = [];
      function Failing() {
        const stats = useFetch(api.getStats, { product_id: 'FAILS' });
        return <p>{String(use!(stats).last)}</p>;
      }
      await act(async () => {
        renderWithCache(
          <Boundary caught={caught}>
            <Suspense fallback={<p>loading</p>}>
              <Failing />
            </Suspense>
          </Boundary>,
        );
      });
      await waitFor(() => expect(caught).toHaveLength(1));
      expect(caught[0]).toMatchObject({ status: 500 });
    } finally {
      restore.mockRestore();
    }
  });
});
