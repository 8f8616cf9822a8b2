// «Пакет» in the real app: a file chosen in the native GTK open dialog (driven with xdotool), the
// row-by-row check with one invalid row, sending the valid rows and reviewing them.

import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  chooseInFileDialog,
  cleanUp,
  click,
  installation,
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

test('a small batch with one invalid row: checked, sent, reviewed', { timeout: 180_000 }, async () => {
  const { baseUrl } = await startStandIn();
  const app = await launch(installation({ baseUrl }));
  // An ASCII name: xdotool types non-ASCII characters by remapping keys, which is less reliable.
  const file = path.join(scratchDir('zayavka-e2e-batch-'), 'podezd-2.csv');
  // Row 3 (the second data row) has no words, so the check refuses it before anything is sent.
  writeFileSync(
    file,
    [
      'Описание;Место',
      'В подъезде неделю не горит свет на лестнице между третьим и четвёртым этажами.;подъезд 2',
      '!!!;подъезд 3',
      'В подъезде неделю не горит свет на лестнице у почтовых ящиков.;подъезд 4',
      '',
    ].join('\r\n'),
  );

  await openScreen(app, 'batch');
  await screenshot(app, 'batch-empty');
  const before = await visibleWindows();
  await click(app, '#batch-choose');
  await chooseInFileDialog(before, file, () => screenshotScreen('batch-file-dialog-screen'));

  await app.session.waitFor('#batch-check h2', { timeoutMs: 30_000 });
  assert.match(await textOf(app, '#batch-status'), /Файл «podezd-2\.csv» проверен\./);
  const summary = await textOf(app, '#batch-check .plain-list');
  assert.match(summary, /Строк в файле: 3\./);
  assert.match(summary, /Можно отправить: 2\./);
  assert.match(summary, /С ошибками: 1/);
  const invalidRows = await app.session.execute(
    'return [...document.querySelectorAll("#batch-check tr.invalid-row")].map((row) => row.textContent);',
  );
  assert.equal(invalidRows.length, 1, `invalid rows: ${invalidRows}`);
  // The row is numbered as a spreadsheet shows it: the header is row 1.
  assert.match(invalidRows[0], /^3Описание проблемы/, `the invalid row: ${invalidRows[0]}`);
  await screenshot(app, 'batch-check');

  await click(app, '#batch-check .actions button.primary');
  await app.session.waitUntil('const h = document.querySelector("#batch-review h2"); return !!h && !document.getElementById("batch-review").hidden;', {
    timeoutMs: 60_000,
    description: 'the batch review',
  });
  assert.equal(await textOf(app, '#batch-review h2'), 'Пакет обработан');
  assert.match(await textOf(app, '#batch-progress-text'), /Обработано 2 из 2: готовы 2/);
  const rows = await app.session.execute('return document.querySelectorAll("#batch-review tbody tr").length;');
  assert.equal(rows, 2);
  await screenshot(app, 'batch-review');

  await click(app, '#batch-review tbody tr button');
  await app.session.waitFor('#batch-detail-body article.result');
  await screenshot(app, 'batch-row-opened');
});
