// axe-core on every screen and state, in the light and the dark theme, with a screenshot of each
// at 800×600 and at 200 % zoom (a 400×300 CSS-pixel viewport drawn at twice the density, which is
// what an 800×600 window at 200 % zoom shows) written to target/ui-screenshots/.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertAccessible, closePage, openPage, screenshot, startHarness } from './harness.js';

const LIGHT_OUT = 'В подъезде неделю не горит свет на лестнице между третьим и четвёртым этажами.';

// Each state: how to reach it from a freshly opened page.
const STATES = {
  'new-empty': { hash: 'new', reach: async () => {} },
  'new-invalid': {
    hash: 'new',
    reach: async (page) => {
      await page.fill('#description', 'Темно');
      await page.click('#draft-submit');
      await page.waitForSelector('#description-error:not([hidden])');
    },
  },
  'new-progress': {
    hash: 'new',
    fake: { scenario: 'slow' },
    reach: async (page) => {
      await page.fill('#description', LIGHT_OUT);
      await page.click('#draft-submit');
      await page.waitForSelector('#draft-progress:not([hidden])');
    },
  },
  'new-progress-retry': {
    hash: 'new',
    fake: { scenario: 'busy' },
    reach: async (page) => {
      await page.fill('#description', LIGHT_OUT);
      await page.click('#draft-submit');
      await page.waitForFunction(() =>
        document.querySelector('#draft-progress-state').textContent.includes('через'),
      );
    },
  },
  'new-ready-confirm': {
    hash: 'new',
    reach: async (page) => {
      await page.fill('#description', LIGHT_OUT);
      await page.click('#draft-submit');
      await page.waitForSelector('.confirm-block');
      await page.click('.explain summary');
      await page.waitForSelector('.explain table');
    },
  },
  'new-ready-stale': {
    hash: 'new',
    reach: async (page) => {
      await page.fill('#description', LIGHT_OUT);
      await page.check('input[name="confirmed_subject"][value="common_area_premises_lighting"]');
      await page.click('#draft-submit');
      await page.waitForSelector('.document');
      await page.fill('#description', `${LIGHT_OUT} И на пятом.`);
      await page.waitForSelector('.stale-note:not([hidden])');
    },
  },
  'new-edit': {
    hash: 'new',
    reach: async (page) => {
      await page.fill('#description', LIGHT_OUT);
      await page.click('#draft-submit');
      await page.click('button:text("Редактировать")');
      await page.waitForSelector('.edit-form');
    },
  },
  'new-save-dialog': {
    hash: 'new',
    reach: async (page) => {
      await page.fill('#description', LIGHT_OUT);
      await page.click('#draft-submit');
      await page.click('button:text("Сохранить как…")');
      await page.waitForSelector('#save-dialog[open]');
    },
  },
  'new-no-model': {
    hash: 'new',
    fake: { noProvider: true, setupSkipped: true },
    reach: async (page) => {
      await page.waitForSelector('#subject-offline-note:not([hidden])');
      await page.check('input[name="confirmed_subject"][value="common_area_premises_lighting"]');
      await page.locator('#subject-fieldset legend').scrollIntoViewIfNeeded();
      await page.evaluate(() => document.querySelector('#subject-fieldset').scrollIntoView({ block: 'start', behavior: 'instant' }));
    },
  },
  'new-offline-result': {
    hash: 'new',
    fake: { noProvider: true, setupSkipped: true },
    reach: async (page) => {
      await page.fill('#description', 'в подъезде неделю не горит свет на лестнице между третьим и четвёртым этажами');
      await page.click('#draft-offline');
      await page.waitForSelector('.document');
    },
  },
  'new-rerun-after-failure': {
    hash: 'new',
    fake: { scenario: 'failed' },
    reach: async (page) => {
      await page.fill('#description', LIGHT_OUT);
      await page.click('#draft-submit');
      await page.waitForSelector('.panel-failed');
      await page.evaluate(() => (window.__fake.scenario = 'slow'));
      await page.click('#draft-submit');
      await page.waitForSelector('#draft-progress:not([hidden])');
    },
  },
  'new-needs-user': { hash: 'new', fake: { scenario: 'needs_user' }, reach: submit('.panel-needs_user') },
  'new-rejected': { hash: 'new', fake: { scenario: 'rejected' }, reach: submit('.panel-rejected') },
  'new-failed': { hash: 'new', fake: { scenario: 'failed' }, reach: submit('.panel-failed') },
  'new-no-provider': { hash: 'new', fake: { scenario: 'no_provider' }, reach: submit('.panel-failed') },
  'drafts-list': {
    hash: 'drafts',
    reach: async (page) => {
      await page.waitForSelector('#drafts-list li');
    },
  },
  'drafts-offline-list': {
    hash: 'drafts',
    fake: { offlineDrafts: true },
    reach: async (page) => {
      await page.waitForSelector('#drafts-list li .draft-preview');
    },
  },
  'drafts-offline-open': {
    hash: 'drafts',
    fake: { offlineDrafts: true },
    reach: async (page) => {
      await page.click('#drafts-list li:first-child button:text("Открыть")');
      await page.waitForSelector('#draft-detail .document');
    },
  },
  'drafts-open': {
    hash: 'drafts',
    reach: async (page) => {
      await page.click('#drafts-list li:first-child button:text("Открыть")');
      await page.waitForSelector('#draft-detail .document');
    },
  },
  'drafts-delete-dialog': {
    hash: 'drafts',
    reach: async (page) => {
      await page.click('#drafts-list li:first-child button:text("Удалить")');
      await page.waitForSelector('#delete-dialog[open]');
    },
  },
  'batch-empty': { hash: 'batch', reach: async () => {} },
  'batch-check': {
    hash: 'batch',
    reach: async (page) => {
      await page.click('#batch-choose');
      await page.waitForSelector('#batch-check table');
    },
  },
  'batch-review': {
    hash: 'batch',
    reach: async (page) => {
      await page.click('#batch-choose');
      await page.click('#batch-check button.primary');
      await page.waitForSelector('#batch-review:not([hidden]) table');
    },
  },
  'batch-plan-prices': {
    hash: 'batch',
    fake: { batchPrices: true },
    reach: async (page) => {
      await page.click('#batch-choose');
      await page.waitForSelector('#batch-check .batch-cost');
    },
  },
  'batch-no-model': {
    hash: 'batch',
    fake: { batchNoModel: true },
    reach: async (page) => {
      await page.click('#batch-choose');
      await page.waitForSelector('#batch-check .batch-model-problem');
    },
  },
  'batch-earlier': {
    hash: 'batch',
    fake: { earlierBatch: true },
    reach: async (page) => {
      await page.waitForSelector('#batch-earlier .batch-item');
    },
  },
  'batch-earlier-file-missing': {
    hash: 'batch',
    fake: { earlierBatch: true, batchFileMissing: true },
    reach: async (page) => {
      await page.waitForSelector('#batch-earlier .batch-item .note');
    },
  },
  'batch-continue-plan': {
    hash: 'batch',
    fake: { earlierBatch: true, batchPrices: true },
    reach: async (page) => {
      await page.click('#batch-earlier button:text("Продолжить")');
      await page.waitForSelector('#batch-check:not([hidden]) .batch-cost');
    },
  },
  'batch-rows': {
    hash: 'batch',
    fake: { earlierBatch: true },
    reach: async (page) => {
      await page.click('#batch-earlier button:text("Строки")');
      await page.waitForSelector('#batch-review:not([hidden]) .rows-table');
    },
  },
  settings: {
    hash: 'settings',
    reach: async (page) => {
      await page.waitForSelector('#preset-options input');
    },
  },
  'settings-unsaved': {
    hash: 'settings',
    reach: async (page) => {
      await page.waitForSelector('#preset-options input');
      await page.check('#preset-options input[value="custom"]');
      await page.click('#schema-mode-details summary');
      await page.locator('#provider-status').scrollIntoViewIfNeeded();
    },
  },
  // Issue 15: the service's own fields, shown only for that service.
  'settings-gigachat': {
    hash: 'settings',
    reach: async (page) => {
      await page.waitForSelector('#preset-options input');
      await page.check('#preset-options input[value="gigachat"]');
      await page.waitForSelector('#gigachat-scope-field:not([hidden])');
      await page.evaluate(() => document.querySelector('label[for="gigachat-scope"]').scrollIntoView({ block: 'start' }));
    },
  },
  'settings-yandex': {
    hash: 'settings',
    reach: async (page) => {
      await page.waitForSelector('#preset-options input');
      await page.check('#preset-options input[value="yandex"]');
      await page.fill('#folder-id', 'B1G-не-каталог');
      await page.click('#provider-save');
      await page.waitForSelector('#folder-id-error:not([hidden])');
      await page.evaluate(() => document.querySelector('label[for="folder-id"]').scrollIntoView({ block: 'start' }));
    },
  },
  'settings-leave-dialog': {
    hash: 'settings',
    reach: async (page) => {
      await page.waitForSelector('#preset-options input');
      await page.check('#preset-options input[value="ollama"]');
      await page.click('a[data-screen="new"]');
      await page.waitForSelector('#leave-dialog[open]');
    },
  },
  'settings-close-dialog': {
    hash: 'settings',
    reach: async (page) => {
      await page.waitForSelector('#preset-options input');
      await page.waitForFunction(() => window.__fake.callsOf('window_close_watch').length === 1);
      await page.check('#preset-options input[value="ollama"]');
      await page.fill('#profile-full_name', 'Иванова Анна Петровна');
      await page.waitForFunction(() => window.__fake.unsaved === true);
      await page.evaluate(() => window.__fake.requestClose());
      await page.waitForSelector('#leave-dialog[open]');
    },
  },
  'settings-checked': {
    hash: 'settings',
    reach: async (page) => {
      await page.waitForSelector('#preset-options input');
      await page.fill('#base-url', 'ftp://example');
      await page.click('#provider-save');
      await page.waitForSelector('#base-url-error:not([hidden])');
      await page.click('#connection-check');
      await page.waitForSelector('#doctor-checks li');
    },
  },
};

