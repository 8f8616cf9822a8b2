// «Новая заявка» against the fake IPC: typing, autosave and restore, inline errors, the result
// card with provenance and copying, confirming a subject, the calm panels, cancelling.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { assertAccessible, assertNothingSticksOut, callsOf, closePage, openPage, screenshot, startHarness } from './harness.js';

const LIGHT_OUT = 'В подъезде неделю не горит свет на лестнице между третьим и четвёртым этажами.';

let harness;
before(async () => {
  harness = await startHarness();
});
after(async () => {
  await harness.stop();
});

test('typing updates the counter and autosaves the form after a pause', async () => {
  const page = await openPage(harness);
  await page.fill('#description', 'Лифт стоит');
  assert.equal(await page.textContent('#description-counter'), '10 из 2000');
  // Characters are counted as the core counts them: one «ё» or emoji is one character.
  await page.fill('#description', 'ёлка 🙂');
  assert.equal(await page.textContent('#description-counter'), '6 из 2000');
  await page.fill('#description', LIGHT_OUT);
  await page.waitForFunction(() => window.__fake.autosaved?.description?.startsWith('В подъезде'));
  const saved = await page.evaluate(() => window.__fake.autosaved);
  assert.deepEqual(saved, { description: LIGHT_OUT, location: null, consequences: null, desired_actions: null, confirmed_subject: null });
  await closePage(page);
});

test('text saved earlier is restored on start', async () => {
  const restored = { description: LIGHT_OUT, location: 'Подъезд 2', consequences: null, desired_actions: 'Заменить лампы', confirmed_subject: 'common_area_premises_lighting' };
  const page = await openPage(harness, { fake: { restored } });
  await page.waitForFunction(() => document.querySelector('#description').value !== '');
  assert.equal(await page.inputValue('#description'), LIGHT_OUT);
  assert.equal(await page.inputValue('#location'), 'Подъезд 2');
  assert.equal(await page.inputValue('#desired_actions'), 'Заменить лампы');
  assert.equal(await page.isChecked('input[name="confirmed_subject"][value="common_area_premises_lighting"]'), true);
  assert.equal(await page.textContent('#description-counter'), `${[...LIGHT_OUT].length} из 2000`);
  await closePage(page);
});

test('invalid input shows the error beside its field and moves focus there', async () => {
  const page = await openPage(harness);
  await page.fill('#description', 'Темно');
  await page.click('#draft-submit');
  await page.waitForSelector('#description-error:not([hidden])');
  const error = await page.textContent('#description-error');
  assert.match(error, /слишком короткое: нужно не меньше 10 символов, сейчас 5/);
  assert.equal(await page.getAttribute('#description', 'aria-invalid'), 'true');
  assert.match(await page.getAttribute('#description', 'aria-describedby'), /description-error/);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'description');
  // The text stays as typed.
  assert.equal(await page.inputValue('#description'), 'Темно');
  await closePage(page);
});

test('an input error sent from below the fold scrolls its message into view', async () => {
  const page = await openPage(harness);
  await page.fill('#description', 'Темно');
  await page.evaluate(() => document.getElementById('draft-submit').scrollIntoView({ block: 'end', behavior: 'instant' }));
  await page.click('#draft-submit');
  await page.waitForSelector('#description-error:not([hidden])');
  await page.waitForFunction(() => {
    const box = document.getElementById('description-error').getBoundingClientRect();
    const label = document.querySelector('label[for="description"]').getBoundingClientRect();
    return label.top >= 0 && box.bottom <= window.innerHeight;
  });
  assert.equal(await page.evaluate(() => document.activeElement.id), 'description');
  await closePage(page);
});

test('an error in an optional field opens «Дополнительно» and focuses that field', async () => {
  const page = await openPage(harness);
  await page.fill('#description', LIGHT_OUT);
  await page.click('#more-fields summary');
  await page.fill('#location', 'П'.repeat(130));
  await page.click('#more-fields summary');
  await page.click('#draft-submit');
  await page.waitForSelector('#location-error:not([hidden])');
  assert.equal(await page.evaluate(() => document.querySelector('#more-fields').open), true);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'location');
  assert.equal(await page.textContent('#location-counter'), '130 из 120');
  await closePage(page);
});

