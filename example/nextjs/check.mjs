// Checks the built app in headless Chromium: `node check.mjs` starts `next start` (after `next build`)
// on a free port; `node check.mjs --dev` starts `next dev` instead (React's development build, which
// reports every hydration mismatch, however small); URL=http://host:port/ checks a server already
// running. It asserts that both boundaries show their data, the reviews after the product; that
// each boundary's state script comes before its HTML; that the browser requested no API after
// load; that the console has no error or warning (hydration or other); that a product name
// holding markup stays text; and that a refresh afterwards sends one request. Saves check.png.
// Chromium: /usr/bin/chromium, or CHROMIUM_PATH; playwright-core: the repository's devDependency.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = fileURLToPath(new URL('.', import.meta.url));
const dev = process.argv.includes('--dev');
const HOSTILE_NAME = '</script><script>window.__pwned = 1</script>';
const PRODUCT = '/api/products/1';
const REVIEWS = '/api/products/1/reviews';

const freePort = () =>
  new Promise(resolve => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

/** Starts Next on a free port; resolves to its URL once it answers. */
async function startNext() {
  const port = await freePort();
  const next = spawn(
    process.execPath,
    [`${here}node_modules/next/dist/bin/next`, dev ? 'dev' : 'start', '-p', `${port}`],
    {
      cwd: here,
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  // localhost: next dev refuses its HMR socket to other origins (127.0.0.1 among them).
  const url = `http://localhost:${port}/`;
  for (let tries = 0; ; tries += 1) {
    if (next.exitCode !== null) throw new Error(`next exited with ${next.exitCode}`);
    try {
      await fetch(new URL('/api/log', url));
      return { url, next };
    } catch (error) {
      if (tries > 600) throw error;
      await new Promise(resolve => setTimeout(resolve, 100));
    }
  }
}

const started = process.env.URL ? { url: process.env.URL } : await startNext();
const { url } = started;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'],
});
const serverLog = async () => (await fetch(new URL('/api/log', url))).json();
const count = (log, path, from) => log.filter(entry => entry.path === path && entry.from === from).length;
const step = async (name, run) => {
  await run();
  console.log(`ok: ${name}`);
};

try {
  // In development, the first request compiles the page: a request of its own, before the log is read.
  if (dev) await (await fetch(url)).text();
  const before = await serverLog();

  await step("each boundary's state script comes before its HTML, the reviews' later", async () => {
    const response = await fetch(url);
    const started = Date.now();
    const decoder = new TextDecoder();
    let html = '';
    const arrived = {};
    for await (const chunk of response.body) {
      html += decoder.decode(chunk, { stream: true });
      for (const [name, marker] of [
        ['product', '<div hidden id="S:0">'],
        ['reviews', '<div hidden id="S:1">'],
      ])
        if (!(name in arrived) && html.includes(marker)) arrived[name] = Date.now() - started;
    }
    console.log(
      `  boundary HTML arrived after the headers (ms): product ${arrived.product}, reviews ${arrived.reviews}`,
    );
    const productState = html.indexOf('"GET /api/products/1":');
    const reviewsState = html.indexOf('"GET /api/products/1/reviews":');
    assert.ok(productState > -1 && productState < html.indexOf('<div hidden id="S:0">'));
    assert.ok(reviewsState > html.indexOf('<div hidden id="S:0">'));
    assert.ok(reviewsState < html.indexOf('<div hidden id="S:1">'));
    assert.ok(!html.includes(HOSTILE_NAME), 'the name is escaped in the page');
  });

  const page = await browser.newPage({ viewport: { width: 900, height: 400 } });
  const reported = [];
  const browserRequests = [];
  page.on('pageerror', error => reported.push(`pageerror: ${error}`));
  page.on('console', message => {
    if (message.type() === 'error' || message.type() === 'warning')
      reported.push(`${message.type()}: ${message.text()}`);
  });
  page.on('response', response => {
    if (response.status() >= 400) reported.push(`${response.status()}: ${response.url()}`);
  });
  page.on('request', request => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith('/api/')) browserRequests.push(path);
  });
  // When each boundary's content is first shown (in the document, outside React's hidden holder).
  await page.addInitScript(() => {
    const start = performance.now();
    window.__shown = {};
    const seen = () => {
      for (const [name, selector] of [
        ['product', '[data-testid=product-name]'],
        ['reviews', '[data-testid=reviews]'],
      ]) {
        const element = document.querySelector(selector);
        if (element && !element.closest('[hidden]') && !(name in window.__shown))
          window.__shown[name] = performance.now() - start;
      }
    };
    new MutationObserver(seen).observe(document, { childList: true, subtree: true });
  });
  const logAtLoad = (await serverLog()).length;

  await step('the page shows both boundaries', async () => {
    await page.goto(url);
    await page.waitForFunction(() => 'product' in window.__shown && 'reviews' in window.__shown);
    const shown = await page.evaluate(() => window.__shown);
    console.log(`  shown after (ms): product ${shown.product.toFixed(0)}, reviews ${shown.reviews.toFixed(0)}`);
    // Logged, not asserted: React may reveal two boundaries at once (the HTML's order is checked above).
    assert.equal(await page.locator('[data-testid=product-loading]').count(), 0);
    assert.equal(await page.locator('[data-testid=reviews-loading]').count(), 0);
    assert.equal(await page.locator('[data-testid=reviews] li').count(), 2);
    assert.equal(await page.locator('[data-testid=product-name]').textContent(), HOSTILE_NAME);
  });

  await step('the browser requested no API; the render fetched each endpoint once', async () => {
    // Hydration is done when the page is idle; then time for any request it might have started.
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(500);
    const log = (await serverLog()).slice(logAtLoad);
    assert.equal(count(log, PRODUCT, 'server'), 1, 'the render fetched the product once');
    assert.equal(count(log, REVIEWS, 'server'), 1, 'the render fetched the reviews once');
    assert.equal(log.filter(entry => entry.from === 'browser').length, 0, 'the API saw no browser request');
    assert.deepEqual(browserRequests, [], 'the page sent no API request');
  });

  await step('no error or warning in the console (no hydration warning), no script from the data', async () => {
    assert.deepEqual(reported, []);
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
  });

  await page.screenshot({ path: `${here}check.png`, fullPage: true });

  await step('after hydration the store is live: a refresh sends one request', async () => {
    const text = await page.locator('[data-testid=reviews]').textContent();
    await page.click('[data-testid=refresh]');
    await page.waitForFunction(old => document.querySelector('[data-testid=reviews]')?.textContent !== old, text);
    assert.deepEqual(browserRequests, [REVIEWS]);
    assert.deepEqual(reported, []);
  });
  console.log(`checked ${url} (${dev ? 'next dev' : 'next start'}; ${before.length} API requests before the check)`);
} finally {
  await browser.close();
  started.next?.kill();
}
