// «Данные» in «Настройки» (issue 31) against the fake IPC: a backup saved where the resident
// chose, a backup put back only after the resident confirms, a damaged database met on
// «Черновики» with the way to «Данные» and recovered there, cancelling that changes nothing,
// and the part at 800×600 and at 200 % zoom — with screenshots in target/ui-screenshots/.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { assertAccessible, assertNothingSticksOut, callsOf, closePage, openPage, screenshot, screenshotDir, startHarness } from './harness.js';

let harness;
before(async () => {
  harness = await startHarness();
});
after(async () => {
  await harness.stop();
});

const status = (page) => page.textContent('#data-status');

/** Waits until the status line reads `start…`. */
function statusStarts(page, start) {
  return page.waitForFunction((text) => document.getElementById('data-status').textContent.startsWith(text), start);
}

test('a backup is saved where the resident chose and the status says where', async () => {
  const page = await openPage(harness, { hash: 'settings' });
  await page.click('#data-backup');
  await statusStarts(page, 'Резервная копия черновиков записана в файл');
  assert.match(await status(page), /Заявка-резервная-копия-2026-12-04\.sqlite3/);
  assert.equal((await callsOf(page, 'data_backup')).length, 1);
  // The focus stays on the button the resident pressed.
  assert.equal(await page.evaluate(() => document.activeElement.id), 'data-backup');
  await closePage(page);
});

test('a cancelled save or open dialog changes nothing and says nothing', async () => {
  const page = await openPage(harness, { hash: 'settings', fake: { noFile: true } });
  await page.click('#data-backup');
  await page.waitForFunction(() => window.__fake.callsOf('data_backup').length === 1);
  await page.waitForFunction(() => !document.getElementById('data-backup').disabled);
  assert.equal(await status(page), '');
  await page.click('#data-restore');
  await page.waitForFunction(() => !document.getElementById('data-restore').disabled);
  assert.equal(await page.evaluate(() => document.getElementById('data-dialog').open), false);
  assert.equal((await callsOf(page, 'data_restore')).length, 0);
  await closePage(page);
});

test('a backup is put back only after the resident confirms, and the old database is kept', async () => {
  const page = await openPage(harness, { hash: 'settings' });
  await page.click('#data-restore');
  await page.waitForSelector('#data-dialog[open]');
  const asked = await page.textContent('#data-dialog-text');
  assert.match(asked, /ФЛЕШКА\/Заявка-резервная-копия-2026-11-20\.sqlite3/);
  assert.match(asked, /Нынешняя база черновиков не удаляется/);
  assert.match(asked, /появились после этой копии, останутся только в прежней базе/);
  assert.equal(await page.textContent('#data-dialog-title'), 'Восстановить черновики из резервной копии?');
  await assertAccessible(page, 'вопрос перед восстановлением');
  await screenshot(page, 'data-restore-dialog');
  // «Отмена» first: nothing is replaced.
  await page.click('#data-dialog button[value="cancel"]');
  await page.waitForFunction(() => !document.getElementById('data-restore').disabled);
  assert.equal((await callsOf(page, 'data_restore')).length, 0);

  await page.click('#data-restore');
  await page.waitForSelector('#data-dialog[open]');
  await page.click('#data-dialog-confirm');
  await statusStarts(page, 'Черновики восстановлены из файла');
  assert.match(await status(page), /Прежняя база черновиков не удалена: она сохранена рядом как .*before-restore-/);
  const restored = await callsOf(page, 'data_restore');
  assert.deepEqual(
    restored.map((call) => call.args),
    [{ path: '/media/resident/ФЛЕШКА/Заявка-резервная-копия-2026-11-20.sqlite3' }],
  );
  await closePage(page);
});

test('a damaged database on «Черновики» points to «Данные», where it is recovered', async () => {
  const page = await openPage(harness, { hash: 'drafts', fake: { damagedDatabase: true } });
  await page.waitForFunction(() => document.getElementById('drafts-status').textContent.includes('повреждён'));
  const told = await page.textContent('#drafts-status');
  assert.match(told, /«Настройки» → «Данные»/);
  assert.match(told, /«Восстановить повреждённую базу»/);
  assert.ok(!/zayavka|--replace/.test(told), told);
  await screenshot(page, 'data-damaged-drafts');

  await page.click('a[data-screen="settings"]');
  await page.waitForSelector('#data-recover');
  // The button the message names is there, with its explanation.
  assert.equal(await page.textContent('#data-recover'), 'Восстановить повреждённую базу');
  assert.match(await page.textContent('#data-recover-note'), /повреждённый файл останется рядом под другим именем/);
  await page.click('#data-recover');
  await page.waitForSelector('#data-dialog[open]');
  assert.equal(await page.textContent('#data-dialog-title'), 'Восстановить повреждённую базу?');
  assert.match(await page.textContent('#data-dialog-text'), /Повреждённый файл не удаляется и не меняется/);
  await page.click('#data-dialog-confirm');
  await statusStarts(page, 'Спасено черновиков:');
  assert.match(await status(page), /Повреждённая база не удалена и не изменена: она сохранена рядом как .*before-restore-/);
  assert.equal((await callsOf(page, 'data_recover')).length, 1);

  // «Черновики» reads again.
  await page.click('a[data-screen="drafts"]');
  await page.waitForFunction(() => !document.getElementById('drafts-status').textContent.includes('повреждён'));
  await closePage(page);
});

test('when nothing can be read, the refusal says so and points to a backup', async () => {
  const page = await openPage(harness, { hash: 'settings', fake: { nothingReadable: true } });
  await page.click('#data-recover');
  await page.waitForSelector('#data-dialog[open]');
  await page.click('#data-dialog-confirm');
  await statusStarts(page, 'Ни одного черновика');
  assert.match(await status(page), /«Восстановить из резервной копии»/);
  await closePage(page);
});

const WINDOWS = [
  { name: '800x600', viewport: { width: 800, height: 600 }, deviceScaleFactor: 1 },
  { name: '200pct', viewport: { width: 400, height: 300 }, deviceScaleFactor: 2 },
];

for (const window of WINDOWS) {
  test(`«Данные» fits and is accessible at ${window.name}`, async () => {
    const page = await openPage(harness, { hash: 'settings', ...window });
    await page.click('#data-backup');
    await statusStarts(page, 'Резервная копия черновиков записана');
    await page.$eval('#data-heading', (heading) => heading.scrollIntoView({ block: 'start' }));
    await screenshot(page, `data-${window.name}`);
    await page.locator('.data-safety').screenshot({ path: path.join(screenshotDir, `data-${window.name}-panel.png`) });
    await assertNothingSticksOut(page, '.data-safety');
    await assertAccessible(page, `Данные ${window.name}`);
    await page.click('#data-recover');
    await page.waitForSelector('#data-dialog[open]');
    await screenshot(page, `data-recover-dialog-${window.name}`);
    await page.click('#data-dialog button[value="cancel"]');
    await closePage(page);
  });
}
