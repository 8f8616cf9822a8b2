// «Статистика» in «Настройки» (issue 17) against the fake IPC: the numbers in plain words, the
// period choice, a service whose answers mostly fail the checks called out first, an empty
// store, a failure, and the panel at 800×600, at 200 % zoom and in the dark theme — with
// screenshots in target/ui-screenshots/ and nothing cut off.

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

// Only what differs from an empty group: the fake IPC fills in the rest of the engine's shape.
const group = (profile, fields = {}) => ({ profile, ...fields });

// A service that answers every time, but whose answers mostly fail the app's checks; a second
// one that often fails; a few drafts without a model.
const yandex = group('yandex', {
  drafts: 9,
  outcomes: { pending: 0, ready: 2, needs_user: 0, rejected: 7, failed: 0, invalid_input: 0 },
  sent_to_model: 9,
  rejected_share: 0.778,
  failed_share: 0,
  attention: ['many_rejected'],
  reasons: { needs_user: {}, rejected: { schema_violation: 6, truncated: 1 }, failed: {} },
  reasks: { total: 7, drafts: 7 },
  attempts: { total: 16, retries: 0, retry_causes: {}, errors: {} },
  faithfulness: { drafts_with_found: 1, drafts_unsure_only: 0, found: 1, unsure: 0, by_kind: { new_cause: { found: 1, unsure: 0 } } },
  latency: { drafts: 9, median_ms: 61000, p90_ms: 125000, max_ms: 130000 },
  tokens: { prompt: 30000, completion: 9000, total: 39000 },
  cost: [{ amount: 3.9, currency: 'RUB' }],
});
const local = group('local', {
  drafts: 4,
  outcomes: { pending: 0, ready: 1, needs_user: 0, rejected: 0, failed: 3, invalid_input: 0 },
  sent_to_model: 4,
  rejected_share: 0,
  failed_share: 0.75,
  attention: ['many_failed'],
  reasons: { needs_user: {}, rejected: {}, failed: { timeout: 3 } },
  attempts: { total: 10, retries: 6, retry_causes: { timeout: 6 }, errors: { timeout: 9 } },
  latency: { drafts: 4, median_ms: 400, p90_ms: 900, max_ms: 900 },
});
const offline = group(null, {
  drafts: 3,
  outcomes: { pending: 0, ready: 3, needs_user: 0, rejected: 0, failed: 0, invalid_input: 0 },
  ready_without_model: 3,
});
const TROUBLED = {
  total: group(null, {
    drafts: 16,
    outcomes: { pending: 0, ready: 6, needs_user: 0, rejected: 7, failed: 3, invalid_input: 0 },
    ready_without_model: 3,
    sent_to_model: 13,
    rejected_share: 0.538,
    failed_share: 0.231,
    attention: ['many_rejected'],
    faithfulness: { drafts_with_found: 1, drafts_unsure_only: 0, found: 1, unsure: 0, by_kind: { new_cause: { found: 1, unsure: 0 } } },
    latency: { drafts: 13, median_ms: 59000, p90_ms: 125000, max_ms: 130000 },
    cost: [{ amount: 3.9, currency: 'RUB' }],
  }),
  groups: [local, yandex, offline],
};

const EMPTY = { total: group(null), groups: [] };

/** The list as label → value. */
async function shown(page) {
  await page.waitForSelector('#stats-list dt');
  return page.$$eval('#stats-list dt', (terms) =>
    // Numbers are held together with no-break spaces; they read as spaces.
    Object.fromEntries(terms.map((term) => [term.textContent, term.nextElementSibling.textContent.replaceAll('\u00a0', ' ')])),
  );
}

test('the numbers are told in plain words, with the waiting time and the money spent', async () => {
  const page = await openPage(harness, { hash: 'settings' });
  const rows = await shown(page);
  assert.equal(rows['Черновиков'], '12');
  assert.equal(rows['Готовых заявок'], '10, из них без модели — 2');
  assert.equal(rows['Составлялись с моделью'], '10');
  assert.equal(rows['Ответ модели не прошёл проверку'], '1 из 10 (10 %)');
  assert.equal(rows['Сервис не ответил или ответил с ошибкой'], '0 из 10 (0 %)');
  assert.equal(rows['Нужно было уточнить описание'], '1');
  assert.equal(rows['Заявки с предупреждением о словах, которых не было в вашем тексте'], '2');
  assert.equal(rows['Ожидание ответа модели'], 'обычно 4 с, почти всегда не дольше 10 с');
  assert.match(rows['Потрачено на сервис модели'], /^12,60\s₽$/);
  // No codes, no jargon on the resident's screen.
  const text = await page.textContent('.stats');
  for (const word of ['schema', 'JSON', 'токен', 'http_', 'not_confirmed', 'p90', 'медиана']) {
    assert.ok(!text.includes(word), `«${word}» in «${text}»`);
  }
  assert.equal(await page.isHidden('#stats-attention'), true, 'a service that mostly works needs no warning');
  assert.deepEqual((await callsOf(page, 'stats_get')).map((call) => call.args), [{ request: { days: null } }]);
  await closePage(page);
});

