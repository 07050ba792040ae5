// `npm start`: builds the example app, then serves it with its API on http://localhost:5173/
// (PORT=… to choose another port).
import { buildExample } from './build.mjs';
import { startExample } from './server.mjs';

await buildExample();
const port = Number(process.env.PORT ?? 5173);
const app = await startExample({ port, host: process.env.HOST ?? '127.0.0.1' });
console.log(`lenscache example app: ${app.url}  (Ctrl+C to stop)`);