test('a ready result shows provenance markers and copies exactly the title and body', async () => {
  const page = await openPage(harness);
  await page.fill('#description', LIGHT_OUT);
  await page.check('input[name="confirmed_subject"][value="common_area_premises_lighting"]');
  await page.click('#draft-submit');
  await page.waitForSelector('.document');
  const markers = await page.$$eval('.document .marker', (nodes) => nodes.map((node) => node.textContent));
  assert.deepEqual(markers, [
    'Источник: заголовок составлен моделью',
    'Источник: описание, составленное моделью',
    'Источник: описание, составленное моделью',
    'Источник: описание, составленное моделью',
    'Источник: нормативный текст',
    'Источник: нормативный текст',
    'Источник: нормативный текст',
    'Источник: общая формулировка',
  ]);
  const legend = await page.$$eval('.legend-item', (nodes) => nodes.map((node) => node.textContent));
  assert.deepEqual(legend, ['описание, составленное моделью', 'нормативный текст', 'общая формулировка']);
  assert.match(await page.textContent('.legal-status'), /Добавлен нормативный абзац о теме «Освещение в подъезде»/);
  // Markers cannot be selected, so a manual copy of the card leaves them out too.
  assert.equal(await page.$eval('.marker', (node) => getComputedStyle(node).userSelect), 'none');

  await page.click('button:text("Скопировать")');
  await page.waitForFunction(() => window.__fake.callsOf('clipboard_write').length === 1);
  const [copy] = await callsOf(page, 'clipboard_write');
  const [run] = await callsOf(page, 'draft_run');
  const detail = await page.evaluate(() => [...window.__fake.drafts.values()].at(-1).result.request);
  assert.equal(copy.args.text, `${detail.title}\n\n${detail.body}`);
  assert.doesNotMatch(copy.args.text, /Источник|ваши слова|составленное моделью|нормативный текст/);
  assert.ok(copy.args.text.endsWith('Прошу:\n1. Устранить наблюдаемую проблему.'));
  assert.equal(run.args.input.confirmed_subject, 'common_area_premises_lighting');
  assert.match(run.args.onProgress, /^__CHANNEL__:\d+$/);
  assert.match(await page.textContent('.result [role="status"]'), /скопирован/);
  await closePage(page);
});

test('the resident\'s own request is marked as theirs; drafting without a model marks their words', async () => {
  const page = await openPage(harness);
  await page.fill('#description', LIGHT_OUT);
  await page.click('#more-fields summary');
  await page.fill('#desired_actions', 'прошу: заменить лампы');
  await page.click('#draft-offline');
  await page.waitForSelector('.document');
  const markers = await page.$$eval('.document .marker', (nodes) => nodes.map((node) => node.textContent.replace('Источник: ', '')));
  assert.equal(markers[0], 'заголовок — ваши слова');
  assert.equal(markers[1], 'ваши слова');
  assert.equal(markers.at(-1), 'ваше требование');
  assert.match(await page.textContent('.document'), /1\. Заменить лампы\./);
  assert.match(await page.textContent('.legal-status'), /без модели/);
  assert.equal((await callsOf(page, 'draft_offline')).length, 1);
  assert.equal((await callsOf(page, 'draft_run')).length, 0);
  await closePage(page);
});

