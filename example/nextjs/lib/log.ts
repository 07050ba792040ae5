/**
 * The API requests the route handlers answered, with who asked (the server's render fetches with
 * Node's fetch, whose user agent is `node`), for check.mjs. Kept on globalThis: Next may load
 * this module once per route.
 */
export interface Entry {
  path: string;
  from: 'server' | 'browser';
  at: number;
}

const store = globalThis as typeof globalThis & { __apiLog?: Entry[] };

export const log: Entry[] = (store.__apiLog ??= []);

export function record(request: Request): void {
  const path = new URL(request.url).pathname;
  log.push({ path, from: request.headers.get('user-agent') === 'node' ? 'server' : 'browser', at: Date.now() });
}

export const wait = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));
