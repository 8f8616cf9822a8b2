// «Черновики», «Пакет» and «Настройки» against the fake IPC.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { callsOf, closePage, openPage, startHarness } from './harness.js';

let harness;
before(async () => {
  harness = await startHarness();
});
after(async () => {
  await harness.stop();
});

const titles = (page) => page.$$eval('#drafts-list .draft-title', (nodes) => nodes.map((node) => node.textContent));

test('drafts are listed newest first with status chips', async () => {
  const page = await openPage(harness, { hash: 'drafts' });
  await page.waitForSelector('#drafts-list li');
  assert.deepEqual(await titles(page), [
    'Не работает освещение на лестнице в подъезде 2',
    'Во дворе сломаны качели, а у мусорных баков кто-то оставил старый диван.',
    'Не работает лифт в подъезде 1',
    'Входная дверь подъезда не закрывается, доводчик сломан, зимой дует.',
  ]);
  const chips = await page.$$eval('#drafts-list .chip', (nodes) => nodes.map((node) => node.textContent));
  assert.deepEqual(chips, ['Готова', 'Нужно уточнить', 'Готова', 'Техническая неудача']);
  assert.match(await page.textContent('#drafts-status'), /Всего 4 черновика/);
  await closePage(page);
});

test('issue 14: the first words of the description are shown under every title', async () => {
  const page = await openPage(harness, { hash: 'drafts', fake: { offlineDrafts: true } });
  await page.waitForSelector('#drafts-list li');
  const items = await page.$$eval('#drafts-list li', (nodes) =>
    nodes.map((node) => ({
      title: node.querySelector('.draft-title').textContent,
      preview: node.querySelector('.draft-preview')?.textContent ?? null,
      // The preview follows its title directly.
      under: node.querySelector('.draft-title').nextElementSibling?.classList.contains('draft-preview') ?? false,
    })),
  );
  assert.equal(items.length, 14);
  // Every draft with a title shows a preview right under it; the two without a title show the
  // first words in its place, once.
  for (const item of items) {
    if (item.preview === null) {
      assert.ok(['Во дворе сломаны качели, а у мусорных баков кто-то оставил старый диван.', 'Входная дверь подъезда не закрывается, доводчик сломан, зимой дует.'].includes(item.title), item.title);
    } else {
      assert.ok(item.under, `the preview of «${item.title}» is under it`);
      assert.ok([...item.preview].length <= 80, item.preview);
    }
  }
  assert.equal(items.filter((item) => item.preview !== null).length, 12);
  // The ten drafts made without a model: ten different titles (their own first words) and ten
  // different previews, cut at a word boundary.
  const offline = items.slice(0, 10);
  assert.equal(new Set(offline.map((item) => item.title)).size, 10);
  assert.equal(new Set(offline.map((item) => item.preview)).size, 10);
  assert.equal(offline[0].title, 'В подъезде 2 на первом этаже не горит лампа у входа, жильцы…');
  assert.equal(offline[0].preview, 'В подъезде 2 на первом этаже не горит лампа у входа, жильцы спотыкаются на…');
  assert.ok(offline.every((item) => !item.title.includes('Заявка о проблеме')));
  // The model's draft shows the resident's words under the model's title, never the model's text.
  const model = items.find((item) => item.title === 'Не работает освещение на лестнице в подъезде 2');
  assert.equal(model.preview, 'В подъезде неделю не горит свет на лестнице между третьим и четвёртым этажами.');
  await closePage(page);
});

test('issue 14: an offline request marks its title as the resident\'s words', async () => {
  const page = await openPage(harness, { hash: 'drafts', fake: { offlineDrafts: true } });
  await page.waitForSelector('#drafts-list li');
  await page.click('#drafts-list li:first-child button:text("Открыть")');
  await page.waitForSelector('#draft-detail .document');
  const title = await page.$eval('#draft-detail .doc-title', (node) => ({ text: node.textContent, marker: node.previousElementSibling?.textContent }));
  assert.equal(title.text, 'В подъезде 2 на первом этаже не горит лампа у входа, жильцы…');
  assert.equal(title.marker, 'Источник: заголовок — ваши слова');
  await page.click('#draft-detail-back');
  await page.waitForSelector('#drafts-browser:not([hidden])');
  await closePage(page);
});

test('drafts search as you type, and filters narrow the list', async () => {
  const page = await openPage(harness, { hash: 'drafts' });
  await page.waitForSelector('#drafts-list li');
  // Typed key by key, as a resident types: only the pause after the last key searches.
  await page.locator('#drafts-search').pressSequentially('лифт');
  await page.waitForFunction(() => document.querySelectorAll('#drafts-list li').length === 1);
  assert.deepEqual(await titles(page), ['Не работает лифт в подъезде 1']);
  assert.match(await page.textContent('#drafts-status'), /Найдено 1 черновик\./);
  const searches = await callsOf(page, 'drafts_search');
  assert.ok(searches.length >= 1 && searches.length < 4, `debounced search, got ${searches.length} calls`);
  assert.equal(searches.at(-1).args.text, 'лифт');

  await page.fill('#drafts-search', 'качели');
  await page.waitForFunction(() => document.querySelector('#drafts-list .draft-title')?.textContent.startsWith('Во дворе'));
  await page.fill('#drafts-search', 'нет такого');
  await page.waitForFunction(() => document.querySelectorAll('#drafts-list li').length === 0);
  assert.match(await page.textContent('#drafts-status'), /Ничего не нашлось/);

  await page.fill('#drafts-search', '');
  await page.selectOption('#drafts-outcome', 'ready');
  await page.waitForFunction(() => document.querySelectorAll('#drafts-list li').length === 2);
  await page.selectOption('#drafts-subject', 'common_area_elevator');
  await page.waitForFunction(() => document.querySelectorAll('#drafts-list li').length === 1);
  const lists = await callsOf(page, 'drafts_list');
  assert.deepEqual(lists.at(-1).args.filter, { outcome: 'ready', subject: 'common_area_elevator', batch_id: null, limit: 200 });
  await closePage(page);
});