test('issue 14: with no model set up, the subject choice says the legal paragraph needs the model', async () => {
  const page = await openPage(harness, { fake: { noProvider: true, setupSkipped: true } });
  await page.waitForSelector('#subject-offline-note:not([hidden])');
  assert.equal(
    await page.textContent('#subject-offline-note'),
    'Сейчас модель не настроена, поэтому абзаца с нормой закона не будет: для него модель должна сама, не зная вашего выбора, прочитать текст и определить ту же тему.',
  );
  // Beside the choice, and read with it.
  assert.match(await page.getAttribute('#subject-fieldset', 'aria-describedby'), /subject-offline-note/);
  await page.fill('#description', LIGHT_OUT);
  await page.check('input[name="confirmed_subject"][value="common_area_premises_lighting"]');
  await page.click('#draft-offline');
  await page.waitForSelector('.document');
  assert.match(await page.textContent('.legal-status'), /без модели/);
  await closePage(page);

  // With a model set up the line is not there.
  const configured = await openPage(harness);
  // Once at start (is this a first run? issue 15), once for «Новая заявка».
  await configured.waitForFunction(() => window.__fake.callsOf('settings_get').length === 2);
  assert.equal(await configured.isHidden('#subject-offline-note'), true);
  await closePage(configured);
});

test('issue 14: a draft without a model says truthfully what was done to the resident\'s words', async () => {
  const page = await openPage(harness, { fake: { noProvider: true, setupSkipped: true } });
  await page.fill('#description', 'в подъезде неделю не горит свет\nна лестнице');
  await page.click('#draft-offline');
  await page.waitForSelector('.document');
  assert.equal(await page.textContent('.document .source-resident p'), 'В подъезде неделю не горит свет на лестнице.');
  const warnings = await page.textContent('.warnings');
  assert.doesNotMatch(warnings, /без изменений/);
  assert.match(warnings, /ваши слова\. Приложение лишь делает первую букву заглавной, ставит точку в конце и соединяет строки, если это нужно\./);
  await closePage(page);
});

test('issue 14: while a new request runs, the previous failure box and the stale-text note go away', async () => {
  const page = await openPage(harness, { fake: { scenario: 'failed' } });
  await page.fill('#description', LIGHT_OUT);
  await page.click('#draft-submit');
  await page.waitForSelector('.panel-failed');
  await page.evaluate(() => (window.__fake.scenario = 'slow'));
  await page.click('#draft-submit');
  await page.waitForSelector('#draft-progress:not([hidden])');
  assert.equal(await page.$$eval('#new-result .panel', (nodes) => nodes.length), 0, 'the failure box is gone while the new run works');
  await page.click('#draft-cancel');
  await page.waitForSelector('.panel-failed');

  // A ready result whose text was changed since: its note goes with it when the next run starts.
  await page.evaluate(() => (window.__fake.scenario = 'auto'));
  await page.click('#draft-submit');
  await page.waitForSelector('.document');
  await page.fill('#description', `${LIGHT_OUT} И на пятом тоже.`);
  await page.waitForSelector('.stale-note:not([hidden])');
  await page.evaluate(() => (window.__fake.scenario = 'slow'));
  await page.click('#draft-submit');
  await page.waitForSelector('#draft-progress:not([hidden])');
  assert.equal(await page.$$eval('#new-result .stale-note, #new-result .document', (nodes) => nodes.length), 0);
  await page.click('#draft-cancel');
  await page.waitForSelector('.panel-failed');
  // The cancelled run's panel belongs to the text as it is now: no stale note.
  assert.equal(await page.$$eval('.stale-note:not([hidden])', (nodes) => nodes.length), 0);
  await closePage(page);
});

test('an unconfirmed subject offers the selector, never pre-filled, and re-assembles without a model call', async () => {
  const page = await openPage(harness);
  await page.fill('#description', LIGHT_OUT);
  await page.click('#draft-submit');
  await page.waitForSelector('.confirm-block');
  assert.match(await page.textContent('.legal-status'), /вы не выбрали/);
  assert.equal(await page.$$eval('.confirm-block input:checked', (nodes) => nodes.length), 0);
  // Asking without a choice explains what to do.
  await page.click('button:text("Пересобрать заявку")');
  await page.waitForSelector('.confirm-block .field-error:not([hidden])');
  await page.check('.confirm-block input[value="common_area_premises_lighting"]');
  await page.click('button:text("Пересобрать заявку")');
  await page.waitForFunction(() => !document.querySelector('.confirm-block'));
  const [reassemble] = await callsOf(page, 'draft_reassemble');
  assert.equal(reassemble.args.subject, 'common_area_premises_lighting');
  assert.equal(typeof reassemble.args.draftId, 'number');
  assert.equal((await callsOf(page, 'draft_run')).length, 1);
  assert.match(await page.textContent('.legal-status'), /Добавлен нормативный абзац/);
  await closePage(page);
});

