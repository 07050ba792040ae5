/**
 * The server: the API (two endpoints answering after different delays), the browser's bundle,
 * and the page, rendered per request by docs/examples/server-rendering.tsx (the guide's code,
 * run here as shown). `GET /_log` lists the API requests answered, for the e2e test. Started by
 * start.mjs.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { renderPage } from '../../docs/examples/server-rendering';
import { cache } from './api';
import { App } from './App';

/** The product's name is markup: the page must show it as text, and never run it. */
export const HOSTILE_NAME = '</script><script>window.__pwned = 1</script>';
/** How long each endpoint takes to answer: the product first, the reviews well after it. */
const DELAYS = { product: 100, reviews: 600 };

const log: Array<{ path: string; from: 'server' | 'browser'; at: number }> = [];
let reviewsServed = 0;
const wait = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));
// The server's render fetches with Node's fetch; anything else is a browser.
const fromOf = (request: IncomingMessage) => (request.headers['user-agent'] === 'node' ? 'server' : 'browser');

async function api(path: string): Promise<unknown> {
  if (path === '/api/products/1') {
    await wait(DELAYS.product);
    return { id: '1', name: HOSTILE_NAME };
  }
  if (path === '/api/products/1/reviews') {
    await wait(DELAYS.reviews);
    reviewsServed += 1;
    return [
      { id: 'r1', text: 'Does what it says.' },
      { id: 'r2', text: `Answer #${reviewsServed} of the reviews endpoint.` },
    ];
  }
  return undefined;
}

/** Starts the server on `port` (0: a free one), serving `clientBundle` (a file) as /client.js; resolves to its URL. */
export function startServer(port: number, clientBundle: string): Promise<string> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (path.startsWith('/api/')) {
      log.push({ path, from: fromOf(request), at: Date.now() });
      void api(path).then(body => {
        response.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body ?? { error: 'not found' }));
      });
    } else if (path === '/_log') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(log));
    } else if (path === '/client.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' });
      response.end(readFileSync(clientBundle));
    } else if (path === '/') {
      const { port } = server.address() as AddressInfo;
      renderPage(<App />, response, { cache, apiOrigin: `http://127.0.0.1:${port}`, bootstrapModules: ['/client.js'] });
    } else {
      response.writeHead(404).end();
    }
  });
  return new Promise(resolve =>
    server.listen(port, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)),
  );
}
