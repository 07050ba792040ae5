// End to end: `npm start`'s app (built and served by example/start.mjs) driven in headless
// Chromium (Debian's chromium, through playwright-core). Requests are counted at the app's server,
// which also has test-only routes here (EXAMPLE_TEST_ROUTES=1: example/overlap.mjs); a failing step
// leaves a screenshot in e2e/artifacts/, where the bonds test also saves its panel when it passes.
// The page logs in first; the counts start after its login (the session itself: session.e2e.test.mjs).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { BONDS, bondHolding, holding, PORTFOLIOS, priceIn } from '../example/server.mjs';
import { launchApp, logIn, PASSWORD, serverLog as logOf, step as stepOf } from './harness.mjs';

let app;
let url;
let browser;
let page;
let pageErrors;
/** Where the server's log stood once the page had logged in: counts start there. */
let afterLogin;

before(async () => {
  app = await launchApp();
  ({ url, browser, page, pageErrors } = app);
  await page.goto(url);
  // The page asks for a login first; every API request after it carries the token. The panels'
  // reads may reach the server before the login form is gone: counts start right after the login.
  await logIn(page);
  afterLogin = (await logOf(url)).findIndex(entry => entry.path === '/api/auth/login' && entry.status === 200) + 1;
  assert.ok(afterLogin > 0, 'the page logged in');
});

after(async () => {
  await app?.close();
});

/** Runs a step; on failure, saves a screenshot named after it, then fails. */
const step = (name, run) => stepOf(page, name, run);

/** The requests the server answered since the login (the login request is not among them). */
const serverLog = async () => (await logOf(url)).slice(afterLogin ?? 0);
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

/** The price column as the currency says it should be (the companies' USD prices, converted by the server). */
const expectedPrices = currency =>
  [120.5, 64.2, 33.9, 88.1, 210.0].map(price => `${priceIn(currency, { price }).toFixed(2)} ${currency}`);
const shownPrices = () => page.locator('[data-testid=companies] [data-testid=price]').allTextContents();

async function pickCurrency(currency) {
  await page.click(`[data-testid=currency-${currency}]`);
  await page.waitForFunction(
    expected =>
      JSON.stringify(
        [...document.querySelectorAll('[data-testid=companies] [data-testid=price]')].map(cell => cell.textContent),
      ) === expected,
    JSON.stringify(expectedPrices(currency)),
  );
  // Long enough for a request the switch might have started to reach the server.
  await page.waitForTimeout(400);
}