test('with no model service the next step is the setup wizard, as the setup names it (issue 31)', async () => {
  const page = await openPage(harness, { fake: { scenario: 'no_provider' } });
  await page.fill('#description', LIGHT_OUT);
  await page.click('#draft-submit');
  await page.waitForSelector('.panel-failed');
  const buttons = await page.$$eval('.panel-failed button', (nodes) => nodes.map((node) => node.textContent));
  assert.deepEqual(buttons, ['Мастер подключения', 'Составить без модели']);
  await page.click('.panel-failed button:text("Мастер подключения")');
  await page.waitForSelector('#screen-setup:not([hidden])');
  await closePage(page);
});

test('a failed draft keeps the text and offers retry and drafting without a model', async () => {
  const page = await openPage(harness, { fake: { scenario: 'failed' } });
  await page.fill('#description', LIGHT_OUT);
  await page.click('#more-fields summary');
  await page.fill('#consequences', 'Вечером темно, соседи спотыкаются.');
  await page.click('#draft-submit');
  await page.waitForSelector('.panel-failed');
  assert.match(await page.textContent('.panel-failed'), /техническая неудача, а не оценка вашей проблемы/);
  const buttons = await page.$$eval('.panel-failed button', (nodes) => nodes.map((node) => node.textContent));
  assert.deepEqual(buttons, ['Попробовать ещё раз', 'Составить без модели', 'Открыть настройки']);
  assert.equal(await page.inputValue('#description'), LIGHT_OUT);
  assert.equal(await page.inputValue('#consequences'), 'Вечером темно, соседи спотыкаются.');
  assert.equal(await page.evaluate(() => document.activeElement.classList.contains('result-heading')), true);

  await page.evaluate(() => (window.__fake.scenario = 'auto'));
  await page.click('.panel-failed button:text("Попробовать ещё раз")');
  await page.waitForSelector('.document');
  assert.equal((await callsOf(page, 'draft_run')).length, 2);
  await closePage(page);
});

test('«Составить без модели» from the failure panel drafts offline with the same text', async () => {
  const page = await openPage(harness, { fake: { scenario: 'failed' } });
  await page.fill('#description', LIGHT_OUT);
  await page.click('#draft-submit');
  await page.click('.panel-failed button:text("Составить без модели")');
  await page.waitForSelector('.document');
  const [offline] = await callsOf(page, 'draft_offline');
  assert.equal(offline.args.input.description, LIGHT_OUT);
  await closePage(page);
});

test('needs_user and rejected get their own calm panels', async () => {
  const page = await openPage(harness, { fake: { scenario: 'needs_user' } });
  await page.fill('#description', 'Во дворе сломаны качели, а у баков бросили диван.');
  await page.click('#draft-submit');
  await page.waitForSelector('.panel-needs_user');
  const text = await page.textContent('.panel-needs_user');
  assert.match(text, /Опишите одну проблему — для второй составьте отдельную заявку/);
  assert.match(text, /Сломанные качели и брошенный диван/);
  await page.click('.panel-needs_user button:text("Перейти к описанию")');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'description');

  await page.evaluate(() => (window.__fake.scenario = 'rejected'));
  await page.click('#draft-submit');
  await page.waitForSelector('.panel-rejected');
  assert.match(await page.textContent('.panel-rejected h2'), /Черновик не показан/);
  assert.deepEqual(await page.$$eval('.panel-rejected button', (nodes) => nodes.map((node) => node.textContent)), ['Попробовать ещё раз', 'Составить без модели']);

  await page.evaluate(() => (window.__fake.scenario = 'rate_limited'));
  await page.click('#draft-submit');
  await page.waitForSelector('.panel-failed');
  assert.match(await page.textContent('.panel-failed .next-steps'), /Подождите минуту и попробуйте снова/);
  await closePage(page);
});