function submit(selector) {
  return async (page) => {
    await page.fill('#description', LIGHT_OUT);
    await page.click('#draft-submit');
    await page.waitForSelector(selector);
  };
}

const WINDOWS = [
  { name: '800x600', viewport: { width: 800, height: 600 }, deviceScaleFactor: 1, colorScheme: 'light' },
  { name: '200pct', viewport: { width: 400, height: 300 }, deviceScaleFactor: 2, colorScheme: 'light' },
  { name: 'dark', viewport: { width: 800, height: 600 }, deviceScaleFactor: 1, colorScheme: 'dark' },
];

let harness;
before(async () => {
  harness = await startHarness();
});
after(async () => {
  await harness.stop();
});

for (const window of WINDOWS) {
  for (const [name, state] of Object.entries(STATES)) {
    test(`${name} at ${window.name}: no serious accessibility findings, nothing cut off`, async () => {
      const page = await openPage(harness, { ...window, hash: state.hash, fake: state.fake });
      await state.reach(page);
      await assertAccessible(page, `${name} ${window.name}`);
      // Nothing may stick out sideways: a horizontal scrollbar at 200 % means clipped text.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.equal(overflow, 0, 'the page must not scroll sideways');
      await screenshot(page, `${name}-${window.name}`);
      await closePage(page);
    });
  }
}

test('body text is at least 16 px and focus rings are visible', async () => {
  const page = await openPage(harness);
  const sizes = await page.$$eval('p, label, li, button, input, textarea, select, summary', (nodes) =>
    nodes
      .filter((node) => !node.closest('.marker, .chip') && !node.matches('[type=radio], [type=checkbox]') && node.getClientRects().length > 0)
      .map((node) => parseFloat(getComputedStyle(node).fontSize)),
  );
  assert.ok(sizes.length > 20);
  assert.ok(sizes.every((size) => size >= 16), `smallest text is ${Math.min(...sizes)} px`);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle + ' ' + getComputedStyle(document.activeElement).outlineWidth);
  assert.equal(outline, 'solid 3px');
  await closePage(page);
});
