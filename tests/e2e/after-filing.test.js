// After the request is filed (issue 30), in the real app: a request drafted, marked filed in
// «Черновики»; the app started again with the clock forty days on (ZAYAVKA_TODAY) says the
// answer is overdue, «Сроки» lists it, the complaint to the housing inspectorate is written from
// the recorded facts with no model (its address is a closed port by then), and printed.

import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DESCRIPTION,
  cleanUp,
  click,
  close,
  dismissWindow,
  installation,
  launch,
  openScreen,
  screenshot,
  startStandIn,
  textOf,
  typeInto,
  visibleWindows,
  waitForNewWindow,
  windowName,
} from './harness.js';

afterEach(cleanUp);

const statusSays = (app, css, pattern, description) =>
  app.session.waitUntil(`return ${pattern}.test(document.querySelector(${JSON.stringify(css)})?.textContent ?? '');`, {
    description,
  });

test('a request filed, its deadline passed, a complaint written and printed', { timeout: 240_000 }, async () => {
  const { baseUrl } = await startStandIn();
  const inst = installation({ baseUrl });
  let app = await launch(inst);
  await typeInto(app, '#description', DESCRIPTION);
  await click(app, '#draft-submit');
  await app.session.waitFor('#new-result article.result', { timeoutMs: 30_000 });

  await openScreen(app, 'drafts');
  await app.session.waitFor('#drafts-list .open-draft');
  await click(app, '#drafts-list .open-draft');
  await app.session.waitFor('.case-panel button.primary');
  await click(app, '.case-panel button.primary');
  await app.session.waitFor('.case-form');
  await typeInto(app, '.case-form input[id^="number"]', '15-к');
  await click(app, '.case-form button[type="submit"]');
  await statusSays(app, '.case-status', '/Заявка отмечена как поданная/', 'the filing recorded');
  assert.match(await textOf(app, '.case-panel .case-state'), /^(Ждём ответа до|Срок ответа — сегодня)/);
  assert.match(await textOf(app, '.case-panel'), /Ответ должен прийти не позднее .*10 рабочих дней/);
  await screenshot(app, 'case-filed');
  await close(app);

  // Forty days on: the answer is overdue, and the app says so when it opens. The model service
  // now points at a closed port: the complaint needs none.
  const later = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10);
  app = await launch({ ...inst, env: { ...inst.env, ZAYAVKA_TODAY: later, ZAYAVKA_BASE_URL: 'http://127.0.0.1:9/v1' } });
  await app.session.waitUntil('return !document.getElementById("due-notice").hidden;', { description: 'the overdue notice' });
  assert.equal(await textOf(app, '#due-notice-text'), 'Срок ответа истёк по 1 заявке.');
  await screenshot(app, 'due-notice');
  await click(app, '#due-notice a');
  await app.session.waitFor('#due-list li button');
  assert.match(await textOf(app, '#due-list li'), /Срок ответа истёк \d+ (день|дня|дней) назад/);
  assert.match(await textOf(app, '#due-list li'), /вх\. №\s15-к/);
  await screenshot(app, 'due');

  await click(app, '#due-list li button');
  await app.session.waitFor('.case-next input');
  await typeInto(app, '.case-next input', 'Государственная жилищная инспекция Московской области');
  await click(app, '.case-next .actions:last-of-type button');
  await statusSays(app, '.case-status', '/Жалоба в жилищную инспекцию написана/', 'the complaint written');
  assert.match(await textOf(app, '.case-panel .case-follows'), /Жалоба в жилищную инспекцию по черновику № 1/);
  assert.match(await textOf(app, '#draft-detail-body .document'), /15-к/);
  assert.equal(
    await app.session.execute('return document.querySelector("#draft-detail-body .confirm-block") === null;'),
    true,
    'a letter from the recorded facts is not offered a subject to confirm',
  );
  await screenshot(app, 'complaint');

  // Printed: the filed document addressed to the inspectorate, through the system's dialog.
  const before = await visibleWindows();
  await click(app, '#draft-detail-body .actions button:nth-child(3)');
  const dialog = await waitForNewWindow(before);
  assert.match(await windowName(dialog), /Печать|Print/);
  assert.match(await textOf(app, '#print-document'), /Государственная жилищная инспекция Московской области/);
  await dismissWindow(dialog);
});