test('a draft opens in the result card, and going back returns focus to its button', async () => {
  const page = await openPage(harness, { hash: 'drafts' });
  await page.waitForSelector('#drafts-list li');
  await page.click('#drafts-list li:first-child button:text("Открыть")');
  await page.waitForSelector('#draft-detail .document');
  assert.equal(await page.isHidden('#drafts-browser'), true);
  assert.match(await page.textContent('#draft-detail .doc-title'), /Не работает освещение/);
  // The opened draft already carries its context record: no second draft_open.
  await page.click('#draft-detail .explain summary');
  await page.waitForSelector('#draft-detail .explain table');
  assert.equal((await callsOf(page, 'draft_open')).length, 1);
  await page.click('#draft-detail-back');
  await page.waitForSelector('#drafts-browser:not([hidden])');
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Открыть');
  await closePage(page);
});

test('a draft that did not end ready goes back to the form from its panel', async () => {
  const page = await openPage(harness, { hash: 'drafts' });
  await page.waitForSelector('#drafts-list li');
  await page.click('#drafts-list li:nth-child(4) button:text("Открыть")');
  await page.waitForSelector('#draft-detail .panel-failed');
  await page.click('#draft-detail .panel-failed button:text("Попробовать ещё раз")');
  await page.waitForSelector('#screen-new:not([hidden])');
  assert.equal(await page.inputValue('#description'), 'Входная дверь подъезда не закрывается, доводчик сломан, зимой дует.');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'description');
  await closePage(page);
});

test('deleting a draft asks in a dialog; cancel keeps it, confirm deletes it', async () => {
  const page = await openPage(harness, { hash: 'drafts' });
  await page.waitForSelector('#drafts-list li');
  await page.click('#drafts-list li:nth-child(3) button:text("Удалить")');
  await page.waitForSelector('#delete-dialog[open]');
  assert.match(await page.textContent('#delete-dialog-text'), /«Не работает лифт в подъезде 1» будет удалён/);
  // The safe choice has focus, and Escape closes the dialog like «Отмена».
  assert.equal(await page.evaluate(() => document.activeElement.value), 'cancel');
  await page.keyboard.press('Escape');
  await page.waitForSelector('#delete-dialog:not([open])', { state: 'attached' });
  assert.equal((await callsOf(page, 'draft_delete')).length, 0);
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Удалить');

  // Keyboard only: Tab to «Удалить» in the dialog and press Enter.
  await page.keyboard.press('Enter');
  await page.waitForSelector('#delete-dialog[open]');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelectorAll('#drafts-list li').length === 3);
  const [deletion] = await callsOf(page, 'draft_delete');
  assert.equal(typeof deletion.args.id, 'number');
  assert.ok(!(await titles(page)).includes('Не работает лифт в подъезде 1'));
  assert.match(await page.textContent('#drafts-status'), /удалён/);
  await closePage(page);
});

const planLines = (page) => page.$$eval('#batch-check .batch-plan li', (nodes) => nodes.map((node) => node.textContent));
const tableRows = (page) =>
  page.$$eval('#batch-review .rows-table tbody tr', (nodes) => nodes.map((node) => [...node.children].map((cell) => cell.textContent.trim())));

test('issue_14: a batch shows its plan, row by row, and sends nothing until the resident confirms', async () => {
  const page = await openPage(harness, { hash: 'batch' });
  await page.click('#batch-choose');
  await page.waitForSelector('#batch-check table');
  assert.equal(await page.textContent('#batch-status'), 'Файл «подъезд-2.csv» проверен: это новый пакет.');
  assert.equal(await page.textContent('#batch-check h2'), 'Что будет сделано');
  assert.deepEqual(await planLines(page), [
    'Строк с данными в файле: 5.',
    'Новые — будут отправлены: 4 (строки 2, 3, 5, 6).',
    'С ошибками — не будут отправлены: 1 (строка 4). Что не так — в таблице ниже.',
  ]);
  // No prices in the profile: said plainly.
  assert.match(await page.textContent('#batch-check .batch-cost'), /^Стоимость оценить нельзя: в настройках сервиса не указаны цены\./);
  const rows = await page.$$eval('#batch-check tbody tr', (nodes) => nodes.map((node) => [...node.children].map((cell) => cell.textContent)));
  assert.equal(rows.length, 1);
  assert.equal(rows[0][0], '4');
  assert.equal(rows[0][1], 'Описание проблемы');
  assert.match(rows[0][2], /слишком короткое/);
  assert.equal(await page.textContent('#batch-check button.primary'), 'Отправить 4 строки');
  assert.equal((await callsOf(page, 'batch_run')).length, 0, 'nothing is sent before the resident confirms');
  const [check] = await callsOf(page, 'batch_check');
  assert.equal(check.args.path, '/home/resident/Документы/подъезд-2.csv');

  await page.click('#batch-check button.primary');
  await page.waitForSelector('#batch-review:not([hidden]) .rows-table');
  const [run] = await callsOf(page, 'batch_run');
  assert.equal(run.args.checkToken, 'check-1');
  assert.equal(run.args.offline, false);
  assert.equal(run.args.confirmed, true);
  assert.equal(await page.textContent('#batch-review h2'), 'Пакет 1 обработан');
  // Every row of the file is accounted for, the one refused before sending too (issue 31).
  assert.equal(
    await page.textContent('#batch-review .batch-rows'),
    'В файле 5 строк: с ошибками и не отправлены — 1 (строка 4); составлены в этот раз — 4. Итог по пакету: готовы 4, нужно уточнить описание 0, ответ модели не подошёл 0, технический сбой 0.',
  );
  await closePage(page);
});

