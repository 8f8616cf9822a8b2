// «Новая заявка» in the real app: a request with the legal module, an input error shown inline,
// a provider failure that keeps the form, and cancelling a slow call.

import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DESCRIPTION,
  activeElementId,
  chooseInFileDialog,
  cleanUp,
  click,
  dismissWindow,
  installation,
  launch,
  screenshot,
  screenshotScreen,
  startStandIn,
  textOf,
  typeInto,
  value,
  visibleWindows,
  waitForNewWindow,
  windowName,
} from './harness.js';

afterEach(cleanUp);

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
const LIGHTING = 'input[name="confirmed_subject"][value="common_area_premises_lighting"]';

test('a description with a confirmed subject gets a request with the legal module', { timeout: 120_000 }, async () => {
  const { baseUrl } = await startStandIn();
  const app = await launch(installation({ baseUrl }));
  await screenshot(app, 'new-request-empty');

  await typeInto(app, '#description', DESCRIPTION);
  assert.equal(await textOf(app, '#description-counter'), `${[...DESCRIPTION].length} из 2000`);
  await click(app, LIGHTING);
  await screenshot(app, 'new-request-filled');
  await click(app, '#draft-submit');

  await app.session.waitFor('#new-result article.result', { timeoutMs: 30_000 });
  assert.equal(await textOf(app, '#new-result .doc-title'), 'Не работает освещение на лестнице');
  assert.match(await textOf(app, '#new-result .legal-status'), /Добавлен нормативный абзац о теме «Освещение в подъезде»/);
  const sources = await app.session.execute(
    'return [...document.querySelectorAll("#new-result .doc-section")].map((s) => s.className);',
  );
  assert.ok(sources.some((name) => name.includes('source-model')), `sections: ${sources}`);
  assert.ok(
    sources.filter((name) => name.includes('source-legal_catalogue')).length >= 1,
    `the request carries legal paragraphs: ${sources}`,
  );
  // No subject selector is offered: the resident confirmed one already.
  assert.equal(await app.session.execute('return document.querySelector("#new-result .confirm-block") === null;'), true);
  await screenshot(app, 'result-ready');

  // «Как получен результат» opens the context record: the model and what was sent.
  await click(app, '#new-result details.explain summary');
  await app.session.waitUntil('return document.querySelector("#new-result .explain-body dl") !== null;', {
    description: 'the context record',
  });
  assert.match(await textOf(app, '#new-result .explain-body'), /stand-in-model/);
  await screenshot(app, 'result-explain');

  // «Печать» lays out the filed document and opens the system's print dialog (GTK's here);
  // Escape closes it and the app goes on.
  const before = await visibleWindows();
  await click(app, '#new-result .actions button:nth-child(3)');
  const dialog = await waitForNewWindow(before);
  await new Promise((resolve) => setTimeout(resolve, 700));
  await screenshotScreen('print-dialog-screen');
  assert.match(await windowName(dialog), /Печать|Print/);
  assert.match(await textOf(app, '#print-document'), /Не работает освещение на лестнице/);
  assert.match(await textOf(app, '#print-document'), /Подпись: _+/);
  await dismissWindow(dialog);
  assert.equal(await textOf(app, '#new-result .doc-title'), 'Не работает освещение на лестнице');

  // A photo chosen in the real GTK open dialog is attached, listed and named only by number.
  await app.session.waitUntil('return document.querySelector("#new-result .photo-list li") !== null;', {
    description: 'the photos list',
  });
  const beforePhotos = await visibleWindows();
  await click(app, '#new-result .photos .actions button');
  await chooseInFileDialog(beforePhotos, path.join(FIXTURES, 'photos', 'gps.jpg'));
  await app.session.waitUntil('return document.querySelectorAll("#new-result .photo-list li button").length === 1;', {
    description: 'the attached photo',
  });
  assert.match(await textOf(app, '#new-result .photo-list'), /Фото 1 \(JPEG, .*\), 64 × 48/);
  assert.doesNotMatch(await textOf(app, '#new-result .photo-list'), /gps/);
  await screenshot(app, 'result-photos');
});

