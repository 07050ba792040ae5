// What the e2e tests share: the example app started by its real start command (with the test
// routes on), a headless Chromium page on it, the server's request log, and the login form.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** The example's one password (example/auth.mjs). */
export const PASSWORD = 'lenscache';

/** `npm start` on a free port, and a browser page on it; `close()` stops both. */
export async function launchApp() {
  const app = spawn(process.execPath, ['example/start.mjs'], {
    env: { ...process.env, PORT: '0', EXAMPLE_TEST_ROUTES: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    app.stdout.on('data', chunk => {
      out += chunk;
      const found = out.match(/http:\/\/\S+\//);
      if (found) resolve(found[0]);
    });
    app.on('exit', code => reject(new Error(`example/start.mjs exited with ${code}: ${out}`)));
  });
  const browser = await chromium.launch({
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
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const pageErrors = [];
  page.on('pageerror', error => pageErrors.push(String(error)));
  page.on('console', message => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
  return {
    url,
    browser,
    page,
    pageErrors,
    async close() {
      await browser.close();
      app.kill();
    },
  };
}

/** Runs a step; on failure, saves a screenshot of `page` named after it, then fails. */
export async function step(page, name, run) {
  try {
    await run();
  } catch (error) {
    mkdirSync('e2e/artifacts', { recursive: true });
    await page?.screenshot({ path: `e2e/artifacts/${name}.png`, fullPage: true }).catch(() => undefined);
    throw error;
  }
}

/** The requests the server answered, in order: `{ method, path, search, auth, status }`. */
export async function serverLog(url) {
  const response = await fetch(new URL('/api/_log', url));
  return response.json();
}

/** Calls a test-only route of the server (`POST /api/_test/<action>`); resolves to its answer. */
export async function testRoute(url, action) {
  const response = await fetch(new URL(`/api/_test/${action}`, url), { method: 'POST' });
  if (response.status !== 200) throw new Error(`POST /api/_test/${action} answered ${response.status}`);
  return response.json();
}

/** Logs in through the page's login form, and waits until the session bar names the user. */
export async function logIn(page, name = 'Ann', password = PASSWORD) {
  await page.waitForSelector('[data-testid=login]');
  await page.fill('[data-testid=login-name]', name);
  await page.fill('[data-testid=login-password]', password);
  await page.click('[data-testid=login-submit]');
  await page.waitForFunction(who => document.querySelector('[data-testid=session-user]')?.textContent === who, name);
}