test('issue_14: with prices in the profile the plan names the worst-case cost', async () => {
  const page = await openPage(harness, { hash: 'batch', fake: { batchPrices: true } });
  await page.click('#batch-choose');
  await page.waitForSelector('#batch-check .batch-cost');
  assert.match(await page.textContent('#batch-check .batch-cost'), /^Стоимость — не больше 0,0492\s\$ по ценам из настроек\./);
  await closePage(page);
});

test('a batch sends with progress, can be cancelled and resumed, then reviewed and exported', async () => {
  const page = await openPage(harness, { hash: 'batch', fake: { gatedBatch: true } });
  await page.click('#batch-choose');
  await page.click('#batch-check button:text("Отправить 4 строки")');
  await page.waitForSelector('#batch-run:not([hidden])');
  await page.waitForFunction(() => window.__fake.batchGate !== null);
  await page.evaluate(() => window.__fake.releaseBatchRow());
  await page.waitForFunction(() => document.querySelector('#batch-progress-text').textContent.startsWith('Строк к отправке: 4, отправлено: 1.'));
  assert.equal(await page.$eval('#batch-progress-bar', (bar) => bar.value), 1);
  await page.waitForFunction(() => window.__fake.batchGate !== null);
  await page.click('#batch-cancel');
  await page.waitForSelector('#batch-review:not([hidden])');
  assert.equal(await page.textContent('#batch-review h2'), 'Пакет 1: отправка остановлена');
  const [run] = await callsOf(page, 'batch_run');
  const [cancel] = await callsOf(page, 'batch_cancel');
  assert.equal(cancel.args.taskId, run.args.taskId);

  // Resume: the rows already done are not sent again.
  await page.click('#batch-review button:text("Продолжить отправку")');
  for (let row = 0; row < 3; row += 1) {
    await page.waitForFunction(() => window.__fake.batchGate !== null);
    await page.evaluate(() => window.__fake.releaseBatchRow());
  }
  await page.waitForFunction(() => document.querySelector('#batch-review h2')?.textContent === 'Пакет 1 обработан');
  const runs = await callsOf(page, 'batch_run');
  assert.equal(runs.length, 2);
  assert.equal(runs[1].args.checkToken, runs[0].args.checkToken);
  assert.equal((await tableRows(page)).length, 5, 'every row of the file, the refused one too');
  assert.deepEqual((await callsOf(page, 'batch_rows')).at(-1).args, { number: 1 });
  // The earlier-batches list now holds it.
  await page.waitForSelector('#batch-earlier .batch-item');

  await page.click('#batch-review tbody tr:first-child button:text("Открыть")');
  await page.waitForSelector('#batch-detail .document');
  await page.click('#batch-detail-back');
  // Documents, one per row, collective on demand; the skipped row is said.
  assert.equal(await page.inputValue('#batch-export-format'), 'pdf');
  await page.check('#batch-export-collective');
  await page.click('button:text("Выгрузить…")');
  await page.waitForFunction(() => document.querySelector('#batch-review .export [role="status"]').textContent.startsWith('Записано 3 файла'));
  assert.match(await page.textContent('#batch-review .export [role="status"]'), /Без документа: строка 4 — в строке есть ошибки/);
  // A combined file has no collective choice.
  await page.selectOption('#batch-export-format', 'csv');
  assert.equal(await page.isVisible('#batch-export-collective'), false);
  await page.click('button:text("Выгрузить…")');
  await page.waitForFunction(() => document.querySelector('#batch-review .export [role="status"]').textContent.startsWith('Записано 1 файл в папку'));
  const [documents, combined] = await callsOf(page, 'batch_export');
  assert.deepEqual(documents.args, { number: 1, format: 'pdf', collective: true });
  assert.deepEqual(combined.args, { number: 1, format: 'csv', collective: false });
  await closePage(page);
});

test('issue_14: the batch table names each row by number, ФИО and Квартира, with the reason where one is needed', async () => {
  const page = await openPage(harness, { hash: 'batch', fake: { earlierBatch: true } });
  await page.click('#batch-earlier button:text("Строки")');
  await page.waitForSelector('#batch-review:not([hidden]) .rows-table');
  assert.equal(await page.textContent('#batch-review h2'), 'Пакет 3');
  const headers = await page.$$eval('#batch-review .rows-table thead th', (nodes) => nodes.map((node) => node.textContent));
  assert.deepEqual(headers, ['Строка', 'ФИО', 'Квартира', 'Заявка и состояние']);
  const rows = await tableRows(page);
  assert.deepEqual(
    rows.map((row) => row.slice(0, 3)),
    [
      ['2', 'Иванова Анна Петровна', '12'],
      ['3', 'Петров Иван Сергеевич', '14'],
      ['4', 'Сидоров Олег Николаевич', '15'],
      ['5', 'Кузнецова Мария Ивановна', '21'],
      ['6', 'Смирнов Павел Андреевич', '23'],
    ],
  );
  assert.equal(rows[0][3], 'В подъезде 2 не горит свет на втором этаже уже три дняГотоваОткрыть');
  assert.match(rows[2][3], /^Ошибка в строкеПоле «Описание проблемы» слишком короткое/);
  assert.match(rows[3][3], /^Нужно уточнить описаниеИз описания не понятно.*допишите, что случилось.*Открыть$/);
  assert.equal(rows[4][3], 'Ещё не составлена');
  // Only rows with a draft can be opened; the button names its row.
  assert.equal(await page.getAttribute('#batch-review tbody tr:nth-child(4) button', 'aria-label'), 'Открыть заявку строки 5');
  assert.equal(await page.$('#batch-review tbody tr:nth-child(3) button'), null);
  await closePage(page);
});

