// The calm panel of a draft that did not end ready (`needs_user`, `rejected`, `failed`,
// `invalid_input`, `pending`): what happened in Rust's message, the model's hints, the refused
// fields under the labels Rust gives them, «Подробности» of a technical failure, and the next
// steps as text and buttons. Rust sends each next step as a code; the page words it here.

import { h, unhandled } from './dom.js';
import { PANEL_HEADINGS } from './words.js';

/**
 * @import { DraftOutcome, DraftResult, FailureDetails, NextStep } from './ipc-contract.js'
 * @import { Child } from './dom.js'
 */

/**
 * What a next-step button asks the owning screen to do.
 * @typedef {'retry' | 'draft_without_model' | 'open_settings' | 'open_setup' | 'store_api_key'
 *   | 'focus_description'} NextAction
 */

/**
 * The panel of `result`, headed by an element with id `headingId`. `onAction(action)` gets the
 * page's action of a next-step button: `retry`, `draft_without_model`, `open_settings`,
 * `open_setup` (the setup wizard), `store_api_key` or `focus_description`.
 * @param {DraftResult} result
 * @param {string} headingId
 * @param {(action: NextAction) => void} onAction
 * @returns {HTMLDivElement}
 */
export function outcomePanel(result, headingId, onAction) {
  const heading = h('h2', { id: headingId, class: 'result-heading', tabindex: '-1' }, panelHeading(result.outcome));
  /** @type {Child[]} */
  const parts = [heading, h('p', { class: 'keep-lines' }, result.message)];
  if (result.hints.length > 0) {
    parts.push(h('ul', { class: 'hints' }, result.hints.map((hint) => h('li', {}, hint))));
  }
  if (result.outcome === 'invalid_input' && result.errors.length > 0) {
    parts.push(
      h(
        'ul',
        { class: 'error-list' },
        result.errors.map((error) => h('li', {}, `${error.label ?? error.field}: ${error.message}`)),
      ),
    );
  }
  if (result.details) parts.push(failureDetails(result.details));
  parts.push(nextStepsView(result.next_steps, onAction));
  parts.push(h('p', { class: 'note' }, 'Всё, что вы написали, осталось в форме и сохранено.'));
  return h('div', { class: `panel panel-${result.outcome}`, role: 'region', 'aria-labelledby': headingId }, parts);
}

/**
 * The panel's heading. A ready draft has a panel only when its request did not come.
 * @param {DraftOutcome} outcome
 * @returns {string}
 */
function panelHeading(outcome) {
  switch (outcome) {
    case 'ready':
      return 'Заявка не составлена';
    case 'needs_user':
    case 'rejected':
    case 'failed':
    case 'invalid_input':
    case 'pending':
      return PANEL_HEADINGS[outcome];
    default:
      return unhandled(outcome);
  }
}

/**
 * «Подробности» of a technical failure: what failed and what the server answered, closed until
 * the resident opens it. The server's words are set as text, never as markup.
 * @param {FailureDetails} details
 */
function failureDetails(details) {
  const lines = [];
  if (details.detail) lines.push(h('p', {}, sentence(details.detail)));
  if (details.server_reason) {
    lines.push(h('p', {}, 'Ответ сервера: ', h('span', { class: 'server-reason' }, details.server_reason)));
  }
  return h('details', { class: 'failure-details' }, h('summary', {}, 'Подробности'), lines);
}

/**
 * A detail as a sentence: capitalised, ending in one full stop.
 * @param {string} text
 */
function sentence(text) {
  const trimmed = text.trim().replace(/\.+$/, '');
  return trimmed.length === 0 ? '' : `${trimmed[0].toUpperCase()}${trimmed.slice(1)}.`;
}

// What each next step says and which button it gives, if any: every step Rust may send is
// here, so a new one is a type error until the page words it. `confirm_subject` has neither:
// the ready result asks that question under the text (subject-confirmation.js).

/** @type {Record<NextStep, string | null>} */
const STEP_TEXT = {
  describe_one_problem: 'Опишите одну проблему — для второй составьте отдельную заявку.',
  add_details: 'Допишите, что именно случилось, где и как давно.',
  shorten_text: 'Сократите описание: приложение не обрезает текст само.',
  fix_input: 'Исправьте поля, отмеченные в форме.',
  retry_later: 'Подождите минуту и попробуйте снова.',
  check_provider_account: 'Проверьте баланс или квоту в личном кабинете сервиса модели.',
  retry: null,
  draft_without_model: null,
  configure_provider: null,
  check_provider_settings: null,
  switch_schema_mode: null,
  store_api_key: null,
  confirm_subject: null,
};

/** @type {Record<NextStep, [NextAction, string] | null>} */
const STEP_BUTTONS = {
  retry: ['retry', 'Попробовать ещё раз'],
  retry_later: ['retry', 'Попробовать ещё раз'],
  draft_without_model: ['draft_without_model', 'Составить без модели'],
  configure_provider: ['open_setup', 'Мастер подключения'],
  check_provider_settings: ['open_settings', 'Открыть настройки'],
  switch_schema_mode: ['open_settings', 'Открыть настройки'],
  store_api_key: ['store_api_key', 'Задать ключ'],
  describe_one_problem: ['focus_description', 'Перейти к описанию'],
  add_details: ['focus_description', 'Перейти к описанию'],
  shorten_text: ['focus_description', 'Перейти к описанию'],
  fix_input: null,
  check_provider_account: null,
  confirm_subject: null,
};

/**
 * The next steps as text and buttons, each button once.
 * @param {NextStep[]} steps
 * @param {(action: NextAction) => void} onAction
 */
function nextStepsView(steps, onAction) {
  const texts = [];
  /** @type {Map<NextAction, string>} */
  const buttons = new Map();
  for (const step of steps) {
    const text = STEP_TEXT[step];
    if (text) texts.push(text);
    const button = STEP_BUTTONS[step];
    if (button && !buttons.has(button[0])) buttons.set(button[0], button[1]);
  }
  return h(
    'div',
    { class: 'next-steps' },
    texts.map((text) => h('p', {}, text)),
    buttons.size > 0
      ? h(
          'div',
          { class: 'actions' },
          [...buttons].map(([action, label], index) =>
            h('button', { type: 'button', class: index === 0 ? 'primary' : null, dataset: { action }, onclick: () => onAction(action) }, label),
          ),
        )
      : null,
  );
}
