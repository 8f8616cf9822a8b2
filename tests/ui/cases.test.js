// After the request is filed (issue 30) against the fake IPC: the notice of what is overdue when
// the app opens, «Сроки» with the overdue first, marking a draft filed (a blank date refused by
// the page, a date to come by Rust, the letter's delivery field), the filed draft no longer
// editable, the complaint that needs the inspectorate's name, a batch marked filed — and the
// screens at 800×600 and at 200 % zoom, with screenshots in target/ui-screenshots/.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertAccessible, callsOf, closePage, openPage, screenshot, startHarness } from './harness.js';

let harness;
before(async () => {
  harness = await startHarness();
});
after(async () => {
  await harness.stop();
});

// Draft 1 (the lift, ready) was filed and its answer is overdue; draft 3 (the light, ready) not yet.
const OVERDUE = { filed: [{ id: 1, overdue: true, number: '15-к' }] };

test('the app says what is overdue when it opens, and «Сроки» lists it first', async () => {
  const page = await openPage(harness, { fake: OVERDUE });
  await page.waitForSelector('#due-notice:not([hidden])');
  assert.equal(await page.textContent('#due-notice-text'), 'Срок ответа истёк по 1 заявке.');
  await page.click('#due-notice a');
  await page.waitForSelector('#screen-due:not([hidden]) #due-list li');
  assert.ok(await page.isHidden('#due-notice'), 'the notice goes once «Сроки» is open');
  const first = await page.$eval('#due-list li', (li) => ({ state: li.dataset.state, text: li.textContent }));
  assert.equal(first.state, 'overdue');
  assert.match(first.text, /Срок ответа истёк 3 дня назад/);
  assert.match(first.text, /вх\. №\s15-к/);
  assert.match(await page.textContent('#due-status'), /^На 4 декабря 2026 г\.: Срок ответа истёк по 1 заявке\. Всего поданных: 1\.$/);
  assert.ok(await page.isVisible('#due-notice-review'), 'the deadline rests on data not yet checked: said');
  await assertAccessible(page, '«Сроки»');
  await closePage(page);
});

test('no notice when nothing is overdue, and «Сроки» says what to do with no filed request', async () => {
  const page = await openPage(harness, { hash: 'due' });
  await page.waitForFunction(() => document.querySelector('#due-status').textContent !== '');
  assert.match(await page.textContent('#due-status'), /Поданных заявок пока нет.*«Отметить как поданное»/);
  assert.ok(await page.isHidden('#due-notice'));
  await closePage(page);
});

test('an overdue case gets a complaint, which needs the inspectorate and opens as a new draft', async () => {
  const page = await openPage(harness, { hash: 'due', fake: OVERDUE });
  await page.click('#due-list li button:text("Открыть")');
  await page.waitForSelector('#draft-detail:not([hidden]) .case-panel');
  const panel = await page.textContent('.case-panel');
  assert.match(panel, /Срок ответа истёк 3 дня назад/);
  assert.match(panel, /входящий №\s15-к/);
  assert.match(panel, /Ответ должен прийти не позднее 1 декабря 2026 г\./);
  assert.equal(await page.$$eval('#draft-detail button', (buttons) => buttons.filter((b) => b.textContent === 'Редактировать').length), 0, 'a filed text is not edited');
  assert.doesNotMatch(await page.textContent('#draft-detail'), /null|undefined/);
  assert.ok(await page.isHidden('#draft-detail .photos button:text("Приложить фотографии…")'), 'nor its photos');

  await page.click('.case-panel button:text("Написать жалобу в инспекцию")');
  await page.waitForFunction(() => document.querySelector('.case-status').textContent !== '');
  assert.match(await page.textContent('.case-status'), /^Впишите, в какую инспекцию жалоба/);
  await page.fill('.case-next input', 'Государственная жилищная инспекция Московской области');
  await page.click('.case-panel button:text("Написать жалобу в инспекцию")');
  await page.waitForFunction(() => /Жалоба в жилищную инспекцию по черновику № 1/.test(document.querySelector('.case-panel')?.textContent ?? ''));
  assert.match(await page.textContent('.case-status'), /^Жалоба в жилищную инспекцию написана по записанным сведениям, без модели: черновик № 5\./);
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Подача и ответ', 'focus lands on the panel that says so');
  const written = callsOf(await page, 'follow_up_write');
  assert.deepEqual((await written).at(-1).args, { id: 1, kind: 'complaint', addressee: 'Государственная жилищная инспекция Московской области' });
  await screenshot(page, 'complaint-written');
  await closePage(page);
});

