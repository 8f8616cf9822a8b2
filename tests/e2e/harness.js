// Shared set-up for the end-to-end tests of the real desktop app: the stand-in provider, a
// temporary data folder per test, launching the app through tauri-driver with that test's
// environment, killing it, restarting it, screenshots, and the native file dialog.
//
// run.sh starts Xvfb, a private D-Bus session with an unlocked keyring and tauri-driver, then
// node's test runner; it passes the paths below through the environment.

import { spawn, execFile } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Session } from './webdriver.js';

const run = promisify(execFile);
const here = path.dirname(fileURLToPath(import.meta.url));
export const repositoryRoot = path.resolve(here, '..', '..');
export const screenshotDir = path.join(repositoryRoot, 'target', 'e2e-screenshots');

function required(name) {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the suite through tests/e2e/run.sh`);
  return value;
}

const APP = () => required('ZAYAVKA_E2E_APP');
const STANDIN = () => required('ZAYAVKA_E2E_STANDIN');
const DRIVER = () => process.env.ZAYAVKA_E2E_DRIVER ?? 'http://127.0.0.1:4444';

/** A well-formed model reply for a lighting problem whose evidence quotes DESCRIPTION verbatim. */
export const DESCRIPTION = 'В подъезде неделю не горит свет на лестнице между третьим и четвёртым этажами.';
export const LIGHTING_REPLY = JSON.stringify({
  outcome: 'draft',
  title: 'Не работает освещение на лестнице',
  problem: 'На лестнице между третьим и четвёртым этажами неделю не горит свет',
  circumstances: null,
  impact: 'В темноте на лестнице плохо видно ступени',
  verification: 'Причину нужно установить при осмотре',
  subject: {
    kind: 'common_area_premises_lighting',
    evidence: [{ source_field: 'description', quote: 'неделю не горит свет на лестнице' }],
  },
  warnings: [],
});

/** Every process and folder a test started, undone in reverse order by `cleanUp`. */
const undo = [];

export async function cleanUp() {
  while (undo.length > 0) {
    const step = undo.pop();
    try {
      await step();
    } catch (error) {
      console.error(`clean-up step failed: ${error.message}`);
    }
  }
}

/** A fresh folder that is removed after the test. */
/** Every regular file under `dir`, recursively. */
export function filesUnder(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath ?? entry.path, entry.name));
}

export function scratchDir(prefix = 'zayavka-e2e-') {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  undo.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * Starts the stand-in provider and waits for the base URL it prints on its first line.
 * `content` (a completion's message content), `delayMs`, or `status` (an HTTP error for every
 * request). With `gigachatKey` it plays GigaChat: that key is exchanged for tokens at
 * `authUrl` (returned too), and `content` comes back as the arguments of GigaChat's function
 * call. It exits when its standard input closes, so it dies with this process whatever
 * happens; `cleanUp` also ends it.
 */
export async function startStandIn({ content = LIGHTING_REPLY, delayMs = 0, status = null, gigachatKey = null } = {}) {
  const args = ['--port', '0', '--exit-on-stdin-close'];
  if (status !== null) args.push('--status', String(status));
  else args.push('--content', content);
  if (gigachatKey !== null) args.push('--gigachat-key', gigachatKey);
  if (delayMs > 0) args.push('--delay-ms', String(delayMs));
  const child = spawn(STANDIN(), args, { stdio: ['pipe', 'pipe', 'inherit'] });
  undo.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });
  let buffered = '';
  const baseUrl = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the stand-in printed no base URL within 10 s')), 10_000);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      buffered += chunk;
      const newline = buffered.indexOf('\n');
      if (newline >= 0) {
        clearTimeout(timer);
        resolve(buffered.slice(0, newline).trim());
      }
    });
    child.on('exit', (code) => reject(new Error(`the stand-in exited with ${code} before printing its URL`)));
  });
  // The GigaChat token endpoint is on the same address (zayavka-standin's GIGACHAT_OAUTH_PATH).
  return { baseUrl, authUrl: baseUrl.replace(/\/v1$/, '/api/v2/oauth') };
}

/**
 * The environment of one installation: a data folder of its own, and the provider. `baseUrl`
 * `null` leaves the provider to the settings screen, `apiKey` `null` the key to the keyring.
 */
export function installation({ baseUrl, apiKey = 'e2e-key-not-secret', extra = {} }) {
  const home = scratchDir('zayavka-e2e-home-');
  const env = { ZAYAVKA_HOME: home, ZAYAVKA_ATTEMPTS: '1', ZAYAVKA_TIMEOUT_SECS: '120' };
  if (baseUrl !== null) Object.assign(env, { ZAYAVKA_BASE_URL: baseUrl, ZAYAVKA_MODEL: 'stand-in-model' });
  if (apiKey !== null) env.ZAYAVKA_API_KEY = apiKey;
  Object.assign(env, extra);
  return { home, env };
}

/**
 * Writes one setting into `inst`'s configuration before the app starts, through the
 * command-line tool built next to the app (`zayavka config set`), as a resident or an
 * administrator would: settings the page does not offer, such as GigaChat's token endpoint.
 */
export async function configSet(inst, key, value) {
  const cli = process.env.ZAYAVKA_E2E_CLI ?? path.join(path.dirname(APP()), 'zayavka');
  await run(cli, ['config', 'set', key, value], { env: { ...process.env, ZAYAVKA_HOME: inst.home } });
}

/**
 * Marks `inst` as one whose resident chose «Пока без модели» on the first-run setup (the file
 * setup_skip writes in the configuration folder): the app then opens on the form, as before
 * issue 15, for tests that are about the form and not the setup.
 */
export function skipSetup(inst) {
  writeFileSync(path.join(inst.home, 'setup-skipped'), 'skipped by the test\n');
}

function shellQuote(value) {
  return `'${String(value).replaceAll("'", "'\\''")}'`;
}

/**
 * Launches the app with `inst`'s environment and waits until the page has started. tauri-driver
 * passes no environment of its own to the app, so each launch goes through a small script that
 * sets it, writes its process id (which `exec` keeps for the app) and starts the app.
 */
export async function launch(inst) {
  const dir = scratchDir('zayavka-e2e-launch-');
  const pidFile = path.join(dir, 'app.pid');
  const launcher = path.join(dir, 'launch.sh');
  const lines = ['#!/bin/sh', 'unset ZAYAVKA_API_KEY ZAYAVKA_BASE_URL ZAYAVKA_MODEL ZAYAVKA_HOME'];
  for (const [name, value] of Object.entries(inst.env)) lines.push(`export ${name}=${shellQuote(value)}`);
  lines.push(`echo $$ > ${shellQuote(pidFile)}`, `exec ${shellQuote(path.resolve(APP()))} "$@"`, '');
  writeFileSync(launcher, lines.join('\n'));
  chmodSync(launcher, 0o755);

  const session = await Session.start(DRIVER(), launcher);
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  const app = { session, pid, closed: false };
  undo.push(() => close(app));
  await session.waitUntil('return document.documentElement.dataset.ready === "yes"', {
    description: 'the page to start',
    timeoutMs: 30_000,
  });
  return app;
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return existsSync(`/proc/${pid}`) && !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
}

async function waitForExit(pid, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (alive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}

/**
 * Ends the session and waits for the app to be gone, so that the next launch is not taken for a
 * second instance (the app lets only one run). An app that outlives its session is killed.
 */
export async function close(app) {
  if (app.closed) return;
  app.closed = true;
  try {
    await app.session.delete();
  } catch {
    // The app may be gone already (killed on purpose); the driver then has nothing to close.
  }
  if (!(await waitForExit(app.pid, 10_000))) {
    process.kill(app.pid, 'SIGKILL');
    await waitForExit(app.pid, 5_000);
    throw new Error(`the app (pid ${app.pid}) did not exit within 10 s after its session ended`);
  }
}

/** Kills the app with SIGKILL, as a crash or a power cut would end it, and ends its session. */
export async function kill(app) {
  process.kill(app.pid, 'SIGKILL');
  await waitForExit(app.pid, 5_000);
  app.closed = true;
  try {
    await app.session.delete();
  } catch {
    // The driver notices the app is gone; the session's end may be reported as an error.
  }
}

/**
 * Keeps two screenshots in target/e2e-screenshots/: NAME.png, the webview through WebDriver, and
 * NAME-screen.png, the whole X screen (`import -window root`, with native dialogs and the window).
 */
export async function screenshot(app, name) {
  mkdirSync(screenshotDir, { recursive: true });
  // The page scrolls smoothly (focus moved to a result scrolls it into view): wait until the
  // scroll position holds still, or the picture catches the page mid-scroll.
  let previous = null;
  for (let tries = 0; tries < 30; tries += 1) {
    const now = await app.session.execute('return window.scrollY;');
    if (now === previous) break;
    previous = now;
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  writeFileSync(path.join(screenshotDir, `${name}.png`), await app.session.screenshot());
  await screenshotScreen(`${name}-screen`);
}

export async function screenshotScreen(name) {
  mkdirSync(screenshotDir, { recursive: true });
  await run('import', ['-window', 'root', path.join(screenshotDir, `${name}.png`)]);
}

// ---- Page helpers: short names for what a resident does.

export async function typeInto(app, css, text) {
  const element = await app.session.waitFor(css);
  await app.session.click(element);
  await app.session.sendKeys(element, text);
  return element;
}

export async function click(app, css) {
  const element = await app.session.waitFor(css);
  await app.session.click(element);
  return element;
}

/**
 * Waits until the element matching `css` is visible and has stayed in the same place in the
 * window for two polls in a row (150 ms apart): a screen that is still filling in what it loads
 * moves what is below, the focus on its heading scrolls smoothly, and a click aimed before either
 * has ended lands on something else (WebKitWebDriver answers «element not interactable»).
 */
export async function waitStill(app, css) {
  await app.session.waitFor(css);
  await app.session.waitUntil(
    `const e = document.querySelector(arguments[0]);
     const box = e.getBoundingClientRect();
     const at = \`\${box.left},\${box.top},\${box.width},\${box.height}\`;
     const seen = (window.__e2eStill ??= {});
     const still = seen[arguments[0]] === at;
     seen[arguments[0]] = at;
     return still;`,
    { description: `${css} to stay in place`, args: [css] },
  );
}

