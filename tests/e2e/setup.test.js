// The first-run setup (issue 15) in the real app: a fresh installation opens on «Подключение
// модели»; GigaChat chosen there with a key typed in the password field is checked for real
// against the stand-in playing GigaChat (the key exchanged for a token, one small structured
// call), and the next draft comes out ready. «Пока без модели» goes to the form and the setup
// does not come back at the next start.

import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  DESCRIPTION,
  cleanUp,
  click,
  close,
  configSet,
  filesUnder,
  installation,
  launch,
  screenshot,
  startStandIn,
  textOf,
  typeInto,
  value,
} from './harness.js';

afterEach(cleanUp);

// A «ключ авторизации» as GigaChat issues them (Base64 of client id and secret); not a real one.
const GIGACHAT_KEY = 'ZTJlLXNldHVwLWNsaWVudDplMmUtc2V0dXAtc2VjcmV0';

const shownScreen = (app) =>
  app.session.execute('return [...document.querySelectorAll("main .screen")].find((s) => !s.hidden)?.id ?? null;');

test('a fresh app opens on the setup; GigaChat set up there works and a draft comes out ready', { timeout: 240_000 }, async () => {
  const { baseUrl, authUrl } = await startStandIn({ gigachatKey: GIGACHAT_KEY });
  // No service chosen and none from the environment. GigaChat's own addresses are not on the
  // screen: the test points them at the stand-in, without choosing GigaChat.
  const inst = installation({ baseUrl: null, apiKey: null });
  await configSet(inst, 'profiles.gigachat.base_url', baseUrl);
  await configSet(inst, 'profiles.gigachat.auth_url', authUrl);
  const app = await launch(inst);

  await app.session.waitFor('#setup-options input[value="gigachat"]');
  assert.equal(await shownScreen(app), 'screen-setup');
  assert.equal(await textOf(app, '#setup-heading'), 'Подключение модели');
  const labels = await app.session.execute('return [...document.querySelectorAll("#setup-options label.choice")].map((l) => l.textContent.trim());');
  assert.deepEqual(labels, [
    'GigaChat',
    'Yandex AI Studio',
    'Модель на этом компьютере (Ollama, LM Studio, llama.cpp)',
    'Другой сервис, совместимый с OpenAI',
    'Пока без модели',
  ]);
  await screenshot(app, 'setup-first-run');

  await click(app, '#setup-options input[value="gigachat"]');
  await app.session.waitFor('#setup-panel-gigachat:not([hidden]) #setup-gigachat-key');
  await screenshot(app, 'setup-gigachat');
  await typeInto(app, '#setup-gigachat-key', GIGACHAT_KEY);
  await click(app, '#setup-check');
  await app.session.waitUntil('return document.getElementById("setup-status").textContent.startsWith("Подключение работает");', {
    timeoutMs: 60_000,
    description: 'the check to say drafting will work',
  });
  assert.equal(await textOf(app, '#setup-status'), 'Подключение работает: заявки будет составлять модель сервиса «GigaChat».');
  assert.equal(await value(app, '#setup-gigachat-key'), '', 'the key field is emptied and never refilled');
  assert.equal(
    await app.session.execute('return document.documentElement.outerHTML.includes(arguments[0]);', GIGACHAT_KEY),
    false,
    'the key is nowhere in the page',
  );
  await screenshot(app, 'setup-check-ok');

  await click(app, '#setup-start');
  await app.session.waitUntil('return !document.getElementById("screen-new").hidden && document.activeElement.id === "description";', {
    description: 'the form, with focus on the description',
  });
  await typeInto(app, '#description', DESCRIPTION);
  await click(app, '#draft-submit');
  await app.session.waitFor('#new-result article.result', { timeoutMs: 60_000 });
  assert.equal(await textOf(app, '#new-result .doc-title'), 'Не работает освещение на лестнице');

  // Set up: the page started again (as at the next start) opens on the form, since Rust now
  // finds a chosen service. (A restart of the app itself is the «Пока без модели» test's.)
  // The old page's flag is cleared first: read before the new page has loaded, it would say
  // ready while no screen is shown yet (seen once in CI).
  await app.session.execute('document.documentElement.dataset.ready = "reloading"; location.reload();');
  await app.session.waitUntil(
    'return document.documentElement.dataset.ready === "yes" && [...document.querySelectorAll("main .screen")].some((s) => !s.hidden);',
    { description: 'the page to start again and show a screen' },
  );
  assert.equal(await shownScreen(app), 'screen-new');
  await close(app);
  for (const file of filesUnder(inst.home)) {
    assert.equal(readFileSync(file).includes(GIGACHAT_KEY), false, `the key was written to ${file}`);
  }
});

test('«Пока без модели» goes to the form and the setup does not come back at the next start', { timeout: 120_000 }, async () => {
  const inst = installation({ baseUrl: null, apiKey: null });
  let app = await launch(inst);
  await app.session.waitFor('#setup-options input[value="none"]');
  await click(app, '#setup-options input[value="none"]');
  await click(app, '#setup-none-go');
  await app.session.waitUntil('return !document.getElementById("screen-new").hidden;', { description: 'the form' });
  assert.ok(existsSync(path.join(inst.home, 'setup-skipped')), 'the choice is kept in the configuration folder');
  await close(app);

  app = await launch(inst);
  assert.equal(await shownScreen(app), 'screen-new');
  // The setup is still there, from «Настройки».
  await click(app, '.app-nav a[data-screen="settings"]');
  await click(app, '#setup-open');
  await app.session.waitFor('#screen-setup:not([hidden]) #setup-options input');
  await close(app);
});
