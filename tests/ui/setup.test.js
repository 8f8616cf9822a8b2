// «Подключение модели», the first-run setup (issue 15), against the fake IPC: when the page opens
// on it, the choices in the engine's order with the engine's own lines, the steps of each
// service held to docs/providers.md, the fields kept across choices, the check's verdict, keys
// never shown, «Пока без модели» remembered across a reload; and its screens at 800×600, at 200 %
// and in the dark theme, written to target/ui-screenshots/.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { assertAccessible, callsOf, closePage, openPage, repositoryRoot, screenshot, startHarness } from './harness.js';

const FIRST_RUN = { noProvider: true };
const GIGACHAT_KEY = 'Y2FuYXJ5LXNldHVwLXVpOmNhbmFyeS1zZWNyZXQ=';
const YANDEX_KEY = 'AQVN-canary-setup-ui-0123456789';

let harness;
before(async () => {
  harness = await startHarness();
});
after(async () => {
  await harness.stop();
});

const visibleScreen = (page) => page.$eval('main', (main) => [...main.querySelectorAll('.screen')].find((screen) => !screen.hidden)?.id);
const choiceLabels = (page) => page.$$eval('#setup-options label.choice', (nodes) => nodes.map((node) => node.textContent.trim()));

async function openSetup(options = {}) {
  const page = await openPage(harness, { ...options, fake: { ...FIRST_RUN, ...(options.fake ?? {}) } });
  await page.waitForSelector('#setup-options input');
  return page;
}

async function choose(page, id) {
  await page.check(`#setup-options input[value="${id}"]`);
  await page.waitForSelector(`#setup-panel-${id}:not([hidden])`);
}

test('a first start opens on the setup; a set-up or skipped installation opens on the form', async () => {
  const page = await openSetup();
  assert.equal(await visibleScreen(page), 'screen-setup');
  assert.equal(await page.textContent('#setup-heading'), 'Подключение модели');
  assert.equal(await page.title(), 'Подключение модели — Заявка');
  // The form is one click away: the navigation stays, and «Пропустить» is at the top.
  assert.equal(await page.isVisible('.app-nav a[data-screen="new"]'), true);
  assert.equal(await page.isVisible('#setup-skip-link'), true);
  await closePage(page);

  for (const fake of [{}, { noProvider: true, setupSkipped: true }]) {
    const form = await openPage(harness, { fake });
    await form.waitForFunction(() => window.__fake.callsOf('settings_get').length >= 1);
    assert.equal(await visibleScreen(form), 'screen-new', JSON.stringify(fake));
    await closePage(form);
  }
});

test('the choices come in the engine\'s order, each with the engine\'s own line on privacy and cost', async () => {
  const page = await openSetup();
  assert.deepEqual(await choiceLabels(page), [
    'GigaChat',
    'Yandex AI Studio',
    'Модель на этом компьютере (Ollama, LM Studio, llama.cpp)',
    'Другой сервис, совместимый с OpenAI',
    'Пока без модели',
  ]);
  const presets = await page.evaluate(async () => (await window.__TAURI_INTERNALS__.invoke('settings_get')).presets);
  const line = (name) => {
    const preset = presets.find((candidate) => candidate.name === name);
    return `${preset.privacy_note} ${preset.cost_note}`;
  };
  const notes = await page.$$eval('#setup-options p.hint', (nodes) => nodes.map((node) => node.textContent));
  assert.deepEqual(notes.slice(0, 4), [line('gigachat'), line('yandex'), line('ollama'), line('custom')]);
  assert.match(notes[4], /текст никуда не уходит, это бесплатно/);
  // Each radio is described by its line.
  assert.equal(await page.getAttribute('#setup-options input[value="gigachat"]', 'aria-describedby'), 'setup-note-gigachat');
  // Nothing is chosen for the resident, and nothing is shown but the choices.
  assert.equal(await page.$$eval('#setup-options input:checked', (nodes) => nodes.length), 0);
  assert.equal(await page.isVisible('#setup-check'), false);
  // Another service in the list brings its own line.
  await choose(page, 'other');
  await page.selectOption('#setup-other-server', 'openai');
  assert.equal(await page.textContent('#setup-note-other'), line('openai'));
  await closePage(page);
});

