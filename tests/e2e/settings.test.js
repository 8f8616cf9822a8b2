// «Настройки» in the real app: a provider chosen and pointed at the stand-in on the screen, the
// API key entered in the password field and stored in the real keyring (the D-Bus session's
// GNOME Keyring that run.sh unlocked), then a draft that uses it, and the key still stored after
// a restart.

import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  DESCRIPTION,
  cleanUp,
  click,
  close,
  filesUnder,
  installation,
  launch,
  openScreen,
  screenshot,
  startStandIn,
  textOf,
  typeInto,
  value,
} from './harness.js';

afterEach(cleanUp);

const SECRET = 'sk-e2e-settings-0123456789';

test('the provider and the key are set on the settings screen and a draft uses them', { timeout: 240_000 }, async () => {
  const { baseUrl } = await startStandIn();
  // No provider and no key from the environment: everything comes from the screen.
  const inst = installation({ baseUrl: null, apiKey: null });
  let app = await launch(inst);

  await openScreen(app, 'settings');
  await app.session.waitFor('#preset-options input[value="openai"]');
  await screenshot(app, 'settings');
  await click(app, '#preset-options input[value="openai"]');
  await app.session.waitUntil('return document.getElementById("provider-status").textContent.startsWith("Выбран сервис «OpenAI», но он ещё не сохранён");', {
    description: 'the preset to be chosen',
  });
  // Issue 14: choosing a service writes nothing; only «Сохранить настройки» does.
  assert.deepEqual(
    filesUnder(inst.home).filter((file) => file.endsWith('config.toml')),
    [],
    'a radio click must not write the configuration',
  );
  const baseUrlField = await app.session.find('#base-url');
  await app.session.clear(baseUrlField);
  await app.session.sendKeys(baseUrlField, baseUrl);
  const modelField = await app.session.find('#model-name');
  await app.session.clear(modelField);
  await app.session.sendKeys(modelField, 'stand-in-model');
  await click(app, '#provider-save');
  await app.session.waitUntil('return document.getElementById("provider-status").textContent === "Настройки сохранены.";', {
    description: 'the settings to be saved',
  });
  assert.equal(await value(app, '#base-url'), baseUrl);
  assert.match(await textOf(app, '#key-status'), /Ключ не задан/);

  // Without a key the draft stops and offers to set one.
  await openScreen(app, 'new');
  await typeInto(app, '#description', DESCRIPTION);
  await click(app, '#draft-submit');
  await app.session.waitFor('#new-result [data-action="store_api_key"]', { timeoutMs: 30_000 });
  await screenshot(app, 'result-no-key');
  await click(app, '#new-result [data-action="store_api_key"]');
  await app.session.waitUntil('return document.activeElement && document.activeElement.id === "api-key";', {
    description: 'focus on the key field',
  });

  await typeInto(app, '#api-key', SECRET);
  await click(app, '#key-save');
  await app.session.waitUntil('return document.getElementById("key-status").textContent.startsWith("Ключ сохранён.");', {
    description: 'the key to be stored',
  });
  assert.equal(await value(app, '#api-key'), '', 'the field is emptied and never refilled');
  assert.equal(
    await app.session.execute('return document.documentElement.outerHTML.includes(arguments[0]);', SECRET),
    false,
    'the key is nowhere in the page',
  );
  await screenshot(app, 'settings-key-stored');

  await click(app, '#connection-check');
  await app.session.waitUntil('return document.getElementById("doctor-status").textContent.startsWith("Проверка закончена");', {
    timeoutMs: 60_000,
    description: 'the connection check',
  });
  assert.ok(await app.session.execute('return document.querySelectorAll("#doctor-checks li").length > 0;'));
  await screenshot(app, 'settings-connection-check');

  await openScreen(app, 'new');
  await click(app, '#draft-submit');
  await app.session.waitFor('#new-result article.result', { timeoutMs: 30_000 });
  await close(app);

  // The key is in the keyring, not in the page or a file: a new start still finds it.
  app = await launch(inst);
  await openScreen(app, 'settings');
  await app.session.waitUntil('return document.getElementById("key-status").textContent.startsWith("Ключ сохранён.");', {
    description: 'the stored key after a restart',
  });
  assert.equal(await value(app, '#base-url'), baseUrl);
  await close(app);

  for (const file of filesUnder(inst.home)) {
    assert.equal(readFileSync(file).includes(SECRET), false, `the key was written to ${file}`);
  }
});
