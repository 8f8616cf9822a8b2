// «Данные» in the real app (issue 31): a backup written through GTK's save dialog, the database
// then lost to another file in its place, the app pointing to «Данные» instead of a command,
// and the backup put back through GTK's open dialog after the app's own question — every draft
// back, the file that was in place kept beside byte for byte.

import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  DESCRIPTION,
  chooseInFileDialog,
  cleanUp,
  click,
  close,
  filesUnder,
  installation,
  launch,
  openScreen,
  scratchDir,
  screenshot,
  screenshotScreen,
  startStandIn,
  textOf,
  typeInto,
  visibleWindows,
  waitStill,
} from './harness.js';

afterEach(cleanUp);

const TITLE = 'Не работает освещение на лестнице';

/** What a resident might find in the database's place: another program's file. */
const NOT_A_DATABASE = Buffer.from('Это не база данных, а чужой файл.\n'.repeat(200), 'utf8');

function databaseOf(home) {
  const found = filesUnder(home).filter((file) => path.basename(file) === 'zayavka.sqlite3');
  assert.equal(found.length, 1, `one drafts database under ${home}: ${found.join(', ')}`);
  return found[0];
}

async function waitForStatus(app, expected, description) {
  await app.session.waitUntil(
    `return document.getElementById("data-status").textContent.includes(${JSON.stringify(expected)});`,
    { description, timeoutMs: 30_000 },
  );
}

test('a backup made in «Данные» brings the drafts back after the database is lost', { timeout: 300_000 }, async () => {
  const { baseUrl } = await startStandIn();
  const inst = installation({ baseUrl });
  const backups = scratchDir('zayavka-e2e-backup-');
  // An ASCII path: xdotool types non-ASCII characters by remapping keys, which is less reliable.
  const backup = path.join(backups, 'backup.sqlite3');

  let app = await launch(inst);
  await typeInto(app, '#description', DESCRIPTION);
  await click(app, 'input[name="confirmed_subject"][value="common_area_premises_lighting"]');
  await click(app, '#draft-submit');
  await app.session.waitFor('#new-result article.result', { timeoutMs: 30_000 });

  // «Сделать резервную копию…»: GTK's save dialog, the path typed into it.
  await openScreen(app, 'settings');
  await waitStill(app, '#data-backup');
  const beforeSave = await visibleWindows();
  await click(app, '#data-backup');
  await chooseInFileDialog(beforeSave, backup, () => screenshotScreen('data-backup-dialog-screen'));
  await waitForStatus(app, 'Резервная копия черновиков записана в файл', 'the backup to be written');
  assert.match(await textOf(app, '#data-status'), new RegExp(`записана в файл ${backup.replaceAll('.', '\\.')}\\.`));
  assert.ok(existsSync(backup), 'the backup file exists');
  assert.equal(readFileSync(backup).subarray(0, 16).toString('latin1'), 'SQLite format 3\0');
  await screenshot(app, 'data-backup');
  await close(app);

  // The database lost: another program's file in its place.
  const database = databaseOf(inst.home);
  for (const suffix of ['-wal', '-shm']) rmSync(database + suffix, { force: true });
  writeFileSync(database, NOT_A_DATABASE);

  app = await launch(inst);
  await openScreen(app, 'drafts');
  await app.session.waitUntil(
    'return document.getElementById("screen-drafts").textContent.includes("не является базой данных Заявки");',
    { description: 'the drafts screen to say the file is not a Zayavka database', timeoutMs: 30_000 },
  );
  const said = await textOf(app, '#screen-drafts');
  assert.match(said, /«Настройки» → «Данные»/);
  assert.doesNotMatch(said, /zayavka drafts/, 'no command-line command is offered in the app');
  assert.deepEqual(readFileSync(database), NOT_A_DATABASE, 'opening the app left the file as it was');
  await screenshot(app, 'data-not-our-database');

  // «Восстановить из резервной копии…»: GTK's open dialog, then the app's own question.
  await openScreen(app, 'settings');
  await waitStill(app, '#data-restore');
  const beforeOpen = await visibleWindows();
  await click(app, '#data-restore');
  await chooseInFileDialog(beforeOpen, backup);
  await app.session.waitUntil('return document.getElementById("data-dialog").open === true;', {
    description: 'the question before the database is replaced',
  });
  assert.match(await textOf(app, '#data-dialog-text'), /не удаляется/);
  assert.deepEqual(readFileSync(database), NOT_A_DATABASE, 'nothing replaced before the answer');
  await screenshot(app, 'data-restore-question');
  await click(app, '#data-dialog-confirm');
  await waitForStatus(app, 'Черновики восстановлены из файла', 'the backup to be put back');
  const status = await textOf(app, '#data-status');
  assert.match(status, /1 черновик/);
  const aside = /сохранена рядом как (.+)\.$/.exec(status);
  assert.ok(aside, `the status names where the file in place went: ${status}`);
  assert.deepEqual(readFileSync(aside[1]), NOT_A_DATABASE, 'the file that was in place is kept byte for byte');
  await screenshot(app, 'data-restored');

  // The draft is back in «Черновики», in this run of the app and after a restart.
  await openScreen(app, 'drafts');
  await app.session.waitFor('#drafts-list .draft-item');
  assert.equal(await textOf(app, '#drafts-list .draft-item .draft-title'), TITLE);
  await close(app);
  app = await launch(inst);
  await openScreen(app, 'drafts');
  await app.session.waitFor('#drafts-list .draft-item');
  assert.equal(await textOf(app, '#drafts-list .draft-item .draft-title'), TITLE);
});