test('each service shows its numbered steps and its own fields, and only those', async () => {
  const page = await openSetup();
  const expected = {
    gigachat: { steps: 6, first: /developers\.sber\.ru/, fields: ['setup-gigachat-key', 'setup-gigachat-scope'] },
    yandex: { steps: 7, first: /aistudio\.yandex\.ru/, fields: ['setup-yandex-key', 'setup-yandex-folder'] },
    local: { steps: 4, first: /Ollama, LM Studio или llama\.cpp/, fields: ['setup-local-server', 'setup-local-base-url', 'setup-local-model'] },
    other: { steps: 3, first: /адрес API/, fields: ['setup-other-server', 'setup-other-base-url', 'setup-other-model', 'setup-other-key'] },
  };
  for (const [id, { steps, first, fields }] of Object.entries(expected)) {
    await choose(page, id);
    const items = await page.$$eval(`#setup-panel-${id} ol.setup-steps li`, (nodes) => nodes.map((node) => node.textContent));
    assert.equal(items.length, steps, id);
    assert.match(items[0], first);
    assert.match(items.at(-1), /^Нажмите «Проверить подключение»/);
    const shown = await page.$$eval('.setup-panel input, .setup-panel select', (nodes) =>
      nodes.filter((node) => node.getClientRects().length > 0).map((node) => node.id),
    );
    assert.deepEqual(shown, fields, id);
    assert.equal(await page.isVisible('#setup-check'), true);
  }
  // The key fields are password fields; GigaChat's scope is the individuals' by default.
  for (const id of ['setup-gigachat-key', 'setup-yandex-key', 'setup-other-key']) {
    assert.equal(await page.getAttribute(`#${id}`, 'type'), 'password', id);
  }
  assert.equal(await page.inputValue('#setup-gigachat-scope'), 'GIGACHAT_API_PERS');
  // A local server: the preset's address and model, and those of the one picked.
  await choose(page, 'local');
  assert.equal(await page.inputValue('#setup-local-base-url'), 'http://127.0.0.1:11434/v1');
  await page.selectOption('#setup-local-server', 'lmstudio');
  assert.equal(await page.inputValue('#setup-local-base-url'), 'http://127.0.0.1:1234/v1');
  assert.equal(await page.inputValue('#setup-other-base-url'), '', '«Свой сервер» has no address of its own');
  await choose(page, 'none');
  assert.equal(await page.isVisible('#setup-check'), false);
  assert.equal(await page.isVisible('#setup-none-go'), true);
  await closePage(page);
});

// The steps are condensed from docs/providers.md: every name they quote («…») is the guide's
// or a field of this screen, and every address, value and number they give is in the guide.
test('the steps quote only what docs/providers.md says', async () => {
  const guide = readFileSync(path.join(repositoryRoot, 'docs', 'providers.md'), 'utf8');
  const page = await openSetup();
  const own = await page.$$eval('#screen-setup label, #screen-setup button', (nodes) => nodes.map((node) => node.textContent.trim()));
  own.push('Настройки', 'Мастер подключения');
  const steps = await page.$$eval('.setup-panel ol.setup-steps li', (nodes) => nodes.map((node) => node.textContent));
  assert.ok(steps.length >= 20);
  let checked = 0;
  for (const step of steps) {
    for (const [, name] of step.matchAll(/«([^»]+)»/g)) {
      assert.ok(guide.includes(name) || own.includes(name), `«${name}» is neither in docs/providers.md nor on the screen: ${step}`);
      checked += 1;
    }
    // Addresses, technical values and numbers: latin words joined by dots, dashes or
    // underscores, upper-case codes, numbers of four digits or more.
    for (const [token] of step.matchAll(/[A-Za-z0-9]+(?:[._=-][A-Za-z0-9]+)+|\b[A-Z]{2,}_[A-Z_]+\b|\b\d{4,}\b/g)) {
      if (token === 'b1g' || own.includes(token)) continue;
      assert.ok(guide.includes(token), `«${token}» is not in docs/providers.md: ${step}`);
      checked += 1;
    }
  }
  assert.ok(checked > 30, `only ${checked} names and values were checked`);
  // The guide says where to find the folder id's start too.
  assert.ok(guide.includes('начинается с `b1g`'));
  await closePage(page);
});