test('issue_14: after a restart earlier batches are listed and one continues without choosing the file', async () => {
  const page = await openPage(harness, { hash: 'batch', fake: { earlierBatch: true } });
  await page.waitForSelector('#batch-earlier .batch-item');
  assert.equal(await page.textContent('#batch-earlier h2'), 'Пакеты, начатые раньше');
  assert.equal(await page.textContent('#batch-earlier .batch-title'), 'Пакет 3 Не закончен');
  assert.equal(await page.textContent('#batch-earlier .batch-file'), 'Файл «подъезд-2.csv»');
  assert.equal(await page.textContent('#batch-earlier .batch-state'), 'Строк: 5, готово: 2, нужно уточнить: 1, ещё не составлены: 1, с ошибками: 1.');
  await page.click('#batch-earlier button:text("Продолжить")');
  await page.waitForSelector('#batch-check:not([hidden]) h2');
  assert.deepEqual((await callsOf(page, 'batch_continue')).map((call) => call.args), [{ number: 3 }]);
  assert.equal((await callsOf(page, 'batch_choose_file')).length, 0, 'the file is not chosen again');
  assert.equal(await page.textContent('#batch-check h2'), 'Пакет 3: что будет сделано');
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Пакет 3: что будет сделано');
  assert.deepEqual(await planLines(page), [
    'Строк с данными в файле: 5.',
    'Не закончены в прошлый раз — будут отправлены: 1 (строка 6).',
    'Составлены раньше — повторно не отправляются: 3.',
    'С ошибками — не будут отправлены: 1 (строка 4). Что не так — в таблице ниже.',
  ]);
  await page.click('#batch-check button:text("Отправить 1 строку")');
  await page.waitForFunction(() => document.querySelector('#batch-review h2')?.textContent === 'Пакет 3 обработан');
  const [run] = await callsOf(page, 'batch_run');
  assert.equal(run.args.confirmed, true);
  await page.waitForFunction(() => document.querySelector('#batch-earlier .batch-title')?.textContent === 'Пакет 3 Готов');
  await closePage(page);
});

test('issue_14: a batch whose file is gone says so calmly and offers to choose it again', async () => {
  const page = await openPage(harness, { hash: 'batch', fake: { earlierBatch: true, batchFileMissing: true } });
  await page.waitForSelector('#batch-earlier .batch-item');
  assert.match(await page.textContent('#batch-earlier .batch-item .note'), /Файла больше нет на прежнем месте\. Чтобы продолжить, выберите его снова кнопкой «Выбрать файл…»/);
  assert.equal(await page.$('#batch-earlier button:text("Продолжить")'), null);
  assert.ok(await page.isVisible('#batch-earlier button:text("Строки")'), 'its rows can still be reviewed');
  await closePage(page);
});

test('issue_14: a batch is drafted without a model, with nothing to confirm and no cost', async () => {
  const page = await openPage(harness, { hash: 'batch', fake: { batchNoModel: true } });
  await page.click('#batch-choose');
  await page.waitForSelector('#batch-check h2');
  assert.match(await page.textContent('#batch-check .batch-model-problem'), /^Провайдер модели не выбран: выберите его в настройках\. Пока заявки можно составить без модели/);
  assert.equal(await page.$('#batch-check .batch-cost'), null, 'no cost line without a model');
  assert.match((await planLines(page))[1], /^Новые — будут составлены без модели: 4/);
  assert.equal(await page.textContent('#batch-check button.primary'), 'Составить 4 заявки без модели');
  assert.equal(await page.$('#batch-check button:text("Отправить")'), null);
  await page.click('#batch-check button.primary');
  await page.waitForSelector('#batch-review:not([hidden]) .rows-table');
  const [run] = await callsOf(page, 'batch_run');
  assert.equal(run.args.offline, true);
  assert.equal(run.args.confirmed, false);
  await closePage(page);

  // With a model set up, «Составить без модели» is the second choice under the plan.
  const withModel = await openPage(harness, { hash: 'batch' });
  await withModel.click('#batch-choose');
  await withModel.click('#batch-check button:text("Составить без модели")');
  await withModel.waitForSelector('#batch-review:not([hidden]) .rows-table');
  assert.equal(await withModel.textContent('#batch-run-heading'), 'Составление без модели');
  const [offline] = await callsOf(withModel, 'batch_run');
  assert.equal(offline.args.offline, true);
  await closePage(withModel);
});

test('the key field never receives a value back; set, replace and delete only change the status', async () => {
  const secret = 'sk-test-not-a-real-key-0123456789';
  const page = await openPage(harness, { hash: 'settings' });
  await page.waitForSelector('#preset-options input');
  assert.equal(await page.getAttribute('#api-key', 'type'), 'password');
  assert.equal(await page.inputValue('#api-key'), '');
  // The service by its name on the screen, never the profile's internal name.
  assert.equal(await page.textContent('#key-status'), 'Ключ не задан. Сервис: OpenAI.');

  await page.fill('#api-key', secret);
  await page.click('#key-save');
  await page.waitForFunction(() => document.querySelector('#key-status').textContent.startsWith('Ключ сохранён'));
  assert.equal(await page.inputValue('#api-key'), '');
  assert.equal(await page.textContent('#key-save'), 'Заменить ключ');
  const [set] = await callsOf(page, 'key_set');
  assert.equal(set.args.secret, secret);

  // Reloading the screen asks for the status again; the field stays empty.
  await page.click('a[data-screen="new"]');
  await page.click('a[data-screen="settings"]');
  // Once at start (is this a first run? issue 15), once for «Новая заявка» (is a model set up?),
  // once more for «Настройки».
  await page.waitForFunction(() => window.__fake.callsOf('settings_get').length === 4);
  assert.equal(await page.inputValue('#api-key'), '');
  const answers = JSON.stringify(await page.evaluate(() => window.__fake.calls));
  assert.equal(answers.split(secret).length - 1, 1, 'the secret appears only in the one key_set call');
  assert.ok(!(await page.content()).includes(secret), 'the secret is nowhere in the page');

  await page.click('#key-delete');
  await page.waitForFunction(() => document.querySelector('#key-status').textContent.startsWith('Ключ не задан'));
  await closePage(page);
});