test('choosing a period asks again for the last days', async () => {
  const page = await openPage(harness, { hash: 'settings' });
  await shown(page);
  await page.selectOption('#stats-period', '30');
  await page.waitForFunction(() => window.__fake.callsOf('stats_get').length === 2);
  await page.selectOption('#stats-period', '7');
  await page.waitForFunction(() => window.__fake.callsOf('stats_get').length === 3);
  const days = (await callsOf(page, 'stats_get')).map((call) => call.args.request.days);
  assert.deepEqual(days, [null, 30, 7]);
  // Leaving «Настройки» and coming back counts again.
  await page.click('a[data-screen="drafts"]');
  await page.click('a[data-screen="settings"]');
  await page.waitForFunction(() => window.__fake.callsOf('stats_get').length === 4);
  await closePage(page);
});

test('a service whose answers mostly fail the checks is called out before the numbers', async () => {
  const page = await openPage(harness, { hash: 'settings', fake: { stats: TROUBLED } });
  const rows = await shown(page);
  assert.equal(rows['Ответ модели не прошёл проверку'], '7 из 13 (54 %)');
  assert.equal(rows['Ожидание ответа модели'], 'обычно 59 с, почти всегда не дольше 2 мин 5 с');
  await page.waitForSelector('#stats-attention:not([hidden])');
  const notes = await page.$$eval('#stats-attention p', (nodes) => nodes.map((node) => node.textContent.replaceAll('\u00a0', ' ')));
  assert.equal(notes[0], 'Обратите внимание');
  assert.ok(notes.some((note) => note.startsWith('Сервис «yandex» часто отвечает так, что ответ не проходит проверку приложения: 7 из 9 (78 %).')), notes.join('\n'));
  assert.ok(notes.some((note) => note.startsWith('Сервис «local» часто не отвечает или отвечает с ошибкой: 3 из 4 (75 %). Нажмите «Проверить подключение» выше.')), notes.join('\n'));
  // The warning comes before the list, so it is read first.
  const before = await page.evaluate(
    () => document.getElementById('stats-attention').compareDocumentPosition(document.getElementById('stats-list')) & Node.DOCUMENT_POSITION_FOLLOWING,
  );
  assert.ok(before > 0);
  const services = await page.$$eval('.stats-services li', (nodes) => nodes.map((node) => node.textContent.replaceAll('\u00a0', ' ')));
  assert.deepEqual(services, [
    '«local»: 4 черновика, готово 1, не прошли проверку 0 из 4 (0 %), ошибок сервиса 3',
    '«yandex»: 9 черновиков, готово 2, не прошли проверку 7 из 9 (78 %), ошибок сервиса 0',
  ]);
  await closePage(page);
});

test('an empty store and a period without drafts say so; a failure shows its message', async () => {
  const page = await openPage(harness, { hash: 'settings', fake: { stats: EMPTY } });
  await page.waitForFunction(() => document.getElementById('stats-status').textContent.startsWith('Черновиков пока нет'));
  assert.equal(await page.$$eval('#stats-list dt', (nodes) => nodes.length), 0);
  await page.selectOption('#stats-period', '7');
  await page.waitForFunction(() => document.getElementById('stats-status').textContent === 'За это время черновиков нет. Выберите период побольше.');
  await page.evaluate(() => {
    window.__fake.statsFailure = 'Не удалось открыть базу черновиков: диск занят. Закройте другие программы и попробуйте снова.';
  });
  await page.selectOption('#stats-period', '');
  await page.waitForFunction(() => document.getElementById('stats-status').textContent.startsWith('Не удалось открыть базу черновиков'));
  await closePage(page);
});

const WINDOWS = [
  { name: '800x600', viewport: { width: 800, height: 600 }, deviceScaleFactor: 1, colorScheme: 'light' },
  { name: '200pct', viewport: { width: 400, height: 300 }, deviceScaleFactor: 2, colorScheme: 'light' },
  { name: 'dark', viewport: { width: 800, height: 600 }, deviceScaleFactor: 1, colorScheme: 'dark' },
];

for (const window of WINDOWS) {
  test(`the panel fits and is accessible at ${window.name}`, async () => {
    const page = await openPage(harness, { hash: 'settings', fake: { stats: TROUBLED }, ...window });
    await shown(page);
    await page.waitForSelector('#stats-attention:not([hidden])');
    await page.$eval('#stats-heading', (heading) => heading.scrollIntoView({ block: 'start' }));
    await screenshot(page, `stats-${window.name}`);
    // The panel alone, whole, as it reads when scrolled through.
    await page.locator('.stats').screenshot({ path: path.join(screenshotDir, `stats-${window.name}-panel.png`) });
    await assertNothingSticksOut(page, '.stats');
    await assertAccessible(page, `Статистика ${window.name}`);
    await closePage(page);
  });
}