test('a missing key leads to the key field in settings', async () => {
  const page = await openPage(harness, { fake: { scenario: 'failed_no_key' } });
  await page.fill('#description', LIGHT_OUT);
  await page.click('#draft-submit');
  await page.click('.panel-failed button:text("Задать ключ")');
  await page.waitForSelector('#screen-settings:not([hidden])');
  await page.waitForFunction(() => document.activeElement.id === 'api-key');
  await closePage(page);
});

test('a slow draft shows progress with elapsed time, stays editable and can be cancelled', async () => {
  const page = await openPage(harness, { fake: { scenario: 'slow' } });
  await page.fill('#description', LIGHT_OUT);
  await page.click('#draft-submit');
  await page.waitForSelector('#draft-progress:not([hidden])');
  assert.match(await page.textContent('#draft-progress-state'), /Модель составляет описание/);
  assert.match(await page.textContent('#draft-progress-elapsed'), /^Прошло \d+ с$/);
  assert.equal(await page.isDisabled('#draft-submit'), true);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'draft-cancel');
  // The form stays editable while the model works.
  await page.fill('#description', `${LIGHT_OUT} Уже неделю.`);
  await page.click('#draft-cancel');
  await page.waitForSelector('.panel-failed');
  assert.match(await page.textContent('.panel-failed'), /отменён/);
  assert.equal(await page.isHidden('#draft-progress'), true);
  assert.equal(await page.isEnabled('#draft-submit'), true);
  const [run] = await callsOf(page, 'draft_run');
  const [cancel] = await callsOf(page, 'draft_cancel');
  assert.equal(cancel.args.taskId, run.args.taskId);
  assert.equal(await page.inputValue('#description'), `${LIGHT_OUT} Уже неделю.`);
  await closePage(page);
});

test('a busy service is shown in the words Rust sends, and can be cancelled', async () => {
  const page = await openPage(harness, { fake: { scenario: 'busy' } });
  await page.fill('#description', LIGHT_OUT);
  await page.click('#draft-submit');
  await page.waitForFunction(() =>
    document.querySelector('#draft-progress-state').textContent.includes('через'),
  );
  assert.equal(
    await page.textContent('#draft-progress-state'),
    'Сервис модели занят (HTTP 503), пробуем ещё раз через 3 с…',
  );
  await page.click('#draft-cancel');
  await page.waitForSelector('.panel-failed');
  assert.equal(await page.inputValue('#description'), LIGHT_OUT);
  await closePage(page);
});

test('a result says so when the form changed after sending', async () => {
  const page = await openPage(harness);
  await page.fill('#description', LIGHT_OUT);
  await page.click('#draft-submit');
  await page.waitForSelector('.document');
  assert.equal(await page.isHidden('.stale-note'), true);
  await page.fill('#description', `${LIGHT_OUT} И на пятом тоже.`);
  await page.waitForSelector('.stale-note:not([hidden])');
  assert.match(await page.textContent('.stale-note'), /составлен по прежнему тексту/);
  // Back to the sent text: the note goes away again.
  await page.fill('#description', LIGHT_OUT);
  await page.waitForSelector('.stale-note[hidden]', { state: 'attached' });
  await closePage(page);
});

