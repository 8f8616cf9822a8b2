// Shared set-up for the browser tests: a tiny static server for ui/ on 127.0.0.1:0 (so the CSP
// meta tag applies and ES modules load as they would in the app), Debian's Chromium driven by
// playwright-core, the fake IPC installed before the page loads, and checks that run after
// every test: no CSP violation, no page error, no console error.

import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repositoryRoot = path.resolve(here, '..', '..');
const uiRoot = path.join(repositoryRoot, 'ui');
export const screenshotDir = path.join(repositoryRoot, 'target', 'ui-screenshots');
const fakeScript = path.join(here, 'fake-tauri.js');
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
// The flags measured to keep Chromium quiet on a machine with no network (see the env notes).
const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.md': 'text/plain; charset=utf-8',
};

function startServer() {
  const server = createServer(async (request, response) => {
    const url = new URL(request.url, 'http://127.0.0.1');
    const relative = decodeURIComponent(url.pathname === '/' ? '/index.html' : url.pathname);
    const file = path.resolve(uiRoot, `.${relative}`);
    if (!file.startsWith(uiRoot + path.sep)) {
      response.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      response.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Starts the server and the browser; call `stop()` when the file's tests are done. */
export async function startHarness() {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium not found at ${CHROMIUM}: install it with apt-get install -y chromium`);
  }
  const server = await startServer();
  // playwright-core gives every launch a fresh, empty profile folder of its own.
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
  const origin = `http://127.0.0.1:${server.address().port}`;
  return {
    origin,
    browser,
    async stop() {
      await browser.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * Opens the page in a new context. `fake` configures the fake IPC (`scenario`, `restored`,
 * `keyStored`, `gatedBatch`); `viewport`, `deviceScaleFactor` and `colorScheme` shape the window.
 */
export async function openPage(harness, options = {}) {
  const context = await harness.browser.newContext({
    viewport: options.viewport ?? { width: 800, height: 600 },
    deviceScaleFactor: options.deviceScaleFactor ?? 1,
    colorScheme: options.colorScheme ?? 'light',
    reducedMotion: 'reduce',
    locale: 'ru-RU',
  });
  await context.addInitScript((config) => {
    window.__FAKE_CONFIG__ = config;
  }, options.fake ?? {});
  await context.addInitScript({ path: fakeScript });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    // A failed load names its address only in the location, so it is added to the report.
    if (message.type() === 'error') problems.push(`console error: ${message.text()} ${message.location()?.url ?? ''}`);
  });
  await page.goto(`${harness.origin}/${options.hash ? `#${options.hash}` : ''}`);
  await page.waitForFunction(() => document.documentElement.dataset.ready === 'yes');
  page.problems = problems;
  return page;
}

/** Closes the page after checking that nothing broke the CSP or threw. */
export async function closePage(page) {
  const violations = await page.evaluate(() => window.__cspViolations);
  const problems = page.problems;
  await page.context().close();
  assert.deepEqual(violations, [], 'the page must not violate its Content-Security-Policy');
  assert.deepEqual(problems, [], 'the page must not throw or log errors');
}

/** Runs axe-core in the page and fails on serious or critical findings. */
export async function assertAccessible(page, label) {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern; axe itself
  // needs no eval, so the page stays under its own strict policy while it is checked.
  await page.evaluate(axeSource);
  const results = await page.evaluate(async () =>
    window.axe.run(document, { resultTypes: ['violations'], runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] } }),
  );
  // A run that checked nothing would pass silently. A screen passes dozens of rules; with a
  // modal dialog open only the dialog is checked (the rest is inert), which still passes over ten.
  assert.ok(results.passes.length > 10, `axe ran only ${results.passes.length} passing rules`);
  const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  const report = serious.map((violation) => `${violation.id} (${violation.impact}): ${violation.help}\n  ${violation.nodes.map((node) => node.target.join(' ')).join('\n  ')}`);
  assert.deepEqual(report, [], `accessibility findings in «${label}»`);
}

/**
 * Writes two screenshots to target/ui-screenshots/: NAME.png, the window as the resident sees it
 * now (scrolled to wherever focus took them), and NAME-full.png, the whole page. In the full one Chromium draws the sticky
 * navigation where the capture's scrolling left it, not at the top; the window shot is the
 * faithful one.
 */
export async function screenshot(page, name) {
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`) });
  await page.screenshot({ path: path.join(screenshotDir, `${name}-full.png`), fullPage: true });
}

/**
 * Fails when anything visible inside `panel` (a selector) sticks out of it sideways, or the page
 * itself scrolls sideways: text cut off at 800×600 or at 200 % zoom.
 */
export async function assertNothingSticksOut(page, panel) {
  const overflow = await page.evaluate((selector) => {
    const box = document.querySelector(selector).getBoundingClientRect();
    const outside = [...document.querySelectorAll(`${selector} *`)]
      .filter((node) => node.getClientRects().length > 0)
      .filter((node) => {
        const rect = node.getBoundingClientRect();
        return rect.left < box.left - 1 || rect.right > box.right + 1;
      })
      .map((node) => `${node.tagName} «${node.textContent.slice(0, 40)}»`);
    return { outside, page: document.documentElement.scrollWidth - document.documentElement.clientWidth };
  }, panel);
  assert.deepEqual(overflow.outside, [], `what sticks out of ${panel}`);
  assert.ok(overflow.page <= 0, `the page scrolls sideways by ${overflow.page}px`);
}

/** The fake's record of calls to one command, as Rust would have received their arguments. */
export function callsOf(page, name) {
  return page.evaluate((cmd) => window.__fake.callsOf(cmd), name);
}
