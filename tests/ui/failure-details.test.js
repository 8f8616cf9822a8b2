// Issue 15: a failed draft shows the service's advice as its message and, under a closed
// «Подробности», what failed and what the server answered — as text, never as markup.
//
// The fake IPC's failed outcomes carry no `details`; this file adds them by wrapping the fake's
// `invoke` in the page, so the shared fake stays as it is.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertAccessible, closePage, openPage, startHarness } from './harness.js';

const LIGHT_OUT = 'В подъезде неделю не горит свет на лестнице между третьим и четвёртым этажами.';
const ADVICE =
  'В GigaChat закончились токены: бесплатный объём или купленный пакет израсходован. Купите пакет токенов в личном кабинете developers.sber.ru → Studio → ваш проект или дождитесь нового бесплатного объёма по условиям вашего тарифа. Пока можно составить заявку без модели. Это техническая неудача, а не оценка вашей проблемы.';
// A hostile server's reason: it must be shown as the characters it is.
const SERVER_REASON = '<img src=x onerror="window.__hacked=1"> Payment Required';

let harness;
before(async () => {
  harness = await startHarness();
});
after(async () => {
  await harness.stop();
});

/** Makes the next failed draft_run answer as the engine does for GigaChat's 402. */
async function withDetails(page) {
  await page.evaluate(
    ([advice, serverReason]) => {
      const internals = window.__TAURI_INTERNALS__;
      const invoke = internals.invoke.bind(internals);
      internals.invoke = async (cmd, args) => {
        const answer = await invoke(cmd, args);
        if (cmd !== 'draft_run' || answer?.outcome !== 'failed') return answer;
        return {
          ...answer,
          reason: 'insufficient_quota',
          message: advice,
          next_steps: ['check_provider_account', 'draft_without_model'],
          retryable: false,
          attempts: 1,
          details: { detail: 'на счёте у провайдера закончилась квота (HTTP 402)', server_reason: serverReason },
        };
      };
    },
    [ADVICE, SERVER_REASON],
  );
}

test('issue 15: a failure shows the advice and, under «Подробности», the server’s answer as text', async () => {
  const page = await openPage(harness, { fake: { scenario: 'failed' } });
  await withDetails(page);
  await page.fill('#description', LIGHT_OUT);
  await page.click('#draft-submit');
  await page.waitForSelector('.panel-failed');
  assert.match(await page.textContent('.panel-failed'), /Купите пакет токенов в личном кабинете developers\.sber\.ru/);
  const details = await page.$('.panel-failed details.failure-details');
  assert.ok(details, 'the failure panel has «Подробности»');
  assert.equal(await details.evaluate((node) => node.open), false, '«Подробности» start closed');
  assert.equal(await page.textContent('.failure-details summary'), 'Подробности');
  await page.click('.failure-details summary');
  const text = await page.textContent('.failure-details');
  assert.match(text, /На счёте у провайдера закончилась квота \(HTTP 402\)\./);
  assert.ok(text.includes(`Ответ сервера: ${SERVER_REASON}`), text);
  assert.equal(await page.$$eval('.panel-failed img', (nodes) => nodes.length), 0, 'the server’s words are not markup');
  assert.equal(await page.evaluate(() => window.__hacked), undefined);
  await assertAccessible(page, 'failure with details');
  await closePage(page);
});

test('issue 15: a failure without details shows no «Подробности»', async () => {
  const page = await openPage(harness, { fake: { scenario: 'failed' } });
  await page.fill('#description', LIGHT_OUT);
  await page.click('#draft-submit');
  await page.waitForSelector('.panel-failed');
  assert.equal(await page.$('.failure-details'), null);
  await closePage(page);
});