test('an edit is saved through draft_edit and marked as the resident\'s', async () => {
  const page = await openPage(harness);
  await page.fill('#description', LIGHT_OUT);
  await page.check('input[name="confirmed_subject"][value="common_area_premises_lighting"]');
  await page.click('#draft-submit');
  await page.click('button:text("Редактировать")');
  await page.waitForSelector('.edit-form');
  assert.equal(await page.evaluate(() => document.activeElement.id.startsWith('edit-title')), true);
  await page.fill('.edit-form input', 'Темно на лестнице в подъезде 2');
  await page.click('button:text("Сохранить изменения")');
  await page.waitForSelector('.source-edited');
  assert.match(await page.textContent('.document .marker'), /изменено вами/);
  const [edit] = await callsOf(page, 'draft_edit');
  assert.equal(edit.args.title, 'Темно на лестнице в подъезде 2');
  await page.click('button:text("Скопировать")');
  await page.waitForFunction(() => window.__fake.callsOf('clipboard_write').length === 1);
  const [copy] = await callsOf(page, 'clipboard_write');
  assert.equal(copy.args.text, `Темно на лестнице в подъезде 2\n\n${edit.args.body}`);
  await closePage(page);
});

test('«Как получен результат» opens the context record and «Сохранить как…» asks for a format', async () => {
  const page = await openPage(harness);
  await page.fill('#description', LIGHT_OUT);
  await page.click('#draft-submit');
  await page.click('.explain summary');
  await page.waitForSelector('.explain table');
  const text = await page.textContent('.explain');
  assert.match(text, /gpt-4o-mini/);
  assert.match(text, /api\.openai\.com/);
  assert.match(text, /HTTP 503/);
  assert.match(text, /Что было отправлено модели/);
  assert.equal((await callsOf(page, 'draft_open')).length, 1);

  await page.click('button:text("Сохранить как…")');
  await page.waitForSelector('#save-dialog[open]');
  await page.check('#save-dialog input[value="docx"]');
  await page.click('#save-dialog button[value="save"]');
  await page.waitForFunction(() => window.__fake.callsOf('draft_save_as').length === 1);
  const [save] = await callsOf(page, 'draft_save_as');
  assert.equal(save.args.format, 'docx');
  await page.waitForFunction(() => document.querySelector('.result [role="status"]').textContent.includes('заявка.docx'));
  await closePage(page);
});

test('«Печать» lays out the filed document for paper only and opens the print dialog', async () => {
  const page = await openPage(harness);
  await page.fill('#description', LIGHT_OUT);
  await page.click('#draft-submit');
  await page.click('button:text("Печать")');
  await page.waitForFunction(() => window.__fake.callsOf('print_page').length === 1);
  const [asked] = await callsOf(page, 'draft_document');
  assert.equal(typeof asked.args.id, 'number');
  assert.equal(asked.args.collective, false);
  const printed = await page.textContent('#print-document');
  assert.match(printed, /Кому: ________________ \(название управляющей организации\)/);
  assert.match(printed, /От: Иванова Мария Петровна/);
  assert.match(printed, /1 декабря 2026 г\./);
  assert.match(printed, /Подпись: ________________ \/ Иванова Мария Петровна/);
  const title = await page.textContent('.result .doc-title');
  assert.ok(printed.includes(title.trim()), `the printed title is the request's: ${title}`);
  // On screen the block is never shown; on paper it is the only thing shown.
  assert.equal(await page.isVisible('#print-document'), false);
  await page.emulateMedia({ media: 'print' });
  assert.equal(await page.isVisible('#print-document'), true);
  assert.equal(await page.isVisible('.app'), false);
  await page.emulateMedia({ media: 'screen' });

  // «Коллективная заявка» adds the signatures table to the printed and the saved document.
  await page.check('.result .collective input[type="checkbox"]');
  await page.click('button:text("Печать")');
  await page.waitForFunction(() => window.__fake.callsOf('print_page').length === 2);
  assert.equal((await callsOf(page, 'draft_document'))[1].args.collective, true);
  assert.equal(await page.$$eval('#print-document tbody tr', (rows) => rows.length), 20);
  assert.match(await page.textContent('#print-document thead'), /№ФИОКвартираПодпись/);
  // What paper gets, printed by Chromium and read back with poppler: the document alone, with
  // the signatures table on a page of its own after the request.
  const printedFile = path.join(mkdtempSync(path.join(tmpdir(), 'zayavka-print-')), 'printed.pdf');
  await page.emulateMedia({ media: 'print' });
  writeFileSync(printedFile, await page.pdf({ format: 'A4', preferCSSPageSize: true }));
  await page.emulateMedia({ media: 'screen' });
  const text = execFileSync('pdftotext', ['-layout', printedFile, '-'], { encoding: 'utf8' });
  const words = text.replace(/\s+/g, ' ');
  assert.match(words, /Кому: ________________ \(название управляющей организации\)/);
  assert.match(words, /Подписи жителей/);
  assert.doesNotMatch(words, /Черновики|Скопировать|Коллективная заявка/, 'no part of the app is printed');
  const pages = text.split('\f').filter((page) => page.trim() !== '');
  assert.ok(pages.length >= 2, `the table starts a new page: ${pages.length} pages`);
  assert.doesNotMatch(pages[0], /Подписи жителей/);
  await page.click('button:text("Сохранить как…")');
  await page.click('#save-dialog button[value="save"]');
  await page.waitForFunction(() => window.__fake.callsOf('draft_save_as').length === 1);
  assert.equal((await callsOf(page, 'draft_save_as'))[0].args.collective, true);
  await closePage(page);
});

