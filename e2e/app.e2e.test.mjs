// End to end: `npm start`'s app (built and served by example/start.mjs) driven in headless
// Chromium (Debian's chromium, through playwright-core). Requests are counted at the app's server;
// a failing step leaves a screenshot in e2e/artifacts/.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { holding, PORTFOLIOS } from '../example/server.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
let app;
let url;
let browser;
let page;
const pageErrors = [];

before(async () => {
  // The real start command, on a free port.
  app = spawn(process.execPath, ['example/start.mjs'], {
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  url = await new Promise((resolve, reject) => {
    let out = '';
    app.stdout.on('data', chunk => {
      out += chunk;
      const found = out.match(/http:\/\/\S+\//);
      if (found) resolve(found[0]);
    });
    app.on('exit', code => reject(new Error(`example/start.mjs exited with ${code}: ${out}`)));
  });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('pageerror', error => pageErrors.push(String(error)));
  page.on('console', message => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
  await page.goto(url);
});

after(async () => {
  await browser?.close();
  app?.kill();
});

/** Runs a step; on failure, saves a screenshot named after it, then fails. */
async function step(name, run) {
  try {
    await run();
  } catch (error) {
    mkdirSync('e2e/artifacts', { recursive: true });
    await page?.screenshot({ path: `e2e/artifacts/${name}.png`, fullPage: true }).catch(() => undefined);
    throw error;
  }
}

async function serverLog() {
  const response = await fetch(new URL('/api/_log', url));
  return response.json();
}
const count = (log, path) => log.filter(entry => entry.path === path).length;

/** The % equity column as shown, and as the portfolio's holdings say it should be. */
const shownPct = () => page.locator('[data-testid=companies] [data-testid=pct]').allTextContents();
const expectedPct = portfolio =>
  ['1', '2', '3', '4', '5'].map(id => `${(holding(portfolio, id).pct_equity * 100).toFixed(1)}%`);

async function pick(portfolio) {
  await page.click(`[data-testid=portfolio-${portfolio}]`);
  await page.waitForFunction(
    expected =>
      JSON.stringify(
        [...document.querySelectorAll('[data-testid=companies] [data-testid=pct]')].map(cell => cell.textContent),
      ) === expected,
    JSON.stringify(expectedPct(portfolio)),
  );
  // Long enough for a request the switch might have started to reach the server.
  await page.waitForTimeout(400);
}

test('portfolios: the list is fetched once; a new portfolio fetches only its columns; a revisit fetches nothing', async () => {
  const [first, second, third] = PORTFOLIOS;
  await step('portfolio-first', async () => {
    await page.waitForSelector('[data-testid=companies]');
    assert.deepEqual(await shownPct(), expectedPct(first));
    const log = await serverLog();
    assert.equal(count(log, '/api/companies'), 1);
    assert.equal(count(log, '/api/companies/columns'), 0);
  });
  await step('portfolio-new', async () => {
    await pick(second);
    const log = await serverLog();
    assert.equal(count(log, '/api/companies'), 1);
    assert.equal(count(log, '/api/companies/columns'), 1);
  });
  await step('portfolio-revisit', async () => {
    await pick(first);
    await pick(second);
    const log = await serverLog();
    assert.equal(count(log, '/api/companies'), 1, 'revisits fetch no list');
    assert.equal(count(log, '/api/companies/columns'), 1, 'revisits fetch no columns');
    // The page's own request log shows the same two requests.
    assert.equal(await page.locator('[data-testid=request-log] li').count(), 2);
  });
  await step('portfolio-third', async () => {
    await pick(third);
    const log = await serverLog();
    assert.equal(count(log, '/api/companies/columns'), 2);
  });
});

test('posts stay sorted by title after a create, with one POST and no list refetch', async () => {
  const titles = () => page.locator('[data-testid=posts] li strong').allTextContents();
  await step('posts-loaded', async () => {
    await page.waitForSelector('[data-testid=posts] li');
    const shown = await titles();
    assert.deepEqual(
      shown,
      [...shown].sort((a, b) => a.localeCompare(b)),
    );
  });
  await step('posts-create', async () => {
    const before = count(await serverLog(), '/api/react/posts');
    await page.fill('[data-testid=new-title]', 'Aardvark patterns');
    await page.click('[data-testid=create]');
    await page.waitForFunction(
      () => document.querySelector('[data-testid=posts] li strong')?.textContent === 'Aardvark patterns',
    );
    // Shown at once as "saving" (optimistic), then the server's answer takes its place.
    await page.waitForSelector('[data-testid=pending]', { state: 'detached' });
    const shown = await titles();
    assert.equal(shown.length, 6);
    assert.deepEqual(
      shown,
      [...shown].sort((a, b) => a.localeCompare(b)),
    );
    const log = await serverLog();
    // One request for the create (the POST), none to refetch the list.
    assert.equal(count(log, '/api/react/posts'), before + 1);
    assert.equal(log.filter(entry => entry.method === 'POST').length, 1);
    // The create also shows up in the group-by of the users panel.
    await page.waitForFunction(() =>
      document.querySelector('[data-testid=panel-users]')?.textContent?.includes('Aardvark patterns'),
    );
  });
});

test('"Load more" appends the next page to the list: no post twice, still sorted, one GET per page', async () => {
  const titles = () => page.locator('[data-testid=posts] li strong').allTextContents();
  const pageRequests = log =>
    log.filter(entry => entry.path === '/api/react/posts' && entry.search.includes('cursor='));
  let before;
  await step('posts-first-page', async () => {
    await page.waitForSelector('[data-testid=load-more]');
    before = await titles();
    assert.equal(pageRequests(await serverLog()).length, 0);
  });
  await step('posts-load-more', async () => {
    const listRequests = count(await serverLog(), '/api/react/posts');
    // Page by page until the button goes (the last page is in).
    let pages = 0;
    while ((await page.locator('[data-testid=load-more]').count()) > 0) {
      await Promise.all([
        page.waitForResponse(response => response.url().includes('cursor=')),
        page.click('[data-testid=load-more]'),
      ]);
      pages++;
      await page.waitForFunction(() => {
        const button = document.querySelector('[data-testid=load-more]');
        return !button || !button.disabled;
      });
    }
    const shown = await titles();
    assert.ok(shown.length > before.length, `the list grew (${before.length} → ${shown.length})`);
    for (const title of before) assert.ok(shown.includes(title), `${title} is still listed`);
    assert.equal(new Set(shown).size, shown.length, 'no post is listed twice');
    assert.deepEqual(
      shown,
      [...shown].sort((a, b) => a.localeCompare(b)),
    );
    const log = await serverLog();
    assert.ok(pages >= 1);
    assert.equal(pageRequests(log).length, pages, 'one GET per page');
    assert.equal(count(log, '/api/react/posts'), listRequests + pages, 'the first page was not fetched again');
  });
});

test("a create shows at once as saving; a refused one is taken back with the server's message", async () => {
  const titles = () => page.locator('[data-testid=posts] li strong').allTextContents();
  // The POST is held here until the page has been checked, so the pending state is seen for sure.
  let release;
  const held = new Promise(resolve => (release = resolve));
  await page.route('**/api/react/posts', async route => {
    if (route.request().method() === 'POST') await held;
    await route.continue();
  });
  try {
    await step('optimistic-pending', async () => {
      const before = await titles();
      await page.fill('[data-testid=new-title]', 'Bees and lists');
      await page.click('[data-testid=create]');
      await page.waitForSelector('[data-testid=posts] li.pending');
      assert.equal(await page.locator('[data-testid=posts] li.pending strong').textContent(), 'Bees and lists');
      assert.equal(await page.locator('[data-testid=create]').textContent(), 'Saving…');
      assert.deepEqual(
        await titles(),
        [...before, 'Bees and lists'].sort((a, b) => a.localeCompare(b)),
      );
      release();
      await page.waitForSelector('[data-testid=pending]', { state: 'detached' });
      assert.deepEqual(
        await titles(),
        [...before, 'Bees and lists'].sort((a, b) => a.localeCompare(b)),
      );
      assert.equal(await page.locator('[data-testid=create]').textContent(), 'Create');
    });
    await step('optimistic-rollback', async () => {
      const before = await titles();
      release = undefined;
      const refused = new Promise(resolve => (release = resolve));
      await page.unroute('**/api/react/posts');
      await page.route('**/api/react/posts', async route => {
        if (route.request().method() === 'POST') await refused;
        await route.continue();
      });
      await page.fill('[data-testid=new-title]', '   ');
      await page.click('[data-testid=create]');
      await page.waitForSelector('[data-testid=posts] li.pending');
      assert.equal((await titles()).length, before.length + 1);
      release();
      await page.waitForSelector('[data-testid=create-error]');
      assert.equal(await page.locator('[data-testid=create-error]').textContent(), 'A post needs a title.');
      assert.deepEqual(await titles(), before);
      assert.equal(await page.locator('[data-testid=posts] li.pending').count(), 0);
    });
  } finally {
    await page.unroute('**/api/react/posts');
  }
});

test('counts, and the ticker/stats join following the live stream', async () => {
  await step('counts', async () => {
    await page.waitForFunction(
      () => document.querySelector('[data-testid=counts]')?.textContent === '4 users, 2 admins',
    );
  });
  await step('ticker-live', async () => {
    await page.waitForFunction(() =>
      document.querySelector('[data-testid=price-BTC]')?.textContent?.includes('daily stats'),
    );
    await page.check('[data-testid=live]');
    await page.waitForFunction(
      () => document.querySelector('[data-testid=price-BTC]')?.textContent?.includes('live ticker'),
      null,
      { timeout: 10_000 },
    );
  });
});

test('the polled view changes on its own: useLive refetches every 2 s with no user action', async () => {
  await step('polled-changes', async () => {
    const cell = '[data-testid=polled-BTC]';
    await page.waitForSelector(cell);
    // The requests before the value is first read: a poll already in flight may change the value
    // at once, so what is checked is that the value changes and that polls go on, untouched.
    const before = count(await serverLog(), '/api/stats/BTC');
    const first = await page.locator(cell).textContent();
    // Nothing is clicked or typed: the poller refetches, and the server's stats move every tick.
    await page.waitForFunction(
      ([selector, shown]) => document.querySelector(selector)?.textContent !== shown,
      [cell, first],
      { timeout: 15_000 },
    );
    const deadline = Date.now() + 15_000;
    while (count(await serverLog(), '/api/stats/BTC') <= before) {
      assert.ok(Date.now() < deadline, 'the poller sent a new request within 15 s');
      await new Promise(resolve => setTimeout(resolve, 200));
    }
  });
});

test('the page logged no errors', () => {
  // Chromium reports the refused create's 400 answer itself (the refusal the test asked for): that
  // one, and nothing else.
  const refused = 'Failed to load resource: the server responded with a status of 400 (Bad Request)';
  assert.equal(pageErrors.filter(error => error === refused).length, 1);
  assert.deepEqual(
    pageErrors.filter(error => error !== refused),
    [],
  );
});