export function value(app, css) {
  return app.session.execute('return document.querySelector(arguments[0]).value;', css);
}

export function textOf(app, css) {
  return app.session.execute('const e = document.querySelector(arguments[0]); return e ? e.textContent : null;', css);
}

export function activeElementId(app) {
  return app.session.execute('return document.activeElement ? document.activeElement.id : null;');
}

/** Opens a screen through the navigation on the left, as a click on its link would. */
export async function openScreen(app, screen) {
  await click(app, `.app-nav a[data-screen="${screen}"]`);
  await app.session.waitFor(`#screen-${screen}`);
}

// ---- The native file dialog, driven with xdotool under Xvfb.

async function xdotool(...args) {
  const { stdout } = await run('xdotool', args);
  return stdout.trim();
}

async function visibleWindows() {
  try {
    return new Set((await xdotool('search', '--onlyvisible', '--name', '.')).split('\n').filter(Boolean));
  } catch {
    // xdotool exits 1 when nothing matches.
    return new Set();
  }
}

/**
 * Waits for a window that was not visible in `before` (the open dialog GTK shows), gives it the
 * keyboard, asks for the location field (Ctrl+L), types `filePath` and presses Return, until the
 * dialog has closed (up to three tries: GTK maps the dialog before it takes keys, and a key sent
 * too early is lost). `onDialog` is called once while the dialog is up (to take a screenshot).
 */