test('switching between choices keeps everything typed', async () => {
  const page = await openSetup();
  await choose(page, 'gigachat');
  await page.fill('#setup-gigachat-key', GIGACHAT_KEY);
  await page.selectOption('#setup-gigachat-scope', 'GIGACHAT_API_B2B');
  await choose(page, 'yandex');
  await page.fill('#setup-yandex-folder', 'b1gexamplefolder0a1b');
  await choose(page, 'local');
  await page.fill('#setup-local-model', 'qwen2.5:14b');
  await page.selectOption('#setup-local-server', 'llamacpp');
  assert.equal(await page.inputValue('#setup-local-model'), 'qwen2.5:14b', 'a model typed is not replaced by the preset\'s');
  await choose(page, 'gigachat');
  assert.equal(await page.inputValue('#setup-gigachat-key'), GIGACHAT_KEY);
  assert.equal(await page.inputValue('#setup-gigachat-scope'), 'GIGACHAT_API_B2B');
  await choose(page, 'yandex');
  assert.equal(await page.inputValue('#setup-yandex-folder'), 'b1gexamplefolder0a1b');
  // Leaving for another screen and coming back keeps them too.
  await page.click('a[data-screen="drafts"]');
  await page.click('a[data-screen="settings"]');
  await page.click('#setup-open');
  await page.waitForSelector('#screen-setup:not([hidden])');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'setup-heading');
  assert.equal(await page.inputValue('#setup-yandex-folder'), 'b1gexamplefolder0a1b');
  assert.deepEqual(await callsOf(page, 'settings_set'), [], 'nothing is saved before «Проверить подключение»');
  assert.deepEqual(await callsOf(page, 'key_set'), []);
  await closePage(page);
});

test('GigaChat: the check saves the choice and the key, says drafting will work, and the key is never shown again', async () => {
  const page = await openSetup();
  await choose(page, 'gigachat');
  await page.fill('#setup-gigachat-key', GIGACHAT_KEY);
  await page.click('#setup-check');
  await page.waitForSelector('#setup-checks li');
  assert.equal(await page.textContent('#setup-status'), 'Подключение работает: заявки будет составлять модель сервиса «GigaChat».');
  assert.equal(await page.getAttribute('#setup-status', 'role'), 'status');
  const sets = (await callsOf(page, 'settings_set')).map((call) => call.args);
  // The profile only: the individuals' scope is GigaChat's default and is not written.
  assert.deepEqual(sets, [{ key: 'active_profile', value: 'gigachat' }]);
  assert.deepEqual((await callsOf(page, 'key_set')).map((call) => call.args.secret), [GIGACHAT_KEY]);
  assert.equal((await callsOf(page, 'setup_check')).length, 1);
  assert.equal(await page.inputValue('#setup-gigachat-key'), '', 'the field is emptied and never refilled');
  assert.match(await page.textContent('#setup-gigachat-key-hint'), /^Ключ сохранён\./);
  assert.ok(!(await page.content()).includes(GIGACHAT_KEY), 'the key is nowhere in the page');
  const answers = JSON.stringify(await page.evaluate(() => window.__fake.calls));
  assert.equal(answers.split(GIGACHAT_KEY).length - 1, 1, 'the key appears only in the one key_set call');
  // The checks in plain words: no stable ids or step codes on screen.
  const shown = await page.textContent('#setup-checks');
  assert.match(shown, /В порядке Сервис модели/);
  assert.doesNotMatch(shown, /api_key|schema_mode|store_api_key|\bok\b/);
  // Then to the form.
  assert.equal(await page.isVisible('#setup-start'), true);
  assert.match(await page.getAttribute('#setup-start', 'class'), /primary/);
  await page.click('#setup-start');
  await page.waitForSelector('#screen-new:not([hidden])');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'description');
  await closePage(page);
});

