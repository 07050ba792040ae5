// The example app's server: the bundled React page and a small JSON API on one port, with a
// log of the API requests it answered (GET /api/_log, which is not logged itself) and a stream
// of ticker updates (server-sent events). The API wants a token (example/auth.mjs) but for its
// login and refresh routes, the log, the test-only routes and the stream (an EventSource sends no
// headers; the prices are public). State lives in memory; every server starts afresh.
import http from 'node:http';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { createAuth } from './auth.mjs';
import { createOverlap } from './overlap.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const STATIC = {
  '/': ['index.html', 'text/html'],
  '/app.js': ['dist/app.js', 'text/javascript'],
  '/app.css': ['app.css', 'text/css'],
};

function seed() {
  const users = [
    { id: 'u1', name: 'Ann', isAdmin: true },
    { id: 'u2', name: 'Bo', isAdmin: false },
    { id: 'u3', name: 'Cy', isAdmin: true },
    { id: 'u4', name: 'Dee', isAdmin: false },
  ];
  const titles = {
    react: [
      'Suspense in practice',
      'Keys and lists',
      'Hooks rules',
      'Memo or not',
      'Server components',
      'Effects you do not need',
      'Transitions',
      'Context without re-renders',
    ],
    vue: ['Refs and reactives', 'Single-file components', 'Pinia stores'],
  };
  const posts = [];
  let n = 0;
  for (const [group, list] of Object.entries(titles)) {
    for (const title of list) {
      n++;
      posts.push({
        id: String(n),
        title,
        group,
        createdAt: new Date(Date.UTC(2026, 0, n)).toISOString(),
        author: users[n % users.length].id,
      });
    }
  }
  const sectors = [
    { id: 's1', name: 'Technology' },
    { id: 's2', name: 'Energy' },
    { id: 's3', name: 'Health' },
  ];
  const companies = [
    ['1', 'Acme', 120.5, 's1'],
    ['2', 'Globex', 64.2, 's2'],
    ['3', 'Initech', 33.9, 's1'],
    ['4', 'Umbrella', 88.1, 's3'],
    ['5', 'Hooli', 210.0, 's1'],
  ].map(([id, name, price, sector]) => ({ id, name, price, sector: sectors.find(s => s.id === sector) }));
  const tickers = { BTC: 64000, ETH: 3100 };
  // Each product trades its own volume, growing at its own pace every tick.
  const volumes = { BTC: 18_250, ETH: 96_400 };
  return { users, posts, companies, tickers, volumes, nextPost: n + 1 };
}

/** A portfolio's holdings: a deterministic function of portfolio and company, so tests can check values. */
export function holding(portfolio, companyId) {
  let hash = 2166136261;
  for (const c of `${portfolio}:${companyId}`) hash = Math.imul(hash ^ c.charCodeAt(0), 16777619) >>> 0;
  return { pct_equity: (hash % 4000) / 10000, shares: ((hash >>> 12) % 5000) * 10 + 10 };
}

export const PORTFOLIOS = ['Growth', 'Income', 'Balanced', 'Index'];

/** The currencies prices are shown in, with their rate from the stored USD prices. */
export const RATES = { USD: 1, EUR: 0.92, JPY: 151.3 };
/** A company's price in a currency, as the server sends it. */
export const priceIn = (currency, company) => Math.round(company.price * (RATES[currency] ?? 1) * 100) / 100;
/** The companies an `ids` param names (every one without it). */
const named = (companies, url) => {
  const ids = url.searchParams.get('ids')?.split(',');
  return ids ? companies.filter(company => ids.includes(company.id)) : companies;
};

/** The bond universe (every portfolio's), served a page at a time: id, name, coupon (%). */
export const BONDS = [
  ['b1', 'Bund 2031', 2.1],
  ['b2', 'OAT 2029', 2.6],
  ['b3', 'BTP 2033', 3.9],
  ['b4', 'Gilt 2035', 4.2],
  ['b5', 'UST 2030', 4.0],
  ['b6', 'JGB 2032', 0.9],
  ['b7', 'Acme 2028', 5.3],
  ['b8', 'Globex 2030', 6.1],
  ['b9', 'Initech 2027', 7.4],
  ['b10', 'Umbrella 2034', 5.8],
  ['b11', 'Hooli 2031', 4.7],
  ['b12', 'EIB 2029', 2.4],
].map(([id, name, coupon]) => ({ id, name, coupon }));
/** How many bonds one page holds. */
export const BONDS_PAGE = 4;