test('a ready draft is marked filed: a blank date and a date to come are refused, nothing typed is lost', async () => {
  const page = await openPage(harness, { hash: 'drafts' });
  await page.waitForSelector('#drafts-list li');
  await page.click('#drafts-list li[data-draft-id="3"] button:text("Открыть")');
  await page.waitForSelector('.case-panel button:text("Отметить как поданное")');
  await page.click('.case-panel button:text("Отметить как поданное")');
  await page.waitForSelector('.case-form');
  assert.equal(await page.inputValue('.case-form input[type="date"]'), '2026-12-04', "today's date to start from");
  assert.ok(await page.isHidden('.case-form .field:has(input[id^="delivered"])'), 'no delivery for a visit');
  await page.selectOption('.case-form select', 'letter');
  assert.ok(await page.isVisible('.case-form .field:has(input[id^="delivered"])'), 'a letter asks for its delivery');
  await page.fill('.case-form input[id^="number"]', '№ 27/б');

  await page.fill('.case-form input[id^="filed-on"]', '');
  await page.click('.case-form button[type="submit"]');
  assert.equal(await page.textContent('.case-form .field-error'), 'Укажите дату подачи: день, месяц и год.');
  assert.equal(await page.evaluate(() => document.activeElement.id.startsWith('filed-on')), true);
  assert.equal((await callsOf(page, 'case_file')).length, 0, 'the page refused it itself');

  await page.fill('.case-form input[id^="filed-on"]', '2026-12-20');
  await page.click('.case-form button[type="submit"]');
  await page.waitForFunction(() => /ещё не наступила/.test(document.querySelector('.case-form .field-error').textContent));
  assert.equal(await page.inputValue('.case-form input[id^="number"]'), '№ 27/б', 'what was typed stays');

  await page.fill('.case-form input[id^="filed-on"]', '2026-12-03');
  await page.click('.case-form button[type="submit"]');
  await page.waitForFunction(() => /Заявка отмечена как поданная/.test(document.querySelector('.case-status')?.textContent ?? ''));
  const panel = await page.textContent('.case-panel');
  assert.match(panel, /Письмо ещё не вручено: срок ответа начнётся со дня вручения/);
  assert.match(panel, /впишите её в сведения о подаче/);
  assert.deepEqual((await callsOf(page, 'case_file')).at(-1).args, {
    id: 3,
    filing: { filed_on: '2026-12-03', method: 'letter', number: '№ 27/б', addressee: null, delivered_on: null },
  });
  assert.ok(await page.isHidden('#draft-detail button:text("Редактировать")'));
  await assertAccessible(page, 'a filed draft');

  // The list says where the case stands.
  await page.click('#draft-detail-back');
  await page.waitForSelector('#drafts-list li[data-draft-id="3"] .draft-case');
  assert.match(await page.textContent('#drafts-list li[data-draft-id="3"] .draft-case'), /^Подана 3 декабря 2026 г\., вх\. №\u00a027\/б · письмо ещё не вручено/);
  await closePage(page);
});

