// `npm start`: builds the example app, then serves it with its API on http://127.0.0.1:5173/
// (PORT=… to choose another port, HOST=… another address). EXAMPLE_TEST_ROUTES=1 adds the server's
// test-only routes (example/overlap.mjs), for the e2e test.
import { buildExample } from './build.mjs';
import { startExample } from './server.mjs';

const DEFAULT_PORT = 5173;

/** The port from PORT, or the default; anything else is refused with a message. */
function portFromEnv() {
  const text = process.env.PORT;
  if (text === undefined || text === '') return DEFAULT_PORT;
  const port = Number(text);
  if (Number.isInteger(port) && port >= 0 && port <= 65535) return port;
  console.error(`PORT must be a port number from 0 to 65535 (0 picks a free one); got ${JSON.stringify(text)}.`);
  process.exit(1);
}

const port = portFromEnv();
const host = process.env.HOST ?? '127.0.0.1';
await buildExample();
try {
  const app = await startExample({ port, host, testRoutes: process.env.EXAMPLE_TEST_ROUTES === '1' });
  console.log(`lenscache example app: ${app.url}  (Ctrl+C to stop)`);
} catch (error) {
  if (error?.code === 'EADDRINUSE' || error?.code === 'EACCES') {
    const why =
      error.code === 'EADDRINUSE'
        ? 'is already in use (another `npm start`, or another server?)'
        : 'needs privileges this user lacks';
    console.error(`Cannot serve the example app: port ${port} on ${host} ${why}.`);
    console.error(
      `Stop what holds it, or choose another port: PORT=${port === DEFAULT_PORT ? 5174 : DEFAULT_PORT} npm start  (PORT=0 picks a free one).`,
    );
    process.exit(1);
  }
  throw error;
}
