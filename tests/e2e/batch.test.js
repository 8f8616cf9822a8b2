// «Пакет» in the real app: a file chosen in the native GTK open dialog (driven with xdotool), the
// plan with one invalid row before anything is sent, sending the valid rows after the resident
// confirms, the rows table; then the row fixed in the file, the app killed and started again, and the batch
// continued from the earlier-batches list without choosing the file again: one row sent.

import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  chooseInFileDialog,
  cleanUp,
  click,
  installation,
  kill,
  launch,
  openScreen,
  scratchDir,
  screenshot,
  screenshotScreen,
  startStandIn,
  textOf,
  visibleWindows,
} from './harness.js';

afterEach(cleanUp);

const rowTexts = (app) =>
  app.session.execute('return [...document.querySelectorAll("#batch-review .rows-table tbody tr")].map((row) => [...row.children].map((cell) => cell.textContent.trim()));');

test('a batch: planned, confirmed, sent, reviewed; a fixed row continued after a crash', { timeout: 240_000 }, async () => {
  const { baseUrl } = await startStandIn();
  const inst = installation({ baseUrl });
  let app = await launch(inst);
  // An ASCII name: xdotool types non-ASCII characters by remapping keys, which is less reliable.
  const file = path.join(scratchDir('zayavka-e2e-batch-'), 'podezd-2.csv');
  const first = 'Иванова Анна;12;В подъезде неделю не горит свет на лестнице между третьим и четвёртым этажами.;подъезд 2';
  const third = 'Петров Иван;14;В подъезде неделю не горит свет на лестнице у почтовых ящиков.;подъезд 4';
  // Row 3 (the second data row) has no words, so the check refuses it before anything is sent.
  const write = (second) => writeFileSync(file, ['ФИО;Квартира;Описание;Место', first, second, third, ''].join('\r\n'));
  write('Сидоров Олег;15;!!!;подъезд 3');

  await openScreen(app, 'batch');
  await screenshot(app, 'batch-empty');
  const before = await visibleWindows();
  await click(app, '#batch-choose');
  await chooseInFileDialog(before, file, () => screenshotScreen('batch-file-dialog-screen'));

  await app.session.waitFor('#batch-check h2', { timeoutMs: 30_000 });
  assert.equal(await textOf(app, '#batch-status'), 'Файл «podezd-2.csv» проверен: это новый пакет.');
  const plan = await textOf(app, '#batch-check .batch-plan');
  assert.match(plan, /Строк с данными в файле: 3\./);
  assert.match(plan, /Новые — будут отправлены: 2 \(строки 2, 4\)\./);
  assert.match(plan, /С ошибками — не будут отправлены: 1 \(строка 3\)/);
  assert.match(await textOf(app, '#batch-check .batch-cost'), /^Стоимость оценить нельзя/);
  const invalidRows = await app.session.execute('return [...document.querySelectorAll("#batch-check tr.invalid-row")].map((row) => row.textContent);');
  assert.equal(invalidRows.length, 1, `invalid rows: ${invalidRows}`);
  // The row is numbered as a spreadsheet shows it: the header is row 1.
  assert.match(invalidRows[0], /^3Описание проблемы/, `the invalid row: ${invalidRows[0]}`);
  await screenshot(app, 'batch-check');

  await click(app, '#batch-check .actions button.primary');
  await app.session.waitUntil('const h = document.querySelector("#batch-review h2"); return !!h && !document.getElementById("batch-review").hidden;', {
    timeoutMs: 60_000,
    description: 'the batch review',
  });
  assert.equal(await textOf(app, '#batch-review h2'), 'Пакет 1 обработан');
  assert.match(await textOf(app, '#batch-progress-text'), /Строк к отправке: 2, отправлено: 2\. Готовы 2,/);
  const rows = await rowTexts(app);
  assert.equal(rows.length, 3);
  assert.deepEqual(rows.map((row) => row.slice(0, 3)), [['2', 'Иванова Анна', '12'], ['3', 'Сидоров Олег', '15'], ['4', 'Петров Иван', '14']]);
  assert.match(rows[1][3], /^Ошибка в строке/);
  await screenshot(app, 'batch-review');

  await click(app, '#batch-review tbody tr button');
  await app.session.waitFor('#batch-detail-body article.result');
  await screenshot(app, 'batch-row-opened');

  // The resident fixes row 3 in the file; the app ends as a crash or a power cut would end it.
  write('Сидоров Олег;15;В подъезде на третьем этаже разбито окно, дует.;подъезд 3');
  await kill(app);
  app = await launch(inst);
  await openScreen(app, 'batch');
  await app.session.waitFor('#batch-earlier .batch-item', { timeoutMs: 30_000 });
  assert.match(await textOf(app, '#batch-earlier .batch-title'), /^Пакет 1/);
  await screenshot(app, 'batch-earlier');
  await click(app, '#batch-earlier .batch-actions button');
  await app.session.waitUntil('const h = document.querySelector("#batch-check h2"); return !!h && !document.getElementById("batch-check").hidden;', {
    timeoutMs: 30_000,
    description: 'the plan of the continued batch',
  });
  assert.equal(await textOf(app, '#batch-check h2'), 'Пакет 1: что будет сделано');
  const again = await textOf(app, '#batch-check .batch-plan');
  assert.match(again, /будут отправлены( заново)?: 1 \(строка 3\)/);
  assert.match(again, /Составлены раньше — повторно не отправляются: 2\./);
  assert.equal(await textOf(app, '#batch-check .actions button.primary'), 'Отправить 1 строку');
  await screenshot(app, 'batch-continue-plan');
  await click(app, '#batch-check .actions button.primary');
  await app.session.waitUntil('const h = document.querySelector("#batch-review h2"); return !!h && h.textContent === "Пакет 1 обработан";', {
    timeoutMs: 60_000,
    description: 'the continued batch reviewed',
  });
  assert.match(await textOf(app, '#batch-progress-text'), /Строк к отправке: 1, отправлено: 1\. Готовы 1,/);
  const after = await rowTexts(app);
  assert.ok(after.every((row) => row[3].includes('Готова')), `rows: ${JSON.stringify(after)}`);
  await screenshot(app, 'batch-continued');
});