test('the answer is recorded and the case closed; a filing taken back asks first', async () => {
  const page = await openPage(harness, { hash: 'due', fake: OVERDUE });
  await page.click('#due-list li button:text("Открыть")');
  await page.click('.case-panel button:text("Записать ответ")');
  await page.selectOption('.case-form select', 'refused');
  await page.click('.case-form button[type="submit"]');
  await page.waitForFunction(() => /Ответ записан/.test(document.querySelector('.case-status')?.textContent ?? ''));
  assert.match(await page.textContent('.case-panel .case-state'), /^Ответ получен: отказ$/);
  assert.ok(await page.isVisible('.case-panel button:text("Написать повторную заявку")'), 'a refusal may be taken further');
  await page.click('.case-panel button:text("Закрыть дело")');
  await page.waitForFunction(() => /Дело закрыто\./.test(document.querySelector('.case-status')?.textContent ?? ''));
  assert.ok(await page.isHidden('.case-panel button:text("Написать повторную заявку")'));

  await page.click('.case-panel button:text("Снять отметку о подаче")');
  await page.waitForSelector('#unfile-dialog[open]');
  await page.click('#unfile-dialog button[value="cancel"]');
  assert.equal((await callsOf(page, 'case_unfile')).length, 0, '«Отмена» changes nothing');
  await page.click('.case-panel button:text("Снять отметку о подаче")');
  await page.click('#unfile-dialog button[value="unfile"]');
  await page.waitForFunction(() => /Отметка о подаче снята/.test(document.querySelector('.case-status')?.textContent ?? ''));
  assert.ok(await page.isVisible('.case-panel button:text("Отметить как поданное")'));
  await closePage(page);
});

for (const [name, viewport, zoom] of [
  ['800×600', { width: 800, height: 600 }, 1],
  // 200 % zoom of an 800×600 window: 400×300 CSS pixels drawn at twice the density.
  ['200 %', { width: 400, height: 300 }, 2],
]) {
  test(`«Сроки» and the case panel fit at ${name}`, async () => {
    const page = await openPage(harness, { hash: 'due', fake: OVERDUE, viewport, deviceScaleFactor: zoom });
    await page.waitForSelector('#due-list li');
    await screenshot(page, `due-${zoom === 1 ? '800x600' : '200'}`);
    await page.click('#due-list li button:text("Открыть")');
    await page.waitForSelector('.case-panel');
    await page.$eval('.case-panel', (panel) => panel.scrollIntoView());
    await screenshot(page, `case-panel-${zoom === 1 ? '800x600' : '200'}`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `nothing wider than the window (${overflow}px over)`);
    await closePage(page);
  });
}

test('a batch is marked filed from «Пакет», all ready rows or the ones named', async () => {
  const page = await openPage(harness, { hash: 'batch' });
  await page.click('#batch-choose');
  await page.waitForSelector('#batch-check:not([hidden])');
  await page.click('#batch-check button:text("Отправить 4 строки")');
  await page.waitForSelector('.batch-cases .case-form');
  assert.equal(await page.textContent('.batch-cases p[role="status"]'), 'Ни одна заявка пакета ещё не отмечена как поданная.');
  await page.fill('.batch-cases input[id^="batch-file-rows"]', '2, x');
  await page.click('.batch-cases button:text("Отметить поданными")');
  assert.match(await page.textContent('.batch-cases .field-error'), /Номера строк — целые числа/);
  await page.fill('.batch-cases input[id^="batch-file-rows"]', '2, 3');
  await page.click('.batch-cases button:text("Отметить поданными")');
  await page.waitForFunction(() => /Отмечено поданными/.test(document.querySelector('.batch-cases').textContent));
  const filed = await page.evaluate(() => window.__fake.batchFiled);
  assert.deepEqual(filed.rows, [2, 3]);
  assert.equal(filed.filing.filed_on, '2026-12-04');
  assert.match(await page.textContent('.batch-cases p[role="status"]'), /^Подано: 2; ответ получен: 0; просрочено: 0; решено: 0\.$/);
  await closePage(page);
});