test('a refused key: the check says drafting will not work yet, what to change, and where', async () => {
  const page = await openSetup({ fake: { setupFailure: 'key' } });
  await choose(page, 'gigachat');
  await page.fill('#setup-gigachat-key', GIGACHAT_KEY);
  await page.click('#setup-check');
  await page.waitForSelector('#setup-checks li');
  assert.match(await page.textContent('#setup-status'), /^Составлять заявки с моделью пока не получится\. Исправьте то, что отмечено ниже/);
  assert.match(await page.textContent('#setup-checks'), /Нужно исправить Сервис модели.*не принимает ключ доступа\./);
  assert.doesNotMatch(await page.textContent('#setup-checks'), /store_api_key|problem|401/);
  assert.equal(await page.getAttribute('#setup-start', 'class'), null, 'the form is offered, but not as the main action');
  await page.click('#setup-checks button:text("К полю ключа")');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'setup-gigachat-key');
  await closePage(page);
});

test('nothing is saved without a key; a refused folder id is shown beside its field', async () => {
  const page = await openSetup();
  await choose(page, 'yandex');
  await page.click('#setup-check');
  await page.waitForSelector('#setup-yandex-key-error:not([hidden])');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'setup-yandex-key');
  assert.equal(await page.getAttribute('#setup-yandex-key', 'aria-invalid'), 'true');
  assert.match(await page.getAttribute('#setup-yandex-key', 'aria-describedby'), /setup-yandex-key-error/);
  assert.deepEqual(await callsOf(page, 'settings_set'), []);

  await page.fill('#setup-yandex-key', YANDEX_KEY);
  await page.fill('#setup-yandex-folder', 'B1G-wrong');
  await page.click('#setup-check');
  await page.waitForSelector('#setup-yandex-folder-error:not([hidden])');
  assert.match(await page.textContent('#setup-yandex-folder-error'), /^Ожидается идентификатор каталога Yandex Cloud/);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'setup-yandex-folder');
  assert.deepEqual(await callsOf(page, 'key_set'), [], 'the key waits until the folder is right');
  assert.equal(await page.inputValue('#setup-yandex-key'), YANDEX_KEY, 'what was typed stays');
  assert.deepEqual(await callsOf(page, 'setup_check'), []);

  await page.fill('#setup-yandex-folder', 'b1gexamplefolder0a1b');
  await page.click('#setup-check');
  await page.waitForFunction(() => document.querySelector('#setup-status').textContent.startsWith('Подключение работает'));
  const sets = (await callsOf(page, 'settings_set')).map((call) => call.args);
  assert.deepEqual(sets.at(-1), { key: 'folder_id', value: 'b1gexamplefolder0a1b' });
  await closePage(page);
});

test('a model on this computer: the address and model are sent only when changed, no key is asked', async () => {
  const page = await openSetup({ fake: { setupFailure: 'unreachable' } });
  await choose(page, 'local');
  await page.fill('#setup-local-model', 'qwen2.5:14b');
  await page.click('#setup-check');
  await page.waitForSelector('#setup-checks li');
  const sets = (await callsOf(page, 'settings_set')).map((call) => call.args);
  assert.deepEqual(sets, [
    { key: 'active_profile', value: 'ollama' },
    { key: 'model', value: 'qwen2.5:14b' },
  ]);
  assert.deepEqual(await callsOf(page, 'key_set'), []);
  assert.match(await page.textContent('#setup-checks'), /Сервис модели 127\.0\.0\.1 не отвечает как нужно/);
  await page.click('#setup-checks button:text("К настройкам сервиса")');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'setup-local-base-url');
  await closePage(page);
});

test('«Пока без модели» goes to the form and the setup does not come back after a reload', async () => {
  const page = await openSetup();
  await choose(page, 'none');
  await page.click('#setup-none-go');
  await page.waitForSelector('#screen-new:not([hidden])');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'description');
  assert.equal((await callsOf(page, 'setup_skip')).length, 1);
  await page.reload();
  await page.waitForFunction(() => document.documentElement.dataset.ready === 'yes');
  assert.equal(await visibleScreen(page), 'screen-new');
  // Rust keeps the choice; the page keeps nothing of its own.
  assert.equal(await page.evaluate(() => localStorage.length), 0);
  await closePage(page);

  // «Пропустить» does the same, from the top of the screen, by keyboard.
  const skipping = await openSetup();
  await skipping.focus('#setup-skip-link');
  await skipping.keyboard.press('Enter');
  await skipping.waitForSelector('#screen-new:not([hidden])');
  assert.equal((await callsOf(skipping, 'setup_skip')).length, 1);
  assert.equal(await skipping.evaluate(() => localStorage.length), 0);
  await closePage(skipping);
});