test('an unconfirmed subject is offered after the result and re-assembles with the legal module', { timeout: 120_000 }, async () => {
  const { baseUrl } = await startStandIn();
  const app = await launch(installation({ baseUrl }));
  await typeInto(app, '#description', DESCRIPTION);
  await click(app, '#draft-submit');
  await app.session.waitFor('#new-result .confirm-block', { timeoutMs: 30_000 });
  assert.match(await textOf(app, '#new-result .legal-status'), /вы не выбрали, к чему относится проблема/);
  // Never pre-filled with the model's guess.
  assert.equal(await app.session.execute('return document.querySelector("#new-result .confirm-block input:checked") === null;'), true);
  await screenshot(app, 'result-confirm-subject');

  await click(app, '#new-result .confirm-block input[value="common_area_premises_lighting"]');
  await click(app, '#new-result .confirm-block .actions button');
  await app.session.waitUntil(
    'const s = document.querySelector("#new-result .legal-status"); return !!s && s.textContent.includes("Освещение в подъезде");',
    { description: 'the re-assembled request with the lighting paragraph' },
  );
});

test('an input error is shown beside its field with focus on it', { timeout: 120_000 }, async () => {
  const { baseUrl } = await startStandIn();
  const app = await launch(installation({ baseUrl }));
  // Punctuation alone has no words: the core refuses it before any model call.
  await typeInto(app, '#description', '!!! ??? ...');
  await click(app, '#draft-submit');

  await app.session.waitFor('#description-error', { timeoutMs: 30_000 });
  const message = await textOf(app, '#description-error');
  assert.ok(message.trim().length > 0, 'the error has a message');
  assert.match(message, /[А-Яа-яЁё]/, `the message is Russian: ${message}`);
  assert.equal(await activeElementId(app), 'description');
  assert.equal(
    await app.session.execute('return document.getElementById("description").getAttribute("aria-invalid");'),
    'true',
  );
  assert.match(
    await app.session.execute('return document.getElementById("description").getAttribute("aria-describedby");'),
    /description-error/,
  );
  assert.equal(await value(app, '#description'), '!!! ??? ...');
  await screenshot(app, 'new-request-input-error');
});

test('a provider failure keeps the form and offers to try again', { timeout: 120_000 }, async () => {
  const { baseUrl } = await startStandIn({ status: 500 });
  const app = await launch(installation({ baseUrl }));
  await typeInto(app, '#description', DESCRIPTION);
  await click(app, LIGHTING);
  await click(app, '#draft-submit');

  await app.session.waitFor('#new-result .panel-failed', { timeoutMs: 60_000 });
  assert.equal(await textOf(app, '#new-result .panel-failed h2'), 'Не удалось составить заявку');
  assert.match(await textOf(app, '#new-result .panel-failed'), /Всё, что вы написали, осталось в форме/);
  assert.ok(
    await app.session.execute('return document.querySelector(\'#new-result [data-action="retry"]\') !== null;'),
    'a retry button',
  );
  assert.equal(await value(app, '#description'), DESCRIPTION);
  assert.equal(await app.session.execute(`return document.querySelector('${LIGHTING}').checked;`), true);
  await screenshot(app, 'result-provider-failure');
});

test('a slow call can be cancelled and the form is kept', { timeout: 120_000 }, async () => {
  const { baseUrl } = await startStandIn({ delayMs: 60_000 });
  const app = await launch(installation({ baseUrl }));
  await typeInto(app, '#description', DESCRIPTION);
  await click(app, '#draft-submit');

  await app.session.waitFor('#draft-progress', { timeoutMs: 10_000 });
  assert.equal(await app.session.execute('return document.getElementById("draft-submit").disabled;'), true);
  // The elapsed time moves while the model works.
  await app.session.waitUntil('return /Прошло [1-9]/.test(document.getElementById("draft-progress-elapsed").textContent);', {
    description: 'the elapsed time to pass one second',
  });
  await screenshot(app, 'new-request-progress');

  const cancelledAt = Date.now();
  await click(app, '#draft-cancel');
  await app.session.waitFor('#new-result .panel-failed', { timeoutMs: 15_000 });
  const took = Date.now() - cancelledAt;
  assert.ok(took < 15_000, `cancelling took ${took} ms`);
  assert.equal(await app.session.execute('return document.getElementById("draft-progress").hidden;'), true);
  assert.equal(await app.session.execute('return document.getElementById("draft-submit").disabled;'), false);
  assert.equal(await value(app, '#description'), DESCRIPTION);
  await screenshot(app, 'result-cancelled');
});