/** A portfolio's position in a bond: its weight and nominal, deterministic as `holding` is. */
export function bondHolding(portfolio, bondId) {
  const { pct_equity, shares } = holding(portfolio, bondId);
  return { weight: pct_equity, nominal: shares * 1000 };
}

/** How much each product's traded volume grows per tick. */
const VOLUME_PER_TICK = { BTC: 12, ETH: 75 };

/** The events of the timeline, oldest first: the list opens at EVENTS_START, EVENTS_PAGE at a time. */
export const EVENTS = 40;
export const EVENTS_START = 20;
export const EVENTS_PAGE = 4;

/** How many posts one page of a post list holds. */
export const POSTS_PAGE = 5;
/** How much longer than other requests a search takes (ms). */
const SEARCH_DELAY = 600;

/** The path of one post: `/api/react/posts/3`. */
const POST_PATH = /^\/api\/(react|vue)\/posts\/([^/]+)$/;

/**
 * Starts the example server. `delay` (ms) slows API answers so loading states are visible.
 * `testRoutes` adds the test-only switches of example/overlap.mjs and example/auth.mjs under
 * /api/_test/. Each entry of the log is `{ method, path, search, auth, status }`: `auth` is what
 * the request's token was (`'valid'`, `'invalid'` or `'none'`), `status` the answer's, once sent.
 * Resolves to `{ url, close(), log }`; rejects with Node's listen error (`code: 'EADDRINUSE'` for
 * a port in use).
 */