test('the setup is reachable again from «Настройки», showing what is saved', async () => {
  const page = await openPage(harness, { hash: 'settings' });
  await page.waitForSelector('#preset-options input');
  await page.click('#setup-open');
  await page.waitForSelector('#screen-setup:not([hidden])');
  await page.waitForSelector('#setup-options input');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'setup-heading');
  // The saved service (OpenAI in the fake) is chosen, with its address.
  assert.equal(await page.isChecked('#setup-options input[value="other"]'), true);
  assert.equal(await page.inputValue('#setup-other-server'), 'openai');
  assert.equal(await page.inputValue('#setup-other-base-url'), 'https://api.openai.com/v1');
  assert.equal(await page.inputValue('#setup-other-key'), '', 'a stored key is never shown');
  await closePage(page);
});

test('the setup is usable by keyboard alone', async () => {
  const page = await openSetup();
  // Tab to the first choice and pick it with the arrow keys, as radio groups are used.
  await page.focus('#setup-options input[value="gigachat"]');
  await page.keyboard.press('Space');
  await page.waitForSelector('#setup-panel-gigachat:not([hidden])');
  await page.keyboard.press('ArrowDown');
  await page.waitForSelector('#setup-panel-yandex:not([hidden])');
  await page.keyboard.press('ArrowUp');
  await page.waitForSelector('#setup-panel-gigachat:not([hidden])');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'setup-gigachat-key');
  await page.keyboard.type(GIGACHAT_KEY);
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'setup-gigachat-scope');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'setup-check');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('#setup-status').textContent.startsWith('Подключение работает'));
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'setup-start');
  await closePage(page);
});

// ---- Screens: every choice, the check ok and failed, at 800×600, at 200 % and dark.

const WINDOWS = [
  { name: '800x600', viewport: { width: 800, height: 600 }, deviceScaleFactor: 1, colorScheme: 'light' },
  { name: '200pct', viewport: { width: 400, height: 300 }, deviceScaleFactor: 2, colorScheme: 'light' },
  { name: 'dark', viewport: { width: 800, height: 600 }, deviceScaleFactor: 1, colorScheme: 'dark' },
];

async function checked(page, failure) {
  await page.evaluate((value) => (window.__fake.setupFailure = value), failure);
  await choose(page, 'gigachat');
  await page.fill('#setup-gigachat-key', GIGACHAT_KEY);
  await page.click('#setup-check');
  await page.waitForSelector('#setup-checks li');
}

const STATES = {
  'setup-start': async () => {},
  'setup-gigachat': (page) => choose(page, 'gigachat'),
  'setup-yandex': (page) => choose(page, 'yandex'),
  'setup-local': (page) => choose(page, 'local'),
  'setup-other': (page) => choose(page, 'other'),
  'setup-none': (page) => choose(page, 'none'),
  'setup-check-ok': (page) => checked(page, null),
  'setup-check-failed': (page) => checked(page, 'key'),
};

for (const window of WINDOWS) {
  for (const [name, reach] of Object.entries(STATES)) {
    test(`${name} at ${window.name}: no serious accessibility findings, nothing cut off`, async () => {
      const page = await openSetup(window);
      await reach(page);
      await assertAccessible(page, `${name} ${window.name}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.equal(overflow, 0, 'the page must not scroll sideways');
      // Targets a finger or a shaky hand can hit: every visible button at least 24 px high.
      const small = await page.$$eval('#screen-setup button, #screen-setup input, #screen-setup select', (nodes) =>
        nodes.filter((node) => node.getClientRects().length > 0 && node.getBoundingClientRect().height < 19).map((node) => node.id || node.value),
      );
      assert.deepEqual(small, []);
      await screenshot(page, `${name}-${window.name}`);
      await closePage(page);
    });
  }
}
