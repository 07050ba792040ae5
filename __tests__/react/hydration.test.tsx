/**
 * @jest-environment ./__tests__/fixtures/jsdomWithFetch.js
 */
/**
 * Hydration: HTML rendered on the "server" from a filled store, and the state embedded as JSON, are
 * hydrated in the browser with a store preloaded from that JSON: no mismatch, no request.
 */
import { configureStore } from '@reduxjs/toolkit';
import { act } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { createCache } from '../../src/index';
import { companyPage } from '../fixtures/companyPage';
import { exampleEndpoints } from '../fixtures/endpoints';
import { startServer, type TestServer } from '../fixtures/server';

let server: TestServer;
let api: ReturnType<typeof exampleEndpoints>;
beforeAll(async () => {
  server = await startServer();
  api = exampleEndpoints(server.origin);
});
afterAll(() => server.close());

function storeFor(cache: ReturnType<typeof createCache>, preloaded?: unknown) {
  return configureStore({
    reducer: { cache: cache.reducer },
    middleware: getDefault => getDefault().concat(cache.middleware),
    ...(preloaded ? { preloadedState: preloaded as never } : {}),
  });
}

function page(cache: ReturnType<typeof createCache>, store: ReturnType<typeof storeFor>) {
  return companyPage(api.getCompanies, cache, store);
}

test('server HTML hydrates against a store preloaded from the embedded state: no mismatch, no request', async () => {
  const onServer = createCache();
  const serverStore = storeFor(onServer);
  serverStore.dispatch(
    onServer.setResponse(api.getCompanies, { portfolio: 'A' }, [
      { id: '1', name: 'Acme', price: 100, pct_equity: 0.5, shares: 10, sector: { id: 's1', name: 'Tech' } },
      { id: '2', name: 'Globex', price: 50, pct_equity: 0.2, shares: 20, sector: { id: 's1', name: 'Tech' } },
    ]),
  );
  // The "server" render runs in jsdom here, so react-redux sees a DOM and uses layout effects,
  // which React 18 warns about on the server; a real server has no DOM and no warning.
  const serverWarnings = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  const html = renderToString(page(onServer, serverStore));
  serverWarnings.mockRestore();
  const embedded = JSON.stringify(serverStore.getState());

  const container = document.createElement('div');
  container.innerHTML = html;
  document.body.appendChild(container);
  const inBrowser = createCache();
  const browserStore = storeFor(inBrowser, JSON.parse(embedded));
  const recoverable: unknown[] = [];
  const logged = jest.spyOn(console, 'error');
  const before = server.count();
  const requested = jest.spyOn(api.getCompanies, 'request');
  await act(async () => {
    hydrateRoot(container, page(inBrowser, browserStore), { onRecoverableError: error => recoverable.push(error) });
  });
  expect(recoverable).toEqual([]);
  expect(logged).not.toHaveBeenCalled();
  logged.mockRestore();
  expect(container.innerHTML).toBe(html);
  // A request would be sent in a microtask and reach the server shortly after.
  await act(() => new Promise(resolve => setTimeout(resolve, 50)));
  expect(requested).not.toHaveBeenCalled();
  expect(server.count()).toBe(before);
  requested.mockRestore();
});