test('photos are attached from the dialog or by dropping files, listed and removed', async () => {
  const page = await openPage(harness);
  // A drop with no draft on screen says what to do.
  await page.waitForFunction(() => window.__fake.dropChannel !== null);
  await page.evaluate(() => window.__fake.drop(1));
  await page.waitForSelector('#app-alert:not([hidden])');
  assert.match(await page.textContent('#app-alert'), /сначала составьте заявку или откройте черновик/);

  await page.fill('#description', LIGHT_OUT);
  await page.click('#draft-submit');
  await page.waitForSelector('.result .photos');
  assert.match(await page.textContent('.photo-list'), /Фотографий пока нет/);
  await page.click('button:text("Приложить фотографии…")');
  await page.waitForSelector('.photo-list li button');
  assert.match(await page.textContent('.photo-list'), /Фото 1 \(JPEG, 1,2 МБ\), 4000 × 3000/);

  // Dragging over the window marks where the files go; dropping attaches them.
  await page.evaluate(() => window.__fake.dragOver());
  await page.waitForSelector('body.files-over .photos');
  await page.evaluate(() => window.__fake.drop(2));
  await page.waitForFunction(() => document.querySelectorAll('.photo-list li button').length === 3);
  assert.equal(await page.evaluate(() => document.body.classList.contains('files-over')), false);
  assert.equal((await callsOf(page, 'draft_attach_dropped')).length, 1);
  assert.match(await page.textContent('.photo-status'), /Всего: 3/);

  // A refused photo: the message is shown, the list is unchanged.
  await page.evaluate(() => {
    window.__fake.nextPhotoRefusal = 'Файл «заметки.txt» — не фотография: приложить можно JPEG или PNG. Ничего не изменилось.';
  });
  await page.click('button:text("Приложить фотографии…")');
  await page.waitForFunction(() => document.querySelector('.photo-status').textContent.includes('не фотография'));
  assert.equal(await page.$$eval('.photo-list li button', (buttons) => buttons.length), 3);

  await page.click('.photo-list li:first-child button');
  await page.waitForFunction(() => document.querySelectorAll('.photo-list li button').length === 2);
  assert.match(await page.textContent('.photo-status'), /Фото 1 убрано/);
  const [detach] = await callsOf(page, 'draft_detach');
  assert.equal(detach.args.number, 1);
  await closePage(page);
});

