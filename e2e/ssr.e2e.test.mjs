// End to end: the streamed React server render of example/ssr/ (built and started by its start.mjs),
// hydrated in headless Chromium. Two Suspense boundaries resolve at different times (the product
// after 100 ms, the reviews after 600 ms); the browser must fetch nothing, React must report
// nothing, a product name holding markup must stay text, and the store must be live afterwards.
// API requests are counted at the server (which tells its own render's fetches from the
// browser's) and in the page; the page is saved as e2e/artifacts/ssr.png.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { step as stepOf } from './harness.mjs';

const HOSTILE_NAME = '</script><script>window.__pwned = 1</script>';
const PRODUCT = '/api/products/1';
const REVIEWS = '/api/products/1/reviews';

let server;
let url;
let browser;
let page;
/** What the page reported: console errors and warnings, uncaught errors. */
const reported = [];
/** The API requests the browser sent. */
const browserRequests = [];

before(async () => {
  server = spawn(process.execPath, ['example/ssr/start.mjs'], {
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  url = await new Promise((resolve, reject) => {
    let out = '';
    server.stdout.on('data', chunk => {
      out += chunk;
      const found = out.match(/http:\/\/\S+\//);
      if (found) resolve(found[0]);
    });
    server.on('exit', code => reject(new Error(`example/ssr/start.mjs exited with ${code}: ${out}`)));
  });
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'],
  });
  page = await browser.newPage({ viewport: { width: 900, height: 500 } });
  page.on('pageerror', error => reported.push(`pageerror: ${error}`));
  page.on('console', message => {
    if (message.type() === 'error' || message.type() === 'warning')
      reported.push(`${message.type()}: ${message.text()}`);
  });
  page.on('request', request => {
    if (new URL(request.url()).pathname.startsWith('/api/')) browserRequests.push(new URL(request.url()).pathname);
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
});

after(async () => {
  await browser?.close();
  server?.kill();
});

const step = (name, run) => stepOf(page, name, run);
const serverLog = async () => (await fetch(new URL('/_log', url))).json();
const count = (log, path, from) => log.filter(entry => entry.path === path && entry.from === from).length;

test('a streamed render hydrates with no request from the browser, no warning, and the boundaries in order', async () => {
  await step('ssr-load', async () => {
    await page.goto(url);
    await page.waitForFunction(() => 'product' in window.__shown && 'reviews' in window.__shown);
  });
  const shown = await page.evaluate(() => window.__shown);
  console.log(`shown after (ms): product ${shown.product.toFixed(0)}, reviews ${shown.reviews.toFixed(0)}`);

  await step('ssr-order', async () => {
    assert.ok(shown.reviews > shown.product, 'the reviews (600 ms) are shown after the product (100 ms)');
    assert.equal(await page.locator('[data-testid=product-loading]').count(), 0);
    assert.equal(await page.locator('[data-testid=reviews-loading]').count(), 0);
    assert.equal(await page.locator('[data-testid=reviews] li').count(), 2);
  });

  await step('ssr-no-refetch', async () => {
    // Hydration is done when the button answers; then time for any request it might have started.
    await page.waitForTimeout(500);
    const log = await serverLog();
    assert.equal(count(log, PRODUCT, 'server'), 1, 'the render fetched the product once');
    assert.equal(count(log, REVIEWS, 'server'), 1, 'the render fetched the reviews once');
    assert.equal(log.filter(entry => entry.from === 'browser').length, 0, 'the server saw no browser request');
    assert.deepEqual(browserRequests, [], 'the page sent no API request');
  });

  await step('ssr-no-warning', async () => {
    assert.deepEqual(reported, []);
  });

  await step('ssr-hostile-name', async () => {
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
    assert.equal(await page.locator('[data-testid=product-name]').textContent(), HOSTILE_NAME);
  });

  await step('ssr-live', async () => {
    await page.click('[data-testid=refresh]');
    await page.waitForFunction(() =>
      document.querySelector('[data-testid=reviews]')?.textContent.includes('Answer #2'),
    );
    assert.deepEqual(browserRequests, [REVIEWS], 'the refresh sent one request');
    const log = await serverLog();
    assert.equal(count(log, REVIEWS, 'browser'), 1);
    assert.equal(count(log, PRODUCT, 'browser'), 0);
    assert.deepEqual(reported, []);
    mkdirSync('e2e/artifacts', { recursive: true });
    await page.screenshot({ path: 'e2e/artifacts/ssr.png', fullPage: true });
  });
});

test("the stream: each boundary's data comes before its HTML, the reviews after the product", async () => {
  const started = Date.now();
  const response = await fetch(url);
  const decoder = new TextDecoder();
  let html = '';
  /** When the HTML of each boundary arrived, in ms from the request. */
  const arrived = {};
  for await (const chunk of response.body) {
    html += decoder.decode(chunk, { stream: true });
    for (const [name, marker] of [
      ['product', '<div hidden id="S:0">'],
      ['reviews', '<div hidden id="S:1">'],
    ])
      if (!(name in arrived) && html.includes(marker)) arrived[name] = Date.now() - started;
  }
  console.log(`arrived after (ms): product ${arrived.product}, reviews ${arrived.reviews}`);
  assert.ok(arrived.product < arrived.reviews, 'the reviews came in a later read than the product');
  // One state script per boundary, just before its HTML; the name in it is escaped.
  const productState = html.indexOf('"GET /api/products/1":');
  const reviewsState = html.indexOf('"GET /api/products/1/reviews":');
  assert.ok(productState > -1 && productState < html.indexOf('<div hidden id="S:0">'));
  assert.ok(reviewsState > -1 && reviewsState < html.indexOf('<div hidden id="S:1">'));
  assert.ok(html.startsWith('<!DOCTYPE html>'));
  assert.equal(html.split(HOSTILE_NAME).length, 1, 'the name never appears unescaped');
});
