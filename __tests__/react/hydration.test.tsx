/**
 * @jest-environment ./__tests__/fixtures/jsdomWithFetch.js
 */
/**
 * Hydration: HTML rendered on the "server" from a filled store, and the state embedded as JSON, are
 * hydrated in the browser with a store preloaded from that JSON: no mismatch, no request.
 */
import { act } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { companyPage } from '../fixtures/companyPage';
import { exampleEndpoints } from '../fixtures/endpoints';
import { flushStarts, quietErrors } from '../fixtures/render';
import { startServer, type TestServer } from '../fixtures/server';
import { makeStore } from '../fixtures/store';

let server: TestServer;
let api: ReturnType<typeof exampleEndpoints>;
beforeAll(async () => {
  server = await startServer();
  api = exampleEndpoints(server.origin);
});
afterAll(() => server.close());

function page(setup: ReturnType<typeof makeStore>) {
  return companyPage(api.getCompanies, setup.cache, setup.store);
}

test('server HTML hydrates against a store preloaded from the embedded state: no mismatch, no request', async () => {
  const onServer = makeStore();
  onServer.store.dispatch(
    onServer.cache.setResponse(api.getCompanies, { portfolio: 'A' }, [
      { id: '1', name: 'Acme', price: 100, pct_equity: 0.5, shares: 10, sector: { id: 's1', name: 'Tech' } },
      { id: '2', name: 'Globex', price: 50, pct_equity: 0.2, shares: 20, sector: { id: 's1', name: 'Tech' } },
    ]),
  );
  // The "server" render runs in jsdom here, so react-redux sees a DOM and uses layout effects,
  // which React 18 warns about on the server; a real server has no DOM and no warning.
  const serverWarnings = quietErrors();
  let html: string;
  try {
    html = renderToString(page(onServer));
  } finally {
    serverWarnings.mockRestore();
  }
  const embedded = JSON.stringify(onServer.store.getState());

  const container = document.createElement('div');
  container.innerHTML = html;
  document.body.appendChild(container);
  const inBrowser = makeStore({}, { preloadedState: JSON.parse(embedded) });
  const recoverable: unknown[] = [];
  const logged = jest.spyOn(console, 'error');
  const requested = jest.spyOn(api.getCompanies, 'request');
  try {
    await act(async () => {
      hydrateRoot(container, page(inBrowser), { onRecoverableError: error => recoverable.push(error) });
    });
    // Any request the hydration asked for has started by now (they start in a microtask).
    await flushStarts();
    expect(recoverable).toEqual([]);
    expect(logged).not.toHaveBeenCalled();
    expect(container.innerHTML).toBe(html);
    expect(requested).not.toHaveBeenCalled();
  } finally {
    logged.mockRestore();
    requested.mockRestore();
  }
});
