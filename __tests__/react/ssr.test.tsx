/**
 * Server rendering (node environment): hooks read cached data during render, with no effects, so a
 * store filled on the server renders to complete HTML; with nothing cached, a streaming prerender
 * (React 18 and 19's renderToPipeableStream, read once all is ready) waits for useSuspense's request to the real local server. Hydration in a browser is in
 * hydration.test.tsx.
 */
import type { ReactElement } from 'react';
import { PassThrough } from 'node:stream';
import { renderToPipeableStream, renderToString } from 'react-dom/server';
import { companyPage } from '../fixtures/companyPage';
import { exampleEndpoints } from '../fixtures/endpoints';
import { startServer, type TestServer } from '../fixtures/server';
import { makeStore } from '../fixtures/store';

let server: TestServer;
let api: ReturnType<typeof exampleEndpoints>;
const list = [
  { id: '1', name: 'Acme', price: 100, pct_equity: 0.5, shares: 10, sector: { id: 's1', name: 'Tech' } },
  { id: '2', name: 'Globex', price: 50, pct_equity: 0.2, shares: 20, sector: { id: 's1', name: 'Tech' } },
];

beforeAll(async () => {
  server = await startServer();
  api = exampleEndpoints(server.origin);
  server.on('GET /companies', () => ({ json: list }));
});
afterAll(() => server.close());

function page(setup: ReturnType<typeof makeStore>) {
  return companyPage(api.getCompanies, setup.cache, setup.store);
}

test('a store filled before rendering renders to complete HTML, with no request', async () => {
  const setup = makeStore();
  setup.store.dispatch(setup.cache.setResponse(api.getCompanies, { portfolio: 'A' }, list));
  const requested = jest.spyOn(api.getCompanies, 'request');
  try {
    const html = renderToString(page(setup));
    expect(html).toContain('<li>Acme 0.5</li><li>Globex 0.2</li>');
    expect(html).toContain('data-acme="Acme"');
    expect(html).not.toContain('loading');
    await requestStarts();
    expect(requested).not.toHaveBeenCalled();
  } finally {
    requested.mockRestore();
  }
});

test('a state serialized on the server renders the same HTML from a second store built from it', async () => {
  const server1 = makeStore();
  server1.store.dispatch(server1.cache.setResponse(api.getCompanies, { portfolio: 'A' }, list));
  const embedded = JSON.stringify(server1.store.getState());
  const html = renderToString(page(server1));

  const client = makeStore({}, { preloadedState: JSON.parse(embedded) });
  const requested = jest.spyOn(api.getCompanies, 'request');
  try {
    expect(renderToString(page(client))).toBe(html);
    await requestStarts();
    expect(requested).not.toHaveBeenCalled();
  } finally {
    requested.mockRestore();
  }
});

test('with nothing cached, a streaming render waits for useSuspense to fetch from the server', async () => {
  const setup = makeStore();
  const before = server.count('GET /companies');
  const html = await renderAllReady(page(setup));
  expect(html).toContain('Acme 0.5');
  expect(html).toContain('Globex 0.2');
  expect(server.count('GET /companies') - before).toBe(1);
});

/** The whole HTML of a streaming render once every Suspense boundary resolved. */
function renderAllReady(element: ReactElement): Promise<string> {
  return new Promise((resolve, reject) => {
    const sink = new PassThrough();
    let html = '';
    sink.on('data', chunk => (html += chunk));
    sink.on('end', () => resolve(html));
    const stream = renderToPipeableStream(element, {
      onAllReady: () => stream.pipe(sink),
      onShellError: reject,
      onError: reject,
    });
  });
}

/** Lets a request a render asked for start: requests are sent in a microtask, before any timer. */
function requestStarts(): Promise<void> {
  return new Promise(resolve => setImmediate(resolve));
}