test('settings: presets explain privacy and cost, a bad address is shown beside its field', async () => {
  const page = await openPage(harness, { hash: 'settings' });
  await page.waitForSelector('#preset-options input');
  const notes = await page.$$eval('#preset-options .hint', (nodes) => nodes.map((node) => node.textContent));
  assert.equal(notes.length, 8);
  // The engine's order (issue 15): GigaChat and Yandex AI Studio first.
  const names = await page.$$eval('#preset-options input', (nodes) => nodes.map((node) => node.value));
  assert.deepEqual(names.slice(0, 2), ['gigachat', 'yandex']);
  assert.match(notes[0], /серверы Сбера.*ключ авторизации/);
  assert.match(notes[names.indexOf('openai')], /серверы OpenAI в США.*в долларах/);
  assert.match(notes[names.indexOf('ollama')], /текст никуда не уходит.*Бесплатно/);
  assert.equal(await page.isChecked('#preset-options input[value="openai"]'), true);

  await page.check('#preset-options input[value="ollama"]');
  await page.waitForFunction(() => document.querySelector('#base-url').value === 'http://127.0.0.1:11434/v1');
  // Not saved yet: the format is left to the chosen service's own setting.
  assert.equal(await page.inputValue('#schema-mode'), '');

  await page.fill('#base-url', 'ftp://example');
  await page.click('#provider-save');
  await page.waitForSelector('#base-url-error:not([hidden])');
  assert.match(await page.textContent('#base-url-error'), /http:\/\/ или https:\/\//);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'base-url');
  await page.fill('#base-url', 'http://127.0.0.1:11500/v1');
  await page.fill('#model-name', 'qwen2.5:14b');
  await page.click('#provider-save');
  await page.waitForFunction(() => document.querySelector('#provider-status').textContent === 'Настройки сохранены.');
  const sets = (await callsOf(page, 'settings_set')).map((call) => call.args);
  assert.deepEqual(sets, [
    { key: 'active_profile', value: 'ollama' },
    { key: 'base_url', value: 'ftp://example' },
    { key: 'base_url', value: 'http://127.0.0.1:11500/v1' },
    { key: 'model', value: 'qwen2.5:14b' },
  ]);
  await closePage(page);
});

// Every command that changes something on disk or in the keyring.
const WRITES = ['settings_set', 'key_set', 'key_delete', 'profile_set', 'profile_clear'];
const writes = (page) => page.evaluate((names) => window.__fake.calls.filter((call) => names.includes(call.cmd)), WRITES);

test('issue 15: choosing GigaChat shows «Тип доступа» and names the key «Ключ авторизации»; the scope is saved with the service', async () => {
  const page = await openPage(harness, { hash: 'settings' });
  await page.waitForSelector('#preset-options input');
  // OpenAI saved: neither service's own field is shown; the key keeps its usual name.
  assert.equal(await page.isHidden('#gigachat-scope-field'), true);
  assert.equal(await page.isHidden('#folder-id-field'), true);
  assert.equal(await page.textContent('label[for="api-key"]'), 'Новый ключ доступа (API-ключ)');

  await page.check('#preset-options input[value="gigachat"]');
  await page.waitForSelector('#gigachat-scope-field:not([hidden])');
  assert.equal(await page.textContent('label[for="gigachat-scope"]'), 'Тип доступа');
  const options = await page.$$eval('#gigachat-scope option', (nodes) => nodes.map((node) => [node.value, node.textContent]));
  assert.deepEqual(options, [
    ['GIGACHAT_API_PERS', 'Физическое лицо (GIGACHAT_API_PERS)'],
    ['GIGACHAT_API_B2B', 'ИП и юрлица — B2B'],
    ['GIGACHAT_API_CORP', 'Корпоративный — CORP'],
  ]);
  assert.equal(await page.inputValue('#gigachat-scope'), 'GIGACHAT_API_PERS', 'individuals by default');
  assert.equal(await page.textContent('label[for="api-key"]'), 'Ключ авторизации');
  assert.equal(await page.isHidden('#folder-id-field'), true);
  assert.equal(await page.isHidden('#protocol-field'), true, 'GigaChat has one protocol');
  assert.equal(await page.inputValue('#base-url'), 'https://gigachat.devices.sberbank.ru/api/v1');

  await page.selectOption('#gigachat-scope', 'GIGACHAT_API_B2B');
  assert.deepEqual(await writes(page), [], 'nothing is written before «Сохранить настройки»');
  await page.waitForFunction(() => window.__fake.unsaved === true);
  await page.click('#provider-save');
  await page.waitForFunction(() => document.querySelector('#provider-status').textContent === 'Настройки сохранены.');
  assert.deepEqual((await writes(page)).map((call) => call.args), [
    { key: 'active_profile', value: 'gigachat' },
    { key: 'scope', value: 'GIGACHAT_API_B2B' },
  ]);
  assert.equal(await page.inputValue('#gigachat-scope'), 'GIGACHAT_API_B2B');
  assert.equal(await page.textContent('label[for="api-key"]'), 'Ключ авторизации');

  // A changed scope alone is an unsaved change: leaving asks.
  await page.selectOption('#gigachat-scope', 'GIGACHAT_API_CORP');
  await page.waitForFunction(() => window.__fake.unsaved === true);
  await page.click('a[data-screen="new"]');
  await page.waitForSelector('#leave-dialog[open]');
  assert.match(await page.textContent('#leave-dialog-text'), /сервис модели/);
  await page.keyboard.press('Enter');
  await page.waitForSelector('#leave-dialog:not([open])', { state: 'attached' });
  assert.equal(await page.inputValue('#gigachat-scope'), 'GIGACHAT_API_CORP');
  await closePage(page);
});

test('issue 15: choosing Yandex AI Studio shows the folder id; a bad one is refused beside the field in the engine\'s words, a good one is saved', async () => {
  const page = await openPage(harness, { hash: 'settings' });
  await page.waitForSelector('#preset-options input');
  await page.check('#preset-options input[value="yandex"]');
  await page.waitForSelector('#folder-id-field:not([hidden])');
  assert.equal(await page.textContent('label[for="folder-id"]'), 'Идентификатор каталога (folder_id)');
  assert.match(await page.textContent('#folder-id-hint'), /консоли Yandex Cloud/);
  assert.equal(await page.isHidden('#gigachat-scope-field'), true);
  assert.equal(await page.textContent('label[for="api-key"]'), 'Новый ключ доступа (API-ключ)');
  // The protocol is there for those who need it, behind «Подробнее».
  assert.equal(await page.isVisible('#protocol'), false);
  await page.click('#schema-mode-details summary');
  assert.equal(await page.isVisible('#protocol'), true);
  assert.equal(await page.inputValue('#protocol'), 'chat_completions');
  assert.deepEqual(await writes(page), []);

  await page.fill('#folder-id', 'B1G-not-a-folder');
  await page.waitForFunction(() => window.__fake.unsaved === true);
  await page.click('#provider-save');
  await page.waitForSelector('#folder-id-error:not([hidden])');
  assert.match(await page.textContent('#folder-id-error'), /^Ожидается идентификатор каталога Yandex Cloud: 20 строчных латинских букв и цифр/);
  assert.equal(await page.getAttribute('#folder-id', 'aria-invalid'), 'true');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'folder-id');
  assert.equal(await page.inputValue('#folder-id'), 'B1G-not-a-folder', 'what was typed is kept to fix');
  // The preset's address and model stay defaults rather than being written.
  assert.deepEqual((await writes(page)).map((call) => call.args), [
    { key: 'active_profile', value: 'yandex' },
    { key: 'folder_id', value: 'B1G-not-a-folder' },
  ]);

  await page.fill('#folder-id', 'b1gexamplefolder0a1b');
  await page.selectOption('#protocol', 'responses');
  await page.click('#provider-save');
  await page.waitForFunction(() => document.querySelector('#provider-status').textContent === 'Настройки сохранены.');
  assert.equal(await page.isHidden('#folder-id-error'), true);
  assert.deepEqual((await writes(page)).slice(2).map((call) => call.args), [
    { key: 'folder_id', value: 'b1gexamplefolder0a1b' },
    { key: 'protocol', value: 'responses' },
  ]);
  assert.equal(await page.inputValue('#folder-id'), 'b1gexamplefolder0a1b');
  assert.equal(await page.inputValue('#model-name'), 'gpt://b1gexamplefolder0a1b/yandexgpt/latest');
  assert.equal(await page.evaluate(() => window.__fake.unsaved), false);
  await closePage(page);
});

