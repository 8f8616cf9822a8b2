// «Пакет» beyond the plan (issue 31, item 5) against the fake IPC: a file run before can be
// started as a new batch, as the CLI's `--new` does, and a file over the usual 5000 rows is
// checked whole when the resident says it is the right one, as `--max-rows` does.

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

test('a file run before is started again as a new batch only when asked', async () => {
  const page = await openPage(harness, { hash: 'batch' });
  await page.click('#batch-choose');
  await page.click('#batch-check button:text("Отправить 4 строки")');
  await page.waitForSelector('#batch-review:not([hidden]) .rows-table');
  assert.ok(await page.isHidden('#batch-check'));

  await page.click('#batch-choose');
  await page.waitForSelector('#batch-check button:text("Начать новый пакет")');
  assert.equal(await page.textContent('#batch-status'), 'Файл «подъезд-2.csv» проверен: это продолжение пакета 1.');
  assert.match(await page.textContent('#batch-new-hint'), /пакет 1 останется как был/);
  await page.click('#batch-check button:text("Начать новый пакет")');
  await page.waitForFunction(() => document.querySelector('#batch-status').textContent.endsWith('это новый пакет.'));
  const checks = await callsOf(page, 'batch_check');
  assert.deepEqual(checks.map((call) => call.args.options), [null, null, { new_batch: true, max_rows: null }]);
  assert.equal(await page.$$eval('#batch-check button', (buttons) => buttons.filter((b) => b.textContent === 'Начать новый пакет').length), 0, 'a new batch is new already');
  await closePage(page);
});

test('a file over 5000 rows is refused, then checked whole when the resident confirms it', async () => {
  const page = await openPage(harness, { hash: 'batch', fake: { batchRows: 5001 } });
  await page.click('#batch-choose');
  await page.waitForSelector('#batch-check button:text("Это нужный файл — проверить все строки")');
  assert.match(await page.textContent('#batch-status'), /В файле 5001 строк с данными, а в одном пакете может быть не больше 5000/);
  await page.waitForFunction(() => document.activeElement.textContent === 'Это нужный файл — проверить все строки');
  await page.click('#batch-check button:text("Это нужный файл — проверить все строки")');
  await page.waitForSelector('#batch-check h2');
  const checks = await callsOf(page, 'batch_check');
  assert.deepEqual(checks.at(-1).args.options, { new_batch: false, max_rows: 100000 });
  assert.equal((await callsOf(page, 'batch_run')).length, 0, 'nothing is sent before the plan is confirmed');
  await closePage(page);
});