test('two dimensions: each lens is fetched once, for its own columns; switching the other dimension fetches nothing', async () => {
  const [first, second, , fourth] = PORTFOLIOS;
  /** Requests per dimension since the login: the list, the holdings columns, the prices columns. */
  const counts = async () => {
    const log = await serverLog();
    return [count(log, '/api/companies'), count(log, '/api/companies/columns'), count(log, '/api/companies/prices')];
  };
  let before;
  await step('currency-new', async () => {
    before = await counts();
    assert.deepEqual(await shownPrices(), expectedPrices('USD'), 'the list came with its currency');
    await pickCurrency('EUR');
    // A new currency: its prices alone, whatever the portfolio shown.
    assert.deepEqual(await counts(), [before[0], before[1], before[2] + 1]);
  });
  await step('currency-back-and-forth', async () => {
    await pickCurrency('USD');
    await pickCurrency('EUR');
    await pickCurrency('USD');
    await pickCurrency('EUR');
    assert.deepEqual(await counts(), [before[0], before[1], before[2] + 1], 'revisited currencies fetch nothing');
  });
  await step('portfolio-at-another-currency', async () => {
    // Portfolios read at USD, now read at EUR: their holdings are the portfolio's, whatever the currency.
    await pick(first);
    await pick(second);
    assert.deepEqual(await shownPrices(), expectedPrices('EUR'));
    assert.deepEqual(await counts(), [before[0], before[1], before[2] + 1], 'no holdings and no prices fetched');
    // A new portfolio at EUR: its holdings alone.
    await pick(fourth);
    assert.deepEqual(await counts(), [before[0], before[1] + 1, before[2] + 1]);
  });
  await step('both-dimensions-back-and-forth', async () => {
    await pickCurrency('JPY');
    assert.deepEqual(await counts(), [before[0], before[1] + 1, before[2] + 2]);
    for (const portfolio of [first, fourth, second]) {
      await pick(portfolio);
      for (const currency of ['USD', 'JPY', 'EUR']) await pickCurrency(currency);
    }
    assert.deepEqual(await counts(), [before[0], before[1] + 1, before[2] + 2], 'every lens was read before');
    assert.deepEqual(await shownPct(), expectedPct(second));
    await page
      .locator('[data-testid=panel-companies]')
      .screenshot({ path: 'e2e/artifacts/companies-two-dimensions.png' });
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
    assert.ok(
      log.filter(entry => !entry.path.startsWith('/api/auth/')).every(entry => entry.auth === 'valid'),
      'every request since the login carried a valid token',
    );
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

test('a refetch on focus, once the list is stale, fetches every page again and keeps them all on screen', async () => {
  // A page of its own, with a clock the test can move: the list goes stale a minute after it lands.
  const other = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  try {
    await other.clock.install();
    const start = (await serverLog()).length;
    await other.goto(url);
    // A page of its own is a session of its own.
    await logIn(other);
    const titles = () => other.locator('[data-testid=posts] li strong').allTextContents();
    await step('focus-pages-loaded', async () => {
      await other.waitForSelector('[data-testid=load-more]');
      while ((await other.locator('[data-testid=load-more]').count()) > 0) {
        await Promise.all([
          other.waitForResponse(response => response.url().includes('cursor=')),
          other.click('[data-testid=load-more]'),
        ]);
        await other.waitForFunction(() => {
          const button = document.querySelector('[data-testid=load-more]');
          return !button || !button.disabled;
        });
      }
    });
    const shown = await titles();
    const before = await serverLog();
    const isPage = entry => entry.path === '/api/react/posts' && entry.search.includes('cursor=');
    const cursors = before.slice(start).filter(isPage).length;
    assert.ok(cursors >= 1, 'pages were loaded');
    await step('focus-refetch', async () => {
      await other.clock.fastForward(61_000);
      await other.evaluate(() => window.dispatchEvent(new Event('focus')));
      // The first page and then each page held, one after another.
      const deadline = Date.now() + 15_000;
      for (;;) {
        const log = (await serverLog()).slice(before.length);
        const list = log.filter(entry => entry.path === '/api/react/posts');
        if (list.length >= 1 + cursors) break;
        assert.ok(Date.now() < deadline, `the refetch sent the list and its ${cursors} pages (${list.length} so far)`);
        await new Promise(resolve => setTimeout(resolve, 200));
      }
      const list = (await serverLog()).slice(before.length).filter(entry => entry.path === '/api/react/posts');
      assert.equal(list.filter(isPage).length, cursors, 'each held page once, with the first page');
      await other.waitForFunction(
        expected =>
          [...document.querySelectorAll('[data-testid=posts] li strong')].map(e => e.textContent).join('|') ===
          expected,
        shown.join('|'),
      );
      assert.equal(await other.locator('[data-testid=load-more]').count(), 0, 'still at the end of the list');
    });
  } finally {
    await other.close();
  }
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
  await step('create-error-cleared', async () => {
    // The refusal was the react group's: another group's form shows no error, nor does react's on return.
    assert.equal(await page.locator('[data-testid=create-error]').count(), 1);
    await page.selectOption('[data-testid=group]', 'vue');
    await page.waitForSelector('[data-testid=create-error]', { state: 'detached' });
    await page.selectOption('[data-testid=group]', 'react');
    await page.waitForSelector('[data-testid=posts] li');
    assert.equal(await page.locator('[data-testid=create-error]').count(), 0);
  });
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
    // use(useFetch()) of both products' stats in one component: the same keys as the rows', so
    // no request of its own; it shows once both are in.
    await page.waitForFunction(() =>
      /^volume of both [\d,]+$/.test(document.querySelector('[data-testid=volume-total]')?.textContent ?? ''),
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
  await step('polled-own-volume', async () => {
    // Each product shows its own traded volume, not one figure for both.
    const volume = product => page.locator(`[data-testid=polled-${product}] td.muted`).textContent();
    assert.match(await volume('BTC'), /^volume [\d,]+$/);
    assert.notEqual(await volume('BTC'), await volume('ETH'));
  });
});

/** Arms the server's overlap switch (`overlap`) or sends the read answers it held (`release`). */
async function overlapSwitch(action) {
  const response = await fetch(new URL(`/api/_test/${action}`, url), { method: 'POST' });
  assert.equal(response.status, 200, `POST /api/_test/${action}`);
  return response.json();
}

/** A token of the test's own, for reads of the server's data outside the page. */
let ownToken;
/** What the server holds for a post: its status, and its title when there is one. */
async function serverPost(group, id) {
  ownToken ??= (
    await (
      await fetch(new URL('/api/auth/login', url), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Bo', password: PASSWORD }),
      })
    ).json()
  ).token;
  const response = await fetch(new URL(`/api/${group}/posts/${id}`, url), {
    headers: { authorization: `Bearer ${ownToken}` },
  });
  return { status: response.status, title: response.ok ? (await response.json()).title : undefined };
}

/** Where a post's title shows: the detail view, the group's list, and every cached post (by author). */
async function titlesShown() {
  return page.evaluate(() => ({
    detail: document.querySelector('[data-testid=detail-title]')?.textContent ?? null,
    list: [...document.querySelectorAll('[data-testid=posts] li strong')].map(node => node.textContent),
    cached: [...document.querySelectorAll('[data-testid=panel-users] .by-user dd')].flatMap(node =>
      node.textContent.split(' · '),
    ),
  }));
}

/** Waits until the detail view's refresh has settled: its answer has been written. */
const refreshSettled = () =>
  page.waitForFunction(() => document.querySelector('[data-testid=refresh]')?.textContent === 'Refresh');

/** Opens a post's detail view from the list; resolves to its id. */
async function openPost(title) {
  await page.getByRole('link', { name: title, exact: true }).click();
  await page.waitForFunction(
    shown => document.querySelector('[data-testid=detail-title]')?.textContent === shown,
    title,
  );
  return new URL(page.url()).hash.split('/').pop();
}

// The server holds the next PATCH or DELETE of a post until a GET of that post arrives. That GET
// (the view's refresh, sent after the mutation) is served from the post as it was before the
// mutation, and its answer is sent only after the mutation's: an older answer arriving last.

test('an edit from the detail page while its read refetches: the saved title stays', async () => {
  const title = 'Hooks rules';
  const renamed = 'Rules of hooks';
  let id;
  await step('edit-open', async () => {
    id = await openPost(title);
  });
  await step('edit-while-refetching', async () => {
    await overlapSwitch('overlap');
    const patched = page.waitForResponse(response => response.request().method() === 'PATCH');
    await page.click('[data-testid=edit]');
    await page.fill('[data-testid=edit-title]', renamed);
    await page.click('[data-testid=save]');
    // The guess shows at once, while the PATCH waits at the server for the refresh below.
    await page.waitForSelector('[data-testid=detail-saving]');
    assert.equal((await titlesShown()).detail, renamed);
    await page.click('[data-testid=refresh]');
    assert.equal((await patched).status(), 200);
    await page.waitForSelector('[data-testid=detail-saving]', { state: 'detached' });
    const answered = await titlesShown();
    assert.equal(answered.detail, renamed);
    assert.ok(answered.list.includes(renamed) && !answered.list.includes(title), `list: ${answered.list}`);
    assert.ok(answered.cached.includes(renamed) && !answered.cached.includes(title), `cached: ${answered.cached}`);
  });
  await step('edit-older-read-lands', async () => {
    // The refresh's answer, served before the PATCH was applied, arrives now: it must not win.
    const { released } = await overlapSwitch('release');
    assert.ok(released >= 1, 'the refresh overlapped the PATCH at the server');
    await refreshSettled();
    const settled = await titlesShown();
    assert.equal(settled.detail, renamed);
    assert.ok(settled.list.includes(renamed) && !settled.list.includes(title), `list: ${settled.list}`);
    assert.ok(settled.cached.includes(renamed) && !settled.cached.includes(title), `cached: ${settled.cached}`);
    assert.deepEqual(await serverPost('react', id), { status: 200, title: renamed });
    assert.equal(await page.locator('[data-testid=panel-post] [role=alert]').count(), 0);
  });
});

test("a refused save: the post shows saving…, then the server's message, which stays on the post until it saves", async () => {
  const title = 'Keys and lists';
  await step('status-open', async () => {
    await openPost(title);
  });
  await step('status-saving', async () => {
    // The PATCH waits at the server for the refresh below: "saving…" is on the post meanwhile.
    await overlapSwitch('overlap');
    const patched = page.waitForResponse(response => response.request().method() === 'PATCH');
    await page.click('[data-testid=edit]');
    await page.fill('[data-testid=edit-title]', ' ');
    await page.click('[data-testid=save]');
    await page.waitForSelector('[data-testid=detail-saving]');
    mkdirSync('e2e/artifacts', { recursive: true });
    await page.locator('[data-testid=panel-post]').screenshot({ path: 'e2e/artifacts/row-status-saving.png' });
    await page.click('[data-testid=refresh]');
    assert.equal((await patched).status(), 400);
    await overlapSwitch('release');
    await refreshSettled();
  });
  await step('status-error', async () => {
    await page.waitForSelector('[data-testid=detail-saving]', { state: 'detached' });
    assert.equal(await page.locator('[data-testid=edit-error]').textContent(), 'A post needs a title.');
    assert.equal((await titlesShown()).detail, title);
    await page.locator('[data-testid=panel-post]').screenshot({ path: 'e2e/artifacts/row-status-error.png' });
  });
  await step('status-reopened', async () => {
    // The error belongs to the post, not to the view that saved: closed and opened again, it stays.
    await page.click('[data-testid=close]');
    await page.waitForSelector('[data-testid=post-detail]', { state: 'detached' });
    await openPost(title);
    assert.equal(await page.locator('[data-testid=edit-error]').textContent(), 'A post needs a title.');
  });
  await step('status-saved', async () => {
    await page.click('[data-testid=edit]');
    await page.fill('[data-testid=edit-title]', title);
    await page.click('[data-testid=save]');
    await page.waitForSelector('[data-testid=detail-saving]', { state: 'detached' });
    await page.waitForSelector('[data-testid=edit-error]', { state: 'detached' });
    await page.click('[data-testid=close]');
  });
});

test('a delete from the detail page while its read refetches: the post stays deleted', async () => {
  const title = 'Memo or not';
  let id;
  await step('delete-open', async () => {
    id = await openPost(title);
  });
  await step('delete-while-refetching', async () => {
    await overlapSwitch('overlap');
    const deleted = page.waitForResponse(response => response.request().method() === 'DELETE');
    await page.click('[data-testid=delete]');
    // Gone from every list at once, while the DELETE waits at the server for the refresh below.
    await page.waitForSelector('[data-testid=deleted]');
    const guessed = await titlesShown();
    assert.ok(!guessed.list.includes(title) && !guessed.cached.includes(title), 'the guess removed the post');
    await page.click('[data-testid=refresh]');
    assert.equal((await deleted).status(), 204);
    await page.waitForFunction(() =>
      document.querySelector('[data-testid=deleted]')?.textContent?.endsWith('was deleted.'),
    );
    const answered = await titlesShown();
    assert.ok(!answered.list.includes(title), `list: ${answered.list}`);
    assert.ok(!answered.cached.includes(title), `cached: ${answered.cached}`);
  });
  await step('delete-older-read-lands', async () => {
    // The refresh's answer, the post as it was before the DELETE, arrives now: no resurrection.
    const { released } = await overlapSwitch('release');
    assert.ok(released >= 1, 'the refresh overlapped the DELETE at the server');
    await refreshSettled();
    const settled = await titlesShown();
    assert.equal(settled.detail, null);
    assert.ok(!settled.list.includes(title), `list: ${settled.list}`);
    assert.ok(!settled.cached.includes(title), `cached: ${settled.cached}`);
    assert.equal(await page.locator('[data-testid=deleted]').textContent(), `“${title}” was deleted.`);
    assert.equal(await page.locator('[data-testid=panel-post] [role=alert]').count(), 0);
    assert.equal((await serverPost('react', id)).status, 404);
  });
});

test('a search typed past is aborted; coming back to it shows its results, never the abort', async () => {
  const box = page.locator('[data-testid=search]');
  await step('search-type-past', async () => {
    await box.fill('hooks');
    await page.waitForSelector('[data-testid=search-results] li');
    // Each query is sent once it has not changed for 200 ms, and takes the server ~750 ms.
    await box.fill('re');
    await page.waitForTimeout(350);
    await box.fill('rea');
    await page.waitForTimeout(350);
  });
  await step('search-come-back', async () => {
    await box.fill('re');
    await page.waitForSelector('[data-testid=search-results] li');
    const results = await page.locator('[data-testid=search-results] li').allTextContents();
    assert.ok(
      results.some(text => text.startsWith('Refs and reactives')),
      `results: ${results}`,
    );
    const panel = await page.locator('[data-testid=panel-search]').innerText();
    assert.doesNotMatch(panel, /abort/i);
    assert.equal(await page.locator('[data-testid=panel-search] [role=alert]').count(), 0);
    // The aborted search for "re" was sent again when the query came back to it.
    const searches = (await serverLog()).filter(entry => entry.path === '/api/search');
    assert.equal(searches.filter(entry => entry.search === '?q=re').length, 2);
  });
});

/** The bonds panel as shown: each row's name and weight, the count line, and whether "Load more" is there. */
async function bondsShown() {
  return page.evaluate(() => {
    const panel = document.querySelector('[data-testid=panel-bonds]');
    const rows = [...panel.querySelectorAll('[data-testid=bonds] tbody tr')];
    return {
      names: rows.map(row => row.cells[0].textContent),
      weights: rows.map(row => row.querySelector('[data-testid=weight]').textContent),
      count: panel.querySelector('[data-testid=bonds-count]')?.textContent ?? null,
      more: panel.querySelector('[data-testid=bonds-more]') !== null,
    };
  });
}
/** The first `n` bonds' weights as the portfolio holds them. */
const expectedWeights = (portfolio, n) =>
  BONDS.slice(0, n).map(bond => `${(bondHolding(portfolio, bond.id).weight * 100).toFixed(1)}%`);
/** The bond requests the server answered since `from` (an index in its log): their query strings. */
const bondRequests = async from =>
  (await serverLog())
    .slice(from)
    .filter(entry => entry.path === '/api/bonds')
    .map(entry => entry.search);

/** Waits until the table shows the first `n` bonds at the portfolio's weights; else fails showing the table. */
async function bondsAt(portfolio, n) {
  const expected = expectedWeights(portfolio, n);
  await page
    .waitForFunction(
      json =>
        JSON.stringify(
          [...document.querySelectorAll('[data-testid=bonds] tbody [data-testid=weight]')].map(
            cell => cell.textContent,
          ),
        ) === json,
      JSON.stringify(expected),
      { timeout: 10_000 },
    )
    .catch(() => undefined);
  const shown = await bondsShown();
  assert.deepEqual(shown.weights, expected, `${n} bonds at ${portfolio}'s weights; shown: ${JSON.stringify(shown)}`);
}

/**
 * Picks a portfolio in the bonds panel and waits for its weights on the first `n` bonds. Every
 * state the table showed meanwhile is recorded: it must never show the rows alone (without the
 * portfolio's weights) nor fewer rows.
 */
async function pickBonds(portfolio, n) {
  await page.evaluate(() => {
    const panel = document.querySelector('[data-testid=panel-bonds]');
    const seen = (window.bondsSeen = []);
    const note = () => {
      const table = panel.querySelector('[data-testid=bonds]');
      // While a portfolio's pages load, Suspense hides the table (display: none) and shows its fallback.
      if (!table?.checkVisibility()) return;
      const weights = [...table.querySelectorAll('[data-testid=weight]')].map(cell => cell.textContent);
      seen.push({ rows: weights.length, missing: weights.filter(text => text === '…').length });
    };
    window.bondsObserver?.disconnect();
    window.bondsObserver = new MutationObserver(note);
    window.bondsObserver.observe(panel, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  await page.click(`[data-testid=bond-portfolio-${portfolio}]`);
  await bondsAt(portfolio, n);
  // Long enough for a request the switch might have started to reach the server.
  await page.waitForTimeout(400);
  const seen = await page.evaluate(() => {
    window.bondsObserver.disconnect();
    return window.bondsSeen;
  });
  assert.ok(seen.length > 0, 'the table was seen at the new portfolio');
  for (const state of seen) {
    assert.equal(state.missing, 0, `the table showed rows without ${portfolio}'s weights: ${JSON.stringify(seen)}`);
    assert.ok(state.rows >= n, `the table showed ${state.rows} rows of ${n}: ${JSON.stringify(seen)}`);
  }
}

test('bonds read at two portfolios are one list: a switch keeps every page, shows its weights and fetches the held pages there', async () => {
  const [first, second, third] = PORTFOLIOS;
  const panel = page.locator('[data-testid=panel-bonds]');
  // The requests this test sends, as the server and the page's log see them.
  const start = (await serverLog()).length;
  const loggedBefore = await page.locator('[data-testid=bond-log] li').count();
  let mark;
  await step('bonds-first-page', async () => {
    await page.waitForSelector('[data-testid=bonds-more]');
    assert.deepEqual((await bondsShown()).weights, expectedWeights(first, 4));
    assert.equal((await bondsShown()).count, '4 of 12 bonds');
  });
  await step('bonds-load-more', async () => {
    mark = (await serverLog()).length;
    await page.click('[data-testid=bonds-more]');
    await bondsAt(first, 8);
    const shown = await bondsShown();
    assert.deepEqual(
      shown.names,
      BONDS.slice(0, 8).map(bond => bond.name),
    );
    assert.equal(shown.count, '8 of 12 bonds');
    assert.ok(shown.more, 'a third page is offered');
    assert.deepEqual(await bondRequests(mark), [`?cursor=4&portfolio=${first}`]);
  });
  await step('bonds-second-portfolio', async () => {
    mark = (await serverLog()).length;
    await pickBonds(second, 8);
    const shown = await bondsShown();
    assert.deepEqual(
      shown.names,
      BONDS.slice(0, 8).map(bond => bond.name),
    );
    assert.equal(shown.count, '8 of 12 bonds');
    assert.ok(shown.more, '"Load more" is still offered at the second portfolio');
    // The list's first page and the page it holds, at the new portfolio, in order.
    assert.deepEqual(await bondRequests(mark), [`?portfolio=${second}`, `?cursor=4&portfolio=${second}`]);
    await panel.screenshot({ path: 'e2e/artifacts/bonds-second-portfolio.png' });
  });
  await step('bonds-back-to-first', async () => {
    mark = (await serverLog()).length;
    await pickBonds(first, 8);
    const shown = await bondsShown();
    assert.equal(shown.count, '8 of 12 bonds');
    assert.ok(shown.more);
    assert.deepEqual(await bondRequests(mark), [], 'a revisit fetches nothing');
    await pickBonds(second, 8);
    assert.deepEqual(await bondRequests(mark), [], 'nor does the next one');
  });
  await step('bonds-load-more-second', async () => {
    mark = (await serverLog()).length;
    await page.click('[data-testid=bonds-more]');
    await bondsAt(second, 12);
    const shown = await bondsShown();
    assert.equal(shown.count, '12 of 12 bonds');
    assert.ok(!shown.more, 'the last page is in');
    assert.deepEqual(await bondRequests(mark), [`?cursor=8&portfolio=${second}`]);
  });
  await step('bonds-third-portfolio', async () => {
    mark = (await serverLog()).length;
    await pickBonds(third, 12);
    const shown = await bondsShown();
    assert.deepEqual(
      shown.names,
      BONDS.map(bond => bond.name),
    );
    assert.equal(shown.count, '12 of 12 bonds');
    assert.ok(!shown.more, 'no page after the last, at this portfolio either');
    // Every page the list holds, loaded at two portfolios, fetched again at the third.
    assert.deepEqual(await bondRequests(mark), [
      `?portfolio=${third}`,
      `?cursor=4&portfolio=${third}`,
      `?cursor=8&portfolio=${third}`,
    ]);
    // The page's own request log lists what the server saw from it.
    const logged = await page.locator('[data-testid=bond-log] li code').allTextContents();
    assert.deepEqual(
      logged.slice(loggedBefore),
      (await bondRequests(start)).map(search => `GET /api/bonds${search}`),
    );
    await panel.screenshot({ path: 'e2e/artifacts/bonds-third-portfolio.png' });
  });
  await step('bonds-first-again-after-a-page-elsewhere', async () => {
    // The first portfolio's answer holds two pages; the list now holds three (the third loaded at
    // the second portfolio): going back fetches them all there, and every weight is the first's.
    mark = (await serverLog()).length;
    await pickBonds(first, 12);
    assert.equal((await bondsShown()).count, '12 of 12 bonds');
    assert.deepEqual(await bondRequests(mark), [
      `?portfolio=${first}`,
      `?cursor=4&portfolio=${first}`,
      `?cursor=8&portfolio=${first}`,
    ]);
    await pickBonds(third, 12);
    assert.equal((await bondRequests(mark)).length, 3, 'the third portfolio holds every page: nothing more');
    await panel.screenshot({ path: 'e2e/artifacts/bonds-first-again.png' });
  });
});

/** Waits until the timeline shows events `from` to `to`; else fails showing what it shows. */
async function eventsAre(from, to) {
  const expected = Array.from({ length: to - from + 1 }, (_, i) => `Event ${from + i}`);
  await page
    .waitForFunction(
      json =>
        JSON.stringify([...document.querySelectorAll('[data-testid=events] li')].map(li => li.textContent)) === json,
      JSON.stringify(expected),
      { timeout: 5000 },
    )
    .catch(async () => {
      assert.deepEqual(await page.locator('[data-testid=events] li').allTextContents(), expected);
    });
}
/** The event requests the server answered since `from` (an index in its log): their query strings. */
const eventRequests = async from =>
  (await serverLog())
    .slice(from)
    .filter(entry => entry.path === '/api/events')
    .map(entry => entry.search);

test('the timeline pages both ways, three pages at most, one GET per page; back to the start sends one', async () => {
  let from;
  await step('events-first-page', async () => {
    await eventsAre(21, 24);
    // The list itself (no cursor) was the first event request.
    assert.equal((await eventRequests(0))[0], '');
    from = (await serverLog()).length;
  });
  await step('events-later', async () => {
    await page.click('[data-testid=events-later]');
    await eventsAre(21, 28);
    await page.click('[data-testid=events-later]');
    await eventsAre(21, 32);
    // A fourth page: the list's own first page goes.
    await page.click('[data-testid=events-later]');
    await eventsAre(25, 36);
  });
  await step('events-earlier', async () => {
    // The page dropped is the one before the first held: the last page goes.
    await page.click('[data-testid=events-earlier]');
    await eventsAre(21, 32);
    await page.click('[data-testid=events-earlier]');
    await eventsAre(17, 28);
  });
  await step('events-back-to-start', async () => {
    await page.click('[data-testid=events-start]');
    await eventsAre(21, 24);
    // Long enough for a request the clicks might have started to reach the server.
    await page.waitForTimeout(400);
    assert.deepEqual(await eventRequests(from), [
      '?cursor=24',
      '?cursor=28',
      '?cursor=32',
      '?cursor=20',
      '?cursor=16',
      '',
    ]);
  });
});

test('two tabs of the app: an edit saved in one shows in the other, which fetches nothing for it', async () => {
  const title = 'Transitions';
  const renamed = 'Transitions, seen from the other tab';
  const detailIs = shown => document.querySelector('[data-testid=detail-title]')?.textContent === shown;
  // Two tabs of one browser profile (one context: BroadcastChannel reaches from one to the other).
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const tabs = [];
  try {
    await step('tabs-open', async () => {
      for (let i = 0; i < 2; i++) {
        const tab = await context.newPage();
        tab.on('pageerror', error => pageErrors.push(String(error)));
        tab.on('console', message => {
          if (message.type() === 'error') pageErrors.push(message.text());
        });
        // (The post may sit on a page of the list not loaded: its address opens it.)
        await tab.goto(new URL('#/react/posts/7', url).href);
        await logIn(tab);
        await tab.waitForFunction(detailIs, title);
        tabs.push(tab);
      }
    });
    const [one, other] = tabs;
    await step('tabs-edit', async () => {
      await one.waitForFunction(() => document.querySelector('[data-testid=refresh]')?.textContent === 'Refresh');
      const from = (await logOf(url)).length;
      await one.click('[data-testid=edit]');
      await one.fill('[data-testid=edit-title]', renamed);
      await one.click('[data-testid=save]');
      await one.waitForSelector('[data-testid=detail-saving]', { state: 'detached' });
      // The PATCH's answer reaches the other tab's store, and its detail view shows it.
      await other.waitForFunction(detailIs, renamed);
      mkdirSync('e2e/artifacts', { recursive: true });
      await other.screenshot({ path: 'e2e/artifacts/two-tabs.png', fullPage: true });
      const log = (await logOf(url)).slice(from);
      assert.deepEqual(
        log.filter(entry => entry.path.startsWith('/api/react/posts')).map(entry => entry.method),
        ['PATCH'],
        'one PATCH, and no read of the post by either tab',
      );
    });
  } finally {
    await context.close();
  }
});

test('offline: two edits wait in the outbox with their titles shown, survive a reload, and are saved in order once online', async () => {
  const title = 'Pinia stores';
  const edits = ['Pinia stores, edited offline', 'Pinia stores, edited offline twice'];
  const address = new URL('#/vue/posts/11', url).href;
  const detailIs = shown => document.querySelector('[data-testid=detail-title]')?.textContent === shown;
  const stored = tab => tab.evaluate(() => JSON.parse(localStorage.getItem('lenscache:outbox:cache') ?? '[]'));
  const patches = async from =>
    (await logOf(url)).slice(from).filter(entry => entry.method === 'PATCH' && entry.path === '/api/vue/posts/11');
  // A profile of its own: its localStorage is what the reopened page reads back.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  // (Offline, the page's polls and stream fail, as they should: only uncaught errors count here.)
  const open = async () => {
    const tab = await context.newPage();
    tab.on('pageerror', error => pageErrors.push(String(error)));
    await tab.goto(address);
    return tab;
  };
  try {
    let from;
    await step('outbox-offline-edits', async () => {
      const tab = await open();
      await logIn(tab);
      await tab.waitForFunction(detailIs, title);
      await tab.waitForFunction(() => document.querySelector('[data-testid=refresh]')?.textContent === 'Refresh');
      from = (await logOf(url)).length;
      await context.setOffline(true);
      for (const edit of edits) {
        await tab.click('[data-testid=edit]');
        await tab.fill('[data-testid=edit-title]', edit);
        await tab.click('[data-testid=save]');
        // The guess shows at once, and the post says it is saving.
        await tab.waitForFunction(detailIs, edit);
        await tab.waitForSelector('[data-testid=detail-saving]');
      }
      assert.deepEqual(
        (await stored(tab)).map(entry => [entry.endpoint, entry.args[1].title]),
        edits.map(edit => ['renamePost', edit]),
      );
      assert.deepEqual(await patches(from), [], 'nothing was sent offline');
      mkdirSync('e2e/artifacts', { recursive: true });
      await tab.screenshot({ path: 'e2e/artifacts/outbox-offline.png', fullPage: true });
      // The page goes while offline (a reload offline could not load the page itself).
      await tab.close();
    });
    await step('outbox-reload-online', async () => {
      await context.setOffline(false);
      const tab = await open();
      const sent = [];
      tab.on('request', request => {
        if (request.method() === 'PATCH') sent.push(JSON.parse(request.postData() ?? '{}').title);
      });
      // Read back before the login; nothing is sent until someone is logged in.
      await tab.waitForSelector('[data-testid=login]');
      assert.equal((await stored(tab)).length, 2);
      assert.deepEqual(await patches(from), []);
      await logIn(tab);
      // Both are sent, one after the other, and the post shows the last.
      await tab.waitForFunction(detailIs, edits[1]);
      await tab.waitForSelector('[data-testid=detail-saving]', { state: 'detached' });
      await tab.waitForFunction(() => localStorage.getItem('lenscache:outbox:cache') === '[]');
      assert.deepEqual(sent, edits);
      assert.deepEqual(
        (await patches(from)).map(entry => [entry.status, entry.auth]),
        [
          [200, 'valid'],
          [200, 'valid'],
        ],
      );
      assert.deepEqual(await serverPost('vue', '11'), { status: 200, title: edits[1] });
      await tab.screenshot({ path: 'e2e/artifacts/outbox-saved.png', fullPage: true });
    });
  } finally {
    await context.close();
  }
});

test('bursts: answers that arrive together are written as one store update', async () => {
  await step('answer-writes', async () => {
    const shown = await page.textContent('[data-testid=answer-writes]');
    const [answers, updates, joined] = shown.match(/\d+/g).map(Number);
    // The page's first load alone sends a dozen reads at once (run after the others, about 80).
    assert.ok(answers >= 10, shown);
    // Some were joined (the action of a burst carries no request's key), so fewer updates than answers.
    assert.ok(joined >= 1, shown);
    assert.ok(updates < answers, shown);
    await page.locator('[data-testid=panel-session]').screenshot({ path: 'e2e/artifacts/session-panel.png' });
  });
});

test('every API request since the login carried a valid token, and none met a 401', async () => {
  const reads = (await serverLog()).filter(entry => !entry.path.startsWith('/api/auth/'));
  assert.ok(reads.length > 50, `the run's requests (${reads.length})`);
  assert.deepEqual(
    reads.filter(entry => entry.auth !== 'valid' || entry.status === 401),
    [],
  );
});

test('the page logged no errors', () => {
  // Chromium reports the 400 answers of the refused create and the refused save itself (the
  // refusals the tests asked for): those two, and nothing else.
  const refused = 'Failed to load resource: the server responded with a status of 400 (Bad Request)';
  assert.equal(pageErrors.filter(error => error === refused).length, 2);
  assert.deepEqual(
    pageErrors.filter(error => error !== refused),
    [],
  );
});