test('issue 14: choosing a service only changes what the form shows; «Сохранить настройки» writes it', async () => {
  const page = await openPage(harness, { hash: 'settings' });
  await page.waitForSelector('#preset-options input');
  await page.check('#preset-options input[value="ollama"]');
  await page.waitForFunction(() => document.querySelector('#base-url').value === 'http://127.0.0.1:11434/v1');
  assert.equal(await page.inputValue('#model-name'), 'qwen2.5:7b-instruct');
  assert.match(await page.textContent('#provider-status'), /«Ollama», но он ещё не сохранён/);
  assert.deepEqual(await writes(page), [], 'a radio click writes nothing');
  assert.equal(await page.evaluate(() => window.__fake.settings.active_profile), 'openai');
  // The key still belongs to the saved service, and is not stored for the other one by surprise.
  assert.equal(await page.textContent('#key-status'), 'Ключ не задан. Сервис: OpenAI.');
  await page.fill('#api-key', 'sk-test-not-a-real-key-0123456789');
  await page.click('#key-save');
  await page.waitForSelector('#api-key-error:not([hidden])');
  assert.match(await page.textContent('#api-key-error'), /Сначала сохраните выбор сервиса/);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'provider-save');
  // Going back to the saved service is no change at all.
  await page.check('#preset-options input[value="openai"]');
  assert.equal(await page.inputValue('#base-url'), 'https://api.openai.com/v1');
  assert.equal(await page.inputValue('#schema-mode'), 'json_schema');
  assert.deepEqual(await writes(page), []);

  await page.fill('#api-key', '');
  await page.check('#preset-options input[value="ollama"]');
  await page.click('#provider-save');
  await page.waitForFunction(() => document.querySelector('#provider-status').textContent === 'Настройки сохранены.');
  assert.deepEqual((await writes(page)).map((call) => call.args), [{ key: 'active_profile', value: 'ollama' }]);
  assert.equal(await page.evaluate(() => window.__fake.settings.active_profile), 'ollama');
  assert.equal(await page.inputValue('#schema-mode'), 'json_object');
  assert.equal(await page.textContent('#key-status'), 'Ключ не задан. Сервис: Ollama.');
  // Saved: leaving asks nothing.
  await page.click('a[data-screen="new"]');
  await page.waitForSelector('#screen-new:not([hidden])');
  assert.equal(await page.isVisible('#leave-dialog'), false);
  await closePage(page);
});