test('issue 17: words the resident never wrote are marked at their sentence, explained under it, and never copied', async () => {
  for (const [label, options] of [
    ['800', {}],
    ['200pct', { viewport: { width: 400, height: 300 }, deviceScaleFactor: 2 }],
  ]) {
    const page = await openPage(harness, { ...options, fake: { scenario: 'unfaithful' } });
    await page.fill('#description', LIGHT_OUT);
    await page.click('#draft-submit');
    await page.waitForSelector('.document');
    // The request is ready: the resident decides.
    assert.match(await page.textContent('.result'), /Заявка готова/);
    assert.match(await page.textContent('.faithfulness-summary'), /Модель могла добавить то, чего вы не писали/);
    const impact = page.locator('.doc-section.source-model').nth(2);
    assert.equal(await impact.locator('p').first().textContent(), 'Соседка упала на лестнице.');
    assert.deepEqual(await impact.locator('mark.unfaithful').allTextContents(), ['Соседка', 'упала']);
    assert.deepEqual(await impact.locator('.faithfulness-notes li').allTextContents(), [
      'В описании есть «Соседка», а в вашем тексте этого нет — проверьте.',
      'В описании есть «упала», а в вашем тексте этого нет — проверьте.',
    ]);
    // Only that paragraph carries marks and notes.
    assert.equal(await page.locator('mark.unfaithful').count(), 2);
    assert.equal(await page.locator('.faithfulness-notes').count(), 1);
    assert.equal(await page.$eval('.faithfulness-notes', (node) => getComputedStyle(node).userSelect), 'none');
    // Nothing sticks out sideways at either size.
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true);
    await impact.scrollIntoViewIfNeeded();
    await screenshot(page, `faithfulness-${label}`);
    if (label === '800') {
      await assertAccessible(page, 'faithfulness warnings');
      await page.click('button:text("Скопировать")');
      await page.waitForFunction(() => window.__fake.callsOf('clipboard_write').length === 1);
      const [copy] = await callsOf(page, 'clipboard_write');
      assert.match(copy.args.text, /Соседка упала на лестнице\./);
      assert.doesNotMatch(copy.args.text, /проверьте|Модель могла/);
    }
    await closePage(page);
  }
});

// Issue 36: what the program sees itself — a relative date, no place at all — is said as its
// own notes, apart from the model's warnings, never blocking; at 800×600 and at 200 % zoom.
for (const window of [
  { name: '800x600', viewport: { width: 800, height: 600 }, deviceScaleFactor: 1 },
  { name: '200pct', viewport: { width: 400, height: 300 }, deviceScaleFactor: 2 },
]) {
  test(`issue 36: the program's notes on a relative date and a missing place, at ${window.name}`, async () => {
    const page = await openPage(harness, window);
    await page.fill('#description', 'Опять застревает лифт, вчера полчаса ждали диспетчера.');
    await page.click('#draft-submit');
    await page.waitForSelector('.document');
    const notes = await page.$$eval('.program-notes li', (items) => items.map((item) => [item.dataset.note, item.textContent]));
    assert.deepEqual(notes.map(([kind]) => kind), ['relative_date', 'no_place']);
    assert.match(notes[0][1], /^В тексте есть «вчера»: в день подачи это будет означать другое время\. Черновик составлен 7 декабря 2026 г\.; если это было вчера, напишите «6 декабря 2026 г\.»\.$/);
    assert.match(notes[1][1], /^Не указано, где проблема\. Добавьте место/);
    // Apart from the model's warnings, and the request is ready all the same.
    assert.equal(await page.$$eval('.warnings .program-notes, .program-notes .warnings', (nodes) => nodes.length), 0);
    assert.equal(await page.getAttribute('.program-notes', 'role'), 'note');
    assert.match(await page.textContent('.result'), /Заявка готова/);
    await page.$eval('.program-notes', (box) => box.scrollIntoView({ block: 'start' }));
    await screenshot(page, `notes-${window.name}`);
    await assertNothingSticksOut(page, '.result');
    await assertAccessible(page, `notes ${window.name}`);
    await closePage(page);

    // With a place and no relative word, no notes at all.
    const quiet = await openPage(harness, window);
    await quiet.fill('#description', LIGHT_OUT);
    await quiet.click('#draft-submit');
    await quiet.waitForSelector('.document');
    assert.equal(await quiet.$$eval('.program-notes', (nodes) => nodes.length), 0);
    await closePage(quiet);
  });
}