test('«Статистика» adds the filed requests (on time, late, never answered, solved, by addressee) and groups large counts', async () => {
  const tally = (addressee, fields) => ({ period: null, addressee, filed: 0, answered_on_time: 0, answered_late: 0, answered_no_deadline: 0, never_answered: 0, waiting: 0, solved: 0, ...fields });
  const stats = {
    total: { drafts: 14692, outcomes: { pending: 0, ready: 14692, needs_user: 0, rejected: 0, failed: 0, invalid_input: 0 }, ready_without_model: 2500 },
    cases: {
      total: tally(null, { filed: 5, answered_on_time: 2, answered_late: 1, never_answered: 1, waiting: 1, solved: 2 }),
      by_period: [],
      by_addressee: [
        tally('ООО «УК Восход»', { filed: 4, answered_on_time: 2, answered_late: 1, never_answered: 1, solved: 2 }),
        tally('', { filed: 1, waiting: 1 }),
      ],
    },
  };
  const page = await openPage(harness, { hash: 'settings', fake: { stats } });
  await page.waitForSelector('#stats-cases dl');
  const numbers = await page.$$eval('#stats-cases dd[data-stat]', (cells) => Object.fromEntries(cells.map((cell) => [cell.dataset.stat, cell.textContent])));
  assert.deepEqual(numbers, { filed: '5', on_time: '2', late: '1', never: '1', solved: '2' });
  // Issue 31: counts of five digits and more grouped by threes with a no-break space.
  const drafts = await page.$$eval('#stats-list dd', (cells) => cells.map((cell) => cell.textContent));
  assert.equal(drafts[0], '14\u00a0692');
  assert.equal(drafts[1], '14\u00a0692, из них без модели — 2500');
  const lines = await page.$$eval('#stats-cases li', (items) => items.map((item) => item.textContent));
  assert.deepEqual(lines, [
    'ООО «УК Восход»: подано 4, ответ в срок 2, с опозданием 1, без ответа после срока 1, решено 2',
    'Адресат не указан: подано 1, ответ в срок 0, с опозданием 0, без ответа после срока 0, ждут ответа 1, решено 0',
  ]);
  await closePage(page);
});

// Issue 38: «Записать уже поданную заявку» in «Черновики» — the text as filed and the filing,
// checked on the page (a blank text, a blank date) and by Rust (a date to come), nothing typed
// lost; then the new draft opens with its case, its deadline said.
test('issue 38: a request filed before Zayavka is recorded from «Черновики» and opens with its case', async () => {
  const page = await openPage(harness, { hash: 'drafts' });
  await page.waitForSelector('#drafts-list li');
  await page.click('#drafts-bring-in');
  await page.waitForSelector('#bring-in .bring-in-form');
  assert.equal(await page.getAttribute('#drafts-bring-in', 'aria-expanded'), 'true');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'bring-in-text');
  await page.click('#bring-in button[type="submit"]');
  assert.equal(await page.textContent('#bring-in-error'), 'Вставьте или напишите текст заявки, как вы её подали.');
  assert.equal((await callsOf(page, 'case_bring_in')).length, 0, 'the page refused it itself');

  const text = 'Прошу заменить перегоревшую лампу на площадке 3 этажа подъезда 2.\nТемно уже неделю.';
  await page.fill('#bring-in-text', text);
  await page.fill('#bring-in input[id^="filed-on"]', '2026-12-20');
  await page.fill('#bring-in input[id^="number"]', 'Вх. 512');
  await page.click('#bring-in button[type="submit"]');
  await page.waitForFunction(() => /ещё не наступила/.test(document.querySelector('#bring-in-error').textContent));
  assert.equal(await page.inputValue('#bring-in-text'), text, 'what was typed stays');
  assert.equal(await page.inputValue('#bring-in input[id^="number"]'), 'Вх. 512');
  await screenshot(page, 'bring-in-800x600');
  await assertAccessible(page, 'the form for a request filed before');

  await page.fill('#bring-in input[id^="filed-on"]', '2026-11-17');
  await page.click('#bring-in button[type="submit"]');
  await page.waitForSelector('#draft-detail:not([hidden]) .case-panel');
  assert.deepEqual((await callsOf(page, 'case_bring_in')).at(-1).args, {
    text,
    filing: { filed_on: '2026-11-17', method: 'in_person', number: 'Вх. 512', addressee: null, delivered_on: null },
  });
  assert.match(await page.textContent('.case-panel'), /Заявка записана как черновик № \d+/);
  assert.match(await page.textContent('.document'), /Темно уже неделю\./);
  assert.match(await page.textContent('.document .marker'), /текст, как вы его подали/);
  await closePage(page);
});

test('issue 38: the form for a request filed before fits at 200 %', async () => {
  const page = await openPage(harness, { hash: 'drafts', viewport: { width: 400, height: 300 }, deviceScaleFactor: 2 });
  await page.waitForSelector('#drafts-list li');
  await page.click('#drafts-bring-in');
  await page.waitForSelector('#bring-in .bring-in-form');
  await screenshot(page, 'bring-in-200');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `nothing wider than the window (${overflow}px over)`);
  await closePage(page);
});