test('issue 14: leaving «Настройки» with unsaved changes asks; «Остаться» keeps every edit', async () => {
  const page = await openPage(harness, { hash: 'settings' });
  await page.waitForFunction(() => window.__fake.callsOf('profile_get').length === 1);
  await page.waitForSelector('#preset-options input');
  await page.check('#preset-options input[value="openrouter"]');
  await page.fill('#model-name', 'openai/gpt-4.1-mini');
  await page.fill('#profile-full_name', 'Иванова Анна Петровна');

  await page.click('a[data-screen="new"]');
  await page.waitForSelector('#leave-dialog[open]');
  assert.equal(await page.textContent('#leave-dialog-title'), 'Уйти без сохранения?');
  assert.equal(
    await page.textContent('#leave-dialog-text'),
    'Вы изменили сервис модели и данные для шапки документа, но не сохранили. Если уйти, изменения пропадут.',
  );
  // The safe choice has focus; the screen and the address stay where they were.
  assert.equal(await page.evaluate(() => document.activeElement.value), 'stay');
  assert.equal(await page.isHidden('#screen-new'), true);
  assert.equal(await page.evaluate(() => location.hash), '#settings');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#leave-dialog:not([open])', { state: 'attached' });
  assert.equal(await page.isChecked('#preset-options input[value="openrouter"]'), true);
  assert.equal(await page.inputValue('#model-name'), 'openai/gpt-4.1-mini');
  assert.equal(await page.inputValue('#profile-full_name'), 'Иванова Анна Петровна');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'provider-save');

  // Escape is «Остаться» too.
  await page.click('a[data-screen="drafts"]');
  await page.waitForSelector('#leave-dialog[open]');
  await page.keyboard.press('Escape');
  await page.waitForSelector('#leave-dialog:not([open])', { state: 'attached' });
  assert.equal(await page.isVisible('#screen-settings'), true);
  assert.deepEqual(await writes(page), []);

  // Keyboard only: Tab to «Уйти без сохранения» and Enter; nothing was written.
  await page.click('a[data-screen="batch"]');
  await page.waitForSelector('#leave-dialog[open]');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Уйти без сохранения');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#screen-batch:not([hidden])');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'batch-heading');
  assert.deepEqual(await writes(page), []);
  await page.click('a[data-screen="settings"]');
  // Once at start (is this a first run? issue 15), once on opening «Настройки», once more on
  // coming back to it.
  await page.waitForFunction(() => window.__fake.callsOf('settings_get').length === 3);
  await page.waitForFunction(() => document.querySelector('#preset-options input[value="openai"]')?.checked);
  assert.equal(await page.inputValue('#model-name'), 'gpt-4o-mini');
  assert.equal(await page.inputValue('#profile-full_name'), '');
  await closePage(page);
});

test('issue 14: closing the window with an unsaved settings edit asks; «Остаться» keeps it, «Закрыть без сохранения» closes', async () => {
  const page = await openPage(harness, { hash: 'settings' });
  await page.waitForFunction(() => window.__fake.callsOf('profile_get').length === 1);
  await page.waitForSelector('#preset-options input');
  await page.waitForFunction(() => window.__fake.callsOf('window_close_watch').length === 1);
  const fakeState = () => page.evaluate(() => ({ unsaved: window.__fake.unsaved, closed: window.__fake.windowClosed }));
  // Nothing changed: closing the window closes it at once, with no question.
  assert.deepEqual(await fakeState(), { unsaved: false, closed: null });
  assert.equal(await page.evaluate(() => window.__fake.requestClose()), 'closed');
  await page.evaluate(() => {
    window.__fake.windowClosed = null;
  });

  // An edit: Rust is told at once that closing would lose it.
  await page.fill('#model-name', 'gpt-4.1-mini');
  await page.waitForFunction(() => window.__fake.unsaved === true);
  assert.equal(await page.evaluate(() => window.__fake.requestClose()), 'asked');
  await page.waitForSelector('#leave-dialog[open]');
  assert.equal(await page.textContent('#leave-dialog-title'), 'Закрыть приложение без сохранения?');
  assert.equal(
    await page.textContent('#leave-dialog-text'),
    'Вы изменили сервис модели, но не сохранили. Если закрыть приложение, изменения пропадут.',
  );
  assert.equal(await page.textContent('#leave-dialog button[value="leave"]'), 'Закрыть без сохранения');
  // The safe choice has focus; Enter keeps the window and the edit.
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Остаться');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#leave-dialog:not([open])', { state: 'attached' });
  assert.equal(await page.inputValue('#model-name'), 'gpt-4.1-mini');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'provider-save');
  assert.deepEqual(await callsOf(page, 'window_close'), []);
  assert.deepEqual(await fakeState(), { unsaved: true, closed: null });

  // Asked again: «Закрыть без сохранения» closes the window; nothing was written.
  await page.evaluate(() => window.__fake.requestClose());
  await page.waitForSelector('#leave-dialog[open]');
  await page.click('#leave-dialog button[value="leave"]');
  await page.waitForFunction(() => window.__fake.windowClosed !== null);
  assert.deepEqual(await fakeState(), { unsaved: false, closed: 'by the page' });
  assert.equal((await callsOf(page, 'window_close')).length, 1);
  assert.deepEqual(await writes(page), []);
  await closePage(page);
});

