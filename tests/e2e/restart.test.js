// What survives the app: a draft found in «Черновики» after a restart, and text that was being
// typed when the app was killed, back in the form on the next start.

import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DESCRIPTION,
  cleanUp,
  click,
  close,
  installation,
  kill,
  launch,
  openScreen,
  screenshot,
  startStandIn,
  textOf,
  typeInto,
  value,
} from './harness.js';

afterEach(cleanUp);

const TITLE = 'Не работает освещение на лестнице';

test('a draft is found in «Черновики» after a restart, by list and by search', { timeout: 180_000 }, async () => {
  const { baseUrl } = await startStandIn();
  const inst = installation({ baseUrl });
  let app = await launch(inst);
  await typeInto(app, '#description', DESCRIPTION);
  await click(app, 'input[name="confirmed_subject"][value="common_area_premises_lighting"]');
  await click(app, '#draft-submit');
  await app.session.waitFor('#new-result article.result', { timeoutMs: 30_000 });
  await close(app);

  app = await launch(inst);
  await openScreen(app, 'drafts');
  await app.session.waitFor('#drafts-list .draft-item');
  assert.equal(await textOf(app, '#drafts-list .draft-item .draft-title'), TITLE);
  assert.match(await textOf(app, '#drafts-list .draft-item .draft-meta'), /Готова/);
  assert.match(await textOf(app, '#drafts-list .draft-item .draft-meta'), /Освещение в подъезде/);
  assert.match(await textOf(app, '#drafts-status'), /Всего 1 черновик\./);
  await screenshot(app, 'drafts-list');

  // Search as you type, through the store's full-text search.
  await typeInto(app, '#drafts-search', 'лифт');
  await app.session.waitUntil('return document.getElementById("drafts-status").textContent.startsWith("Ничего не нашлось");', {
    description: 'no match for «лифт»',
  });
  await app.session.clear(await app.session.find('#drafts-search'));
  await typeInto(app, '#drafts-search', 'лестниц');
  await app.session.waitUntil('return document.getElementById("drafts-status").textContent.startsWith("Найдено 1 ");', {
    description: 'one match for «лестниц»',
  });
  await screenshot(app, 'drafts-search');

  await click(app, '#drafts-list .open-draft');
  await app.session.waitFor('#draft-detail-body article.result');
  assert.equal(await textOf(app, '#draft-detail-body .doc-title'), TITLE);
  assert.match(await textOf(app, '#draft-detail-body .legal-status'), /Освещение в подъезде/);
  await screenshot(app, 'drafts-opened');
});

test('text typed before the app was killed is in the form on the next start', { timeout: 180_000 }, async () => {
  const { baseUrl } = await startStandIn();
  const inst = installation({ baseUrl });
  let app = await launch(inst);
  const typed = 'Во дворе после дождя стоит большая лужа у второго подъезда, её не обойти';
  await typeInto(app, '#description', typed);
  await click(app, '#more-fields summary');
  await typeInto(app, '#location', 'двор, у подъезда 2');
  // The page saves about 400 ms after typing pauses; the app gets a moment to write it.
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  await kill(app);

  app = await launch(inst);
  await app.session.waitUntil('return document.getElementById("description").value !== "";', {
    description: 'the restored description',
  });
  assert.equal(await value(app, '#description'), typed);
  assert.equal(await value(app, '#location'), 'двор, у подъезда 2');
  assert.equal(await textOf(app, '#description-counter'), `${[...typed].length} из 2000`);
  await screenshot(app, 'new-request-restored');
});
