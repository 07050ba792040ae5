// End to end: the example app's session. A login form comes first and the logged-out page asks
// for nothing protected; once logged in, every API request carries the token; when the token has
// expired, the requests that meet it share one refresh and are sent once more; a refused refresh
// logs out with no request after it. Requests are counted at the server (GET /api/_log), whose
// test-only routes end tokens on demand (example/auth.mjs).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { holding, PORTFOLIOS } from '../example/server.mjs';
import { launchApp, logIn, serverLog, step as stepOf, testRoute } from './harness.mjs';

let app;
let page;
const step = (name, run) => stepOf(page, name, run);
const log = async (from = 0) => (await serverLog(app.url)).slice(from);
const isAuth = entry => entry.path.startsWith('/api/auth/');
const refreshes = entries => entries.filter(entry => entry.path === '/api/auth/refresh');
/** The counts seen, printed at the end for whoever reads the run. */
const seen = {};

before(async () => {
  mkdirSync('e2e/artifacts', { recursive: true });
  app = await launchApp();
  page = app.page;
  await page.goto(app.url);
});

after(async () => {
  await app?.close();
});

/** Waits until the company table shows the portfolio's % equity column. */
const companiesAt = portfolio =>
  page.waitForFunction(
    expected =>
      JSON.stringify(
        [...document.querySelectorAll('[data-testid=companies] [data-testid=pct]')].map(cell => cell.textContent),
      ) === expected,
    JSON.stringify(['1', '2', '3', '4', '5'].map(id => `${(holding(portfolio, id).pct_equity * 100).toFixed(1)}%`)),
    { timeout: 10_000 },
  );

/** Clicks a portfolio in the company panel and in the bond panel in one go: two requests at once. */
const pickBoth = portfolio =>
  page.evaluate(name => {
    document.querySelector(`[data-testid=portfolio-${name}]`).click();
    document.querySelector(`[data-testid=bond-portfolio-${name}]`).click();
  }, portfolio);

test('the login form comes first, and the logged-out page requests nothing protected', async () => {
  await step('login-first', async () => {
    await page.waitForSelector('[data-testid=login]');
    // Long enough for a request the page might have started to reach the server.
    await page.waitForTimeout(500);
    assert.deepEqual(await log(), [], 'no request before a login');
    assert.equal(await page.locator('[data-testid=panel-companies]').count(), 0);
    await page.screenshot({ path: 'e2e/artifacts/session-login.png', fullPage: true });
  });
  await step('login-refused', async () => {
    await page.fill('[data-testid=login-name]', 'Ann');
    await page.fill('[data-testid=login-password]', 'wrong');
    await page.click('[data-testid=login-submit]');
    await page.waitForSelector('[data-testid=login-error]');
    assert.equal(await page.locator('[data-testid=login-error]').textContent(), 'Wrong name or password.');
    assert.deepEqual(
      (await log()).map(entry => `${entry.path} ${entry.status}`),
      ['/api/auth/login 401'],
    );
  });
});

test('logged in, every API request carries the token', async () => {
  await step('login', async () => {
    const mark = (await log()).length;
    await logIn(page);
    await page.waitForSelector('[data-testid=companies]');
    await page.waitForSelector('[data-testid=bonds-more]');
    await page.waitForSelector('[data-testid=polled-BTC]');
    await page.waitForTimeout(400);
    const entries = await log(mark);
    const api = entries.filter(entry => !isAuth(entry));
    seen.login = { login: entries.filter(isAuth).length, api: api.length };
    assert.deepEqual(
      entries.filter(isAuth).map(entry => `${entry.path} ${entry.status}`),
      ['/api/auth/login 200'],
    );
    assert.ok(api.length >= 5, `the panels' reads (${api.length})`);
    assert.deepEqual(
      api.filter(entry => entry.auth !== 'valid' || entry.status === 401),
      [],
      'every read carried a valid token',
    );
  });
});