export async function chooseInFileDialog(before, filePath, onDialog = async () => {}) {
  const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const deadline = Date.now() + 15_000;
  let dialog = null;
  while (dialog === null) {
    for (const id of await visibleWindows()) if (!before.has(id)) dialog = id;
    if (dialog === null) {
      if (Date.now() > deadline) throw new Error('no file dialog appeared within 15 s');
      await pause(200);
    }
  }
  await pause(700);
  await onDialog();
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    await xdotool('windowfocus', '--sync', dialog);
    await xdotool('key', '--clearmodifiers', 'ctrl+l');
    await pause(400);
    // Whatever the location field holds already (a half-typed earlier try) is replaced.
    await xdotool('key', '--clearmodifiers', 'ctrl+a');
    await xdotool('type', '--delay', '20', filePath);
    await pause(400);
    await xdotool('key', 'Return');
    for (let waited = 0; waited < 3_000; waited += 200) {
      if (!(await visibleWindows()).has(dialog)) return dialog;
      await pause(200);
    }
    await screenshotScreen(`file-dialog-still-open-${attempt}-screen`);
  }
  throw new Error('the file dialog did not take the typed path in three tries');
}

/**
 * Waits for a window that was not visible in `before` (a dialog the app opened) and returns its
 * id, failing after `timeoutMs`.
 */
export async function waitForNewWindow(before, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const id of await visibleWindows()) if (!before.has(id)) return id;
    if (Date.now() > deadline) throw new Error(`no new window appeared within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Closes a window with Escape, as a resident would, and waits until it is gone. */
export async function dismissWindow(id) {
  for (let attempt = 1; attempt <= 5; attempt += 1) {
    await xdotool('windowfocus', '--sync', id);
    await xdotool('key', 'Escape');
    for (let waited = 0; waited < 2_000; waited += 200) {
      if (!(await visibleWindows()).has(id)) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw new Error(`window ${id} did not close on Escape`);
}

/** The title of a window, as the window manager has it. */
export async function windowName(id) {
  return xdotool('getwindowname', id);
}

export { visibleWindows };
