// A tiny W3C WebDriver client over Node's built-in `fetch`, enough to drive the real app through
// tauri-driver. `fetch` keeps one connection open and reuses it (undici's keep-alive), which
// matters here: tauri-driver 2.1 reuses its upstream socket, and a client that sends
// `Connection: close` on every call meets sporadic «remote end closed connection» resets right
// after a click (see ../shared PLATFORM notes in docs/testing.md).

const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';

/** A failed WebDriver call, with the W3C error code (`no such element`, …) kept for callers. */
export class WebDriverError extends Error {
  constructor(method, path, status, value) {
    const error = value?.error ?? 'unknown error';
    super(`${method} ${path} → ${status} ${error}: ${value?.message ?? JSON.stringify(value)}`);
    this.name = 'WebDriverError';
    this.code = error;
  }
}

/** How long one WebDriver call may take: well inside a test's own limit, so that a call the
 * driver never answers (seen once in CI, under load) fails naming the call, not as a test timeout
 * that says nothing of where it hung. */
const CALL_TIMEOUT_MS = 60_000;

async function call(base, method, path, body) {
  let response;
  let text;
  try {
    response = await fetch(`${base}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
    text = await response.text();
  } catch (error) {
    if (error?.name !== 'TimeoutError') throw error;
    throw new WebDriverError(method, path, 0, {
      error: 'timeout',
      message: `the driver did not answer within ${CALL_TIMEOUT_MS / 1000} s`,
    });
  }
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new WebDriverError(method, path, response.status, { error: 'invalid response', message: text.slice(0, 500) });
  }
  if (!response.ok) throw new WebDriverError(method, path, response.status, parsed.value);
  return parsed.value;
}

/** One WebDriver session, that is one launch of the app. */
export class Session {
  /** Starts the application at `application` (an absolute path) through the driver at `base`. */
  static async start(base, application) {
    const value = await call(base, 'POST', '/session', {
      capabilities: { alwaysMatch: { 'tauri:options': { application } } },
    });
    return new Session(base, value.sessionId);
  }

  constructor(base, id) {
    this.base = base;
    this.id = id;
  }

  request(method, path, body) {
    return call(this.base, method, `/session/${this.id}${path}`, body);
  }

  /** Ends the session; the driver closes the app. */
  async delete() {
    await this.request('DELETE', '');
  }

  /** The first element matching `css`, or a `no such element` error. */
  async find(css) {
    const value = await this.request('POST', '/element', { using: 'css selector', value: css });
    return value[ELEMENT];
  }

  async findAll(css) {
    const value = await this.request('POST', '/elements', { using: 'css selector', value: css });
    return value.map((element) => element[ELEMENT]);
  }

  /**
   * Scrolls the element to the middle of the window at once. The page asks for smooth scrolling
   * (`scroll-behavior: smooth`), so the scroll WebKitWebDriver does before a click is still
   * under way when it checks the element is in view, and an element below the fold is refused
   * as «not interactable»; an instant scroll first avoids that.
   */
  async reveal(element) {
    await this.execute('arguments[0].scrollIntoView({ block: "center", inline: "nearest", behavior: "instant" });', { [ELEMENT]: element });
  }

  async click(element) {
    await this.reveal(element);
    return this.request('POST', `/element/${element}/click`, {});
  }

  /** Types `text` into the element as key presses (so `input` events fire as for a person). */
  async sendKeys(element, text) {
    await this.reveal(element);
    return this.request('POST', `/element/${element}/value`, { text });
  }

  async clear(element) {
    await this.reveal(element);
    return this.request('POST', `/element/${element}/clear`, {});
  }

  text(element) {
    return this.request('GET', `/element/${element}/text`);
  }

  property(element, name) {
    return this.request('GET', `/element/${element}/property/${name}`);
  }

  displayed(element) {
    return this.request('GET', `/element/${element}/displayed`);
  }

  /** Runs `script` (a function body) in the page with `args`; its `return` value comes back. */
  execute(script, ...args) {
    return this.request('POST', '/execute/sync', { script, args });
  }

  /** The webview as a PNG (the window's content only, without the title bar). */
  async screenshot() {
    return Buffer.from(await this.request('GET', '/screenshot'), 'base64');
  }

  /**
   * Polls `predicate` (a page-side function body returning a truthy value when done) until it
   * holds or `timeoutMs` passes; returns its value. `description` names what was awaited.
   */
  async waitUntil(predicate, { timeoutMs = 15_000, description = predicate, args = [] } = {}) {
    const deadline = Date.now() + timeoutMs;
    let last;
    for (;;) {
      try {
        last = await this.execute(predicate, ...args);
        if (last) return last;
      } catch (error) {
        last = error;
      }
      if (Date.now() > deadline) {
        throw new Error(`timed out after ${timeoutMs} ms waiting for: ${description} (last: ${last})`);
      }
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  }

  /** Waits until an element matching `css` exists and is visible, then returns it. */
  async waitFor(css, options = {}) {
    await this.waitUntil(
      'const e = document.querySelector(arguments[0]); return !!e && e.getClientRects().length > 0 && !e.closest("[hidden]");',
      { description: `a visible ${css}`, args: [css], ...options },
    );
    return this.find(css);
  }
}