test('an expired token: the requests that meet it share one refresh and are sent once more', async () => {
  const [, second] = PORTFOLIOS;
  let mark;
  await step('refresh-once', async () => {
    await testRoute(app.url, 'expire-tokens');
    mark = (await log()).length;
    await pickBoth(second);
    await companiesAt(second);
    await page.waitForSelector(`[data-testid=bond-portfolio-${second}][aria-pressed=true]`);
    await page.waitForFunction(
      () => document.querySelector('[data-testid=bonds-count]')?.textContent === '4 of 12 bonds',
    );
    await page.waitForTimeout(400);
    const entries = await log(mark);
    const refused = entries.filter(entry => entry.status === 401);
    seen.refresh = {
      requests: entries.length,
      met401: refused.length,
      refreshes: refreshes(entries).length,
      retried: entries.filter(entry => !isAuth(entry) && entry.status === 200).length,
    };
    assert.deepEqual(
      refreshes(entries).map(entry => entry.status),
      [200],
      'exactly one refresh',
    );
    // The two reads of the switch met the expired token (a poll may have too), together.
    const met = refused.map(entry => `${entry.path}${entry.search}`);
    assert.ok(met.includes(`/api/companies/columns?portfolio=${second}`), `401s: ${met}`);
    assert.ok(met.includes(`/api/bonds?portfolio=${second}`), `401s: ${met}`);
    // Each was sent once more, after the refresh, with the new token, and answered.
    const refreshAt = entries.findIndex(entry => entry.path === '/api/auth/refresh');
    for (const entry of refused) {
      assert.equal(entry.auth, 'invalid');
      const again = entries
        .slice(refreshAt)
        .filter(other => other.path === entry.path && other.search === entry.search && other.method === entry.method);
      assert.ok(again.length >= 1, `${entry.path}${entry.search} was sent again`);
      assert.ok(
        again.every(other => other.auth === 'valid' && other.status === 200),
        `${entry.path}${entry.search} again: ${JSON.stringify(again)}`,
      );
    }
    assert.ok(refused.length <= 4, `no more 401s than reads out at once: ${met}`);
    // The page's own log shows the refresh, and the column request's 401 and its second try.
    assert.deepEqual((await page.locator('[data-testid=session-log] li').allTextContents()).slice(-1), [
      'POST /api/auth/refresh 200',
    ]);
    const companyLog = await page.locator('[data-testid=request-log] li').allTextContents();
    assert.deepEqual(companyLog.slice(-2), [
      `GET /api/companies/columns?portfolio=${second} 401`,
      `GET /api/companies/columns?portfolio=${second} 200`,
    ]);
    assert.equal(await page.locator('[role=alert]').count(), 0);
    await page.screenshot({ path: 'e2e/artifacts/session-refreshed.png', fullPage: true });
  });
  await step('refreshed-token-sent-first-time', async () => {
    // The next read carries the new token at once: no 401, no refresh.
    mark = (await log()).length;
    await page.click(`[data-testid=portfolio-${PORTFOLIOS[2]}]`);
    await companiesAt(PORTFOLIOS[2]);
    await page.waitForTimeout(400);
    const entries = await log(mark);
    assert.deepEqual(
      entries.filter(entry => entry.status === 401 || isAuth(entry)),
      [],
    );
  });
});

test('a refused refresh logs out, with no request after it', async () => {
  const third = PORTFOLIOS[3];
  let mark;
  let atLogout;
  await step('refresh-refused', async () => {
    await testRoute(app.url, 'end-sessions');
    mark = (await log()).length;
    await pickBoth(third);
    await page.waitForSelector('[data-testid=session-ended]', { timeout: 10_000 });
    assert.equal(await page.locator('[data-testid=panel-companies]').count(), 0, 'the panels are gone');
    assert.equal(await page.locator('[data-testid=session]').count(), 0, 'no session bar');
    atLogout = await log(mark);
  });
  await step('no-request-storm', async () => {
    // Longer than a poll's period: the logged-out page sends nothing.
    await page.waitForTimeout(2_500);
    const entries = await log(mark);
    seen.logout = {
      requests: entries.length,
      met401: entries.filter(entry => !isAuth(entry)).length,
      refreshes: refreshes(entries).length,
    };
    assert.deepEqual(entries, atLogout, 'nothing was sent after the logout');
    assert.deepEqual(
      refreshes(entries).map(entry => entry.status),
      [401],
      'one refresh, refused',
    );
    const reads = entries.filter(entry => !isAuth(entry));
    assert.ok(
      reads.every(entry => entry.status === 401 && entry.auth === 'invalid'),
      JSON.stringify(reads),
    );
    // None was sent again: each read once.
    const sent = reads.map(entry => `${entry.method} ${entry.path}${entry.search}`);
    assert.equal(new Set(sent).size, sent.length, `each read once: ${sent}`);
    assert.ok(reads.length >= 2 && reads.length <= 4, `the reads out at once: ${sent}`);
    assert.equal(await page.locator('[data-testid=login-error]').count(), 0);
    await page.screenshot({ path: 'e2e/artifacts/session-ended.png', fullPage: true });
  });
});

test('logging in again shows the data; logging out sends nothing more', async () => {
  let mark;
  await step('login-again', async () => {
    mark = (await log()).length;
    await logIn(page, 'Bo');
    // The store was emptied: the first portfolio is fetched anew.
    await companiesAt(PORTFOLIOS[0]);
    await page.waitForTimeout(400);
    const entries = await log(mark);
    assert.deepEqual(
      entries.filter(entry => entry.status === 401),
      [],
    );
    assert.equal(entries.filter(entry => entry.path === '/api/companies').length, 1);
  });
  await step('logout', async () => {
    await page.click('[data-testid=logout]');
    await page.waitForSelector('[data-testid=login]');
    await page.waitForTimeout(300);
    mark = (await log()).length;
    await page.waitForTimeout(2_500);
    assert.deepEqual(await log(mark), [], 'nothing is sent once logged out');
    assert.equal(await page.locator('[data-testid=session-ended]').count(), 0, 'a logout is not an ended session');
  });
});

test('the page logged no errors but the 401 answers it was asked to meet', () => {
  // Chromium reports each 401 answer itself: the refused login, the expired token's, the refused refresh's.
  const expected = /^Failed to load resource: the server responded with a status of 401 \(Unauthorized\)$/;
  assert.deepEqual(
    app.pageErrors.filter(error => !expected.test(error)),
    [],
  );
  console.log(`session counts: ${JSON.stringify(seen)}`);
});