export async function startExample({
  port = 0,
  host = '127.0.0.1',
  delay = 150,
  tickMs = 1000,
  testRoutes = false,
} = {}) {
  const db = seed();
  const log = [];
  const streams = new Set();
  const overlap = testRoutes ? createOverlap() : undefined;
  const auth = createAuth(db.users);
  const json = (res, status, body) => {
    if (body === undefined) {
      res.writeHead(status, { 'Cache-Control': 'no-store' });
      res.end();
      return;
    }
    res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
    res.end(JSON.stringify(body));
  };
  const withAuthor = post => ({ ...post, author: db.users.find(u => u.id === post.author) });
  const findPost = (group, id) => db.posts.find(post => post.group === group && post.id === id);
  const noPost = (group, id) => [404, { message: `There is no ${group} post ${id}.` }];
  const routes = [
    [
      'GET',
      /^\/api\/events$/,
      (_m, url) => {
        // The cursor is the offset of the page's first event; the list itself opens in the middle.
        const start = Math.min(Math.max(Number(url.searchParams.get('cursor') ?? EVENTS_START) || 0, 0), EVENTS);
        const end = Math.min(start + EVENTS_PAGE, EVENTS);
        const results = [];
        for (let id = start + 1; id <= end; id++) results.push({ id: String(id), title: `Event ${id}` });
        const previousCursor = start > 0 ? String(Math.max(start - EVENTS_PAGE, 0)) : null;
        return [200, { results, nextCursor: end < EVENTS ? String(end) : null, previousCursor }];
      },
    ],
    [
      'GET',
      /^\/api\/(react|vue)\/posts$/,
      ([group], url) => {
        const orderBy = url.searchParams.get('orderBy');
        const list = db.posts.filter(post => post.group === group).map(withAuthor);
        if (orderBy === 'title') list.sort((a, b) => a.title.localeCompare(b.title));
        if (orderBy === 'createdAt') list.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
        // Served a page at a time; the cursor is the offset of the page's first post.
        const start = Number(url.searchParams.get('cursor') ?? 0) || 0;
        const end = start + POSTS_PAGE;
        return [200, { results: list.slice(start, end), nextCursor: end < list.length ? String(end) : null }];
      },
    ],
    [
      'POST',
      /^\/api\/(react|vue)\/posts$/,
      ([group], _url, body) => {
        const title = typeof body?.title === 'string' ? body.title.trim() : '';
        if (!title) return [400, { message: 'A post needs a title.' }];
        const author = db.users.find(u => u.id === body.author) ?? db.users[0];
        const post = {
          id: String(db.nextPost++),
          title,
          group,
          createdAt: new Date().toISOString(),
          author: author.id,
        };
        db.posts.push(post);
        return [201, { ...post, author }];
      },
    ],
    [
      'GET',
      POST_PATH,
      ([group, id]) => {
        const post = findPost(group, id);
        return post ? [200, withAuthor(post)] : noPost(group, id);
      },
    ],
    [
      'PATCH',
      POST_PATH,
      ([group, id], _url, body) => {
        const post = findPost(group, id);
        if (!post) return noPost(group, id);
        if (body?.title !== undefined) {
          const title = typeof body.title === 'string' ? body.title.trim() : '';
          if (!title) return [400, { message: 'A post needs a title.' }];
          post.title = title;
        }
        return [200, withAuthor(post)];
      },
    ],
    [
      'DELETE',
      POST_PATH,
      ([group, id]) => {
        const post = findPost(group, id);
        if (!post) return noPost(group, id);
        db.posts.splice(db.posts.indexOf(post), 1);
        return [204, undefined];
      },
    ],
    [
      'GET',
      /^\/api\/search$/,
      (_params, url) => {
        const q = (url.searchParams.get('q') ?? '').toLowerCase();
        return [200, db.posts.filter(post => post.title.toLowerCase().includes(q)).map(withAuthor)];
      },
    ],
    ['GET', /^\/api\/users$/, () => [200, db.users]],
    [
      'GET',
      /^\/api\/tickers\/([A-Z]+)$/,
      ([id]) =>
        db.tickers[id]
          ? [200, { product_id: id, price: db.tickers[id], time: new Date().toISOString() }]
          : [404, { message: `No ticker ${id}` }],
    ],
    [
      'GET',
      /^\/api\/stats\/([A-Z]+)$/,
      ([id]) =>
        db.tickers[id]
          ? [200, { product_id: id, last: Math.round(db.tickers[id] * 0.98), volume: db.volumes[id] }]
          : [404, { message: `No stats for ${id}` }],
    ],
    [
      'GET',
      /^\/api\/companies$/,
      (_m, url) => {
        const portfolio = url.searchParams.get('portfolio') ?? PORTFOLIOS[0];
        const currency = url.searchParams.get('currency') ?? 'USD';
        return [
          200,
          db.companies.map(company => ({
            ...company,
            price: priceIn(currency, company),
            ...holding(portfolio, company.id),
          })),
        ];
      },
    ],
    [
      'GET',
      /^\/api\/bonds$/,
      (_m, url) => {
        const portfolio = url.searchParams.get('portfolio') ?? PORTFOLIOS[0];
        // The cursor is the offset of the page's first bond, as for posts.
        const start = Number(url.searchParams.get('cursor') ?? 0) || 0;
        const end = start + BONDS_PAGE;
        return [
          200,
          {
            results: BONDS.slice(start, end).map(bond => ({ ...bond, ...bondHolding(portfolio, bond.id) })),
            nextCursor: end < BONDS.length ? String(end) : null,
            total: BONDS.length,
          },
        ];
      },
    ],
    [
      'GET',
      /^\/api\/companies\/columns$/,
      (_m, url) => {
        const portfolio = url.searchParams.get('portfolio') ?? PORTFOLIOS[0];
        const companies = named(db.companies, url);
        return [200, Object.fromEntries(companies.map(company => [company.id, holding(portfolio, company.id)]))];
      },
    ],
    [
      'GET',
      /^\/api\/companies\/prices$/,
      (_m, url) => {
        const currency = url.searchParams.get('currency') ?? 'USD';
        const companies = named(db.companies, url);
        return [200, Object.fromEntries(companies.map(company => [company.id, { price: priceIn(currency, company) }]))];
      },
    ],
  ];

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    try {
      if (req.method === 'GET' && STATIC[url.pathname]) {
        const [file, type] = STATIC[url.pathname];
        res.writeHead(200, { 'Content-Type': `${type}; charset=utf-8` });
        res.end(await readFile(join(here, file)));
        return;
      }
      if (url.pathname === '/favicon.ico') {
        res.writeHead(204);
        res.end();
        return;
      }
      if (url.pathname === '/api/_log') return json(res, 200, log);
      if (overlap && req.method === 'POST' && url.pathname === '/api/_test/overlap') {
        overlap.arm();
        return json(res, 200, { armed: true });
      }
      if (overlap && req.method === 'POST' && url.pathname === '/api/_test/release') {
        return json(res, 200, { released: overlap.release() });
      }
      if (testRoutes && req.method === 'POST' && url.pathname === '/api/_test/expire-tokens') {
        return json(res, 200, { expired: auth.expireTokens() });
      }
      if (testRoutes && req.method === 'POST' && url.pathname === '/api/_test/end-sessions') {
        return json(res, 200, { ended: auth.endSessions() });
      }
      if (url.pathname === '/api/stream/tickers') {
        res.writeHead(200, {
          'Content-Type': 'text/event-stream',
          'Cache-Control': 'no-store',
          Connection: 'keep-alive',
        });
        res.write(': connected\n\n');
        streams.add(res);
        req.on('close', () => streams.delete(res));
        return;
      }
      let text = '';
      for await (const chunk of req) text += chunk;
      const body = text ? JSON.parse(text) : undefined;
      const entry = {
        method: req.method,
        path: url.pathname,
        search: url.search,
        auth: auth.check(req.headers.authorization),
      };
      log.push(entry);
      const reply = (status, answer) => {
        entry.status = status;
        json(res, status, answer);
      };
      if (req.method === 'POST' && url.pathname === '/api/auth/login') return reply(...auth.login(body));
      if (req.method === 'POST' && url.pathname === '/api/auth/refresh') return reply(...auth.refresh(body));
      const route = routes.find(([method, pattern]) => method === req.method && pattern.test(url.pathname));
      if (!route) return reply(404, { message: `No route for ${req.method} ${url.pathname}` });
      const answer = () => route[2](url.pathname.match(route[1]).slice(1), url, body);
      // Checked on arrival, answered after the usual delay: requests sent together meet it together.
      const allowed = entry.auth === 'valid';
      if (allowed && overlap && POST_PATH.test(url.pathname)) {
        if (req.method === 'GET' && overlap.holds(url.pathname)) {
          // Served now, from the post as it is before the mutation it overlaps; sent on release.
          const [status, held] = answer();
          overlap.hold(url.pathname, () => reply(status, held));
          return;
        }
        if (req.method !== 'GET') await overlap.beforeMutation(url.pathname);
      }
      // A search takes longer, so typing on aborts the request of a query typed past.
      const wait = url.pathname === '/api/search' ? delay + SEARCH_DELAY : delay;
      if (wait) await new Promise(resolve => setTimeout(resolve, wait));
      if (!allowed) return reply(401, { message: entry.auth === 'none' ? 'Log in first.' : 'Your token has expired.' });
      reply(...answer());
    } catch (error) {
      json(res, 500, { message: String(error) });
    }
  });

  // The "stream": every tick, each ticker moves a little and is pushed to every listener.
  const timer = setInterval(() => {
    for (const id of Object.keys(db.tickers)) {
      db.volumes[id] += VOLUME_PER_TICK[id];
      db.tickers[id] = Math.round(db.tickers[id] * (1 + (Math.random() - 0.5) / 500) * 100) / 100;
      const event = `data: ${JSON.stringify({ product_id: id, price: db.tickers[id], time: new Date().toISOString() })}\n\n`;
      for (const res of streams) res.write(event);
    }
  }, tickMs);

  // A port that is taken (EADDRINUSE) rejects here instead of crashing the process from an
  // unhandled 'error' event, so the caller can say what to do.
  try {
    await new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    clearInterval(timer);
    throw error;
  }
  const address = server.address();
  return {
    url: `http://${host === '0.0.0.0' ? 'localhost' : host}:${address.port}/`,
    log,
    close() {
      clearInterval(timer);
      for (const res of streams) res.end();
      server.closeAllConnections();
      return new Promise(resolve => server.close(resolve));
    },
  };
}