test('issue 14: a close request while leaving «Настройки» is asked about, saved changes close without a question', async () => {
  const page = await openPage(harness, { hash: 'settings' });
  await page.waitForFunction(() => window.__fake.callsOf('profile_get').length === 1);
  await page.waitForSelector('#preset-options input');
  await page.waitForFunction(() => window.__fake.callsOf('window_close_watch').length === 1);
  await page.fill('#profile-full_name', 'Иванова Анна Петровна');
  await page.waitForFunction(() => window.__fake.unsaved === true);
  // The question about leaving the screen is open when the window is asked to close: it becomes
  // the question about closing.
  await page.click('a[data-screen="new"]');
  await page.waitForSelector('#leave-dialog[open]');
  assert.equal(await page.textContent('#leave-dialog-title'), 'Уйти без сохранения?');
  await page.evaluate(() => window.__fake.requestClose());
  await page.waitForFunction(() => document.querySelector('#leave-dialog-title').textContent === 'Закрыть приложение без сохранения?');
  assert.equal(await page.isVisible('#leave-dialog'), true);
  await page.keyboard.press('Escape');
  await page.waitForSelector('#leave-dialog:not([open])', { state: 'attached' });
  assert.equal(await page.inputValue('#profile-full_name'), 'Иванова Анна Петровна');
  assert.equal(await page.evaluate(() => location.hash), '#settings');
  // The navigation's question is worded for leaving again.
  await page.click('a[data-screen="drafts"]');
  await page.waitForSelector('#leave-dialog[open]');
  assert.equal(await page.textContent('#leave-dialog-title'), 'Уйти без сохранения?');
  assert.equal(await page.textContent('#leave-dialog button[value="leave"]'), 'Уйти без сохранения');
  await page.keyboard.press('Escape');
  await page.waitForSelector('#leave-dialog:not([open])', { state: 'attached' });

  // Saved: Rust is told, and closing closes at once.
  await page.click('#profile-save');
  await page.waitForFunction(() => document.querySelector('#profile-status').textContent === 'Данные сохранены.');
  await page.waitForFunction(() => window.__fake.unsaved === false);
  assert.equal(await page.evaluate(() => window.__fake.requestClose()), 'closed');
  // A close request the page hears of while nothing is unsaved (its word on its way) closes
  // the window directly, with no question.
  await page.evaluate(() => {
    window.__fake.windowClosed = null;
  });
  assert.equal(await page.evaluate(() => window.__fake.requestClose({ tell: true })), 'asked');
  await page.waitForFunction(() => window.__fake.windowClosed === 'by the page');
  assert.equal(await page.isVisible('#leave-dialog'), false);
  await closePage(page);
});

test('the document header details are saved field by field, a bad e-mail is shown beside its field', async () => {
  const page = await openPage(harness, { hash: 'settings' });
  await page.waitForFunction(() => window.__fake.callsOf('profile_get').length === 1);
  await page.fill('#profile-full_name', 'Иванова Анна Петровна');
  await page.fill('#profile-email', 'не почта');
  await page.click('#profile-save');
  await page.waitForSelector('#profile-email-error:not([hidden])');
  assert.match(await page.textContent('#profile-email-error'), /знак @/);
  assert.equal(await page.getAttribute('#profile-email', 'aria-invalid'), 'true');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'profile-email');
  assert.match(await page.textContent('#profile-status'), /Не все данные сохранены/);
  const sets = (await callsOf(page, 'profile_set')).map((call) => call.args);
  assert.deepEqual(sets, [
    { field: 'full_name', value: 'Иванова Анна Петровна' },
    { field: 'email', value: 'не почта' },
  ]);

  await page.fill('#profile-email', 'anna@example.ru');
  await page.click('#profile-save');
  await page.waitForFunction(() => document.getElementById('profile-status').textContent === 'Данные сохранены.');
  assert.equal(await page.getAttribute('#profile-email', 'aria-invalid'), null);
  // Only the changed field is sent again.
  assert.equal((await callsOf(page, 'profile_set')).length, 3);

  await page.click('#profile-clear');
  await page.waitForFunction(() => document.getElementById('profile-status').textContent === 'Данные очищены.');
  assert.equal(await page.inputValue('#profile-full_name'), '');
  await closePage(page);
});

test('«Проверить подключение» lists each check in plain words with a way to fix it', async () => {
  const page = await openPage(harness, { hash: 'settings' });
  await page.click('#connection-check');
  await page.waitForSelector('#doctor-checks li');
  const items = await page.$$eval('#doctor-checks li', (nodes) => nodes.map((node) => node.textContent));
  assert.equal(items.length, 5);
  assert.match(items[2], /Нужно исправить Ключ доступа/);
  // Issue 14: the legal texts' review is one plain line, with no internal module ids.
  assert.equal(
    items[4],
    'Обратите внимание Сверка нормативных абзацевНе все нормативные абзацы приложения пока сверены с официальным текстом законов: перед отправкой перечитайте абзац с пометкой «нормативный текст».',
  );
  assert.match(await page.textContent('#doctor-status'), /есть что исправить/);
  await page.click('#doctor-checks li:nth-child(3) button:text("Задать ключ")');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'api-key');
  await closePage(page);
});

test('the page is usable with the keyboard alone: skip link, navigation, drafting', async () => {
  const page = await openPage(harness);
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Перейти к содержимому');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Новая заявка');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#screen-drafts:not([hidden])');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'drafts-heading');
  assert.equal(await page.getAttribute('a[data-screen="drafts"]', 'aria-current'), 'page');
  assert.equal(await page.title(), 'Черновики — Заявка');

  await page.click('a[data-screen="new"]');
  await page.focus('#description');
  await page.keyboard.type('В подъезде неделю не горит свет на лестнице.');
  await page.keyboard.press('Tab');
  // The disclosure «Дополнительно» comes next; then the subject radios, then the buttons.
  assert.equal(await page.evaluate(() => document.activeElement.tagName), 'SUMMARY');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.value), '');
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.evaluate(() => document.activeElement.value), 'common_area_entrance_door');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'draft-submit');
  await page.keyboard.press('Enter');
  await page.waitForSelector('.document');
  assert.equal(await page.evaluate(() => document.activeElement.classList.contains('result-heading')), true);
  await closePage(page);
});
