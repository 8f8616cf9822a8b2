// Every Russian word the page decides itself: outcomes, provenance, next steps. The Rust side
// sends typed codes and its own sentences; how a code reads on screen is decided here, in one
// place, so the wording stays consistent between screens.

// What Rust decides — subjects, field labels, the item's heading — comes generated from the
// crates (rust-words.js); what follows is the page's own.
import { SUBJECTS } from './rust-words.js';

/**
 * @import { CheckStatus, DraftOutcome, ItemSource, Provenance, TitleSource }
 *   from './ipc-contract.js'
 */

export { ANSWER_RESULTS, FIELD_LABELS, FILING_METHODS, REQUEST_HEADING, SUBJECTS } from './rust-words.js';

/**
 * A subject's short name; a code this version does not know (a draft stored by a newer one) is
 * shown as it is.
 * @param {string} kind
 * @returns {string}
 */
export function subjectLabel(kind) {
  return SUBJECTS.find((subject) => subject.kind === kind)?.label ?? kind;
}

/**
 * Status chips: short, and never a verdict on the resident's problem.
 * @type {Record<DraftOutcome, string>}
 */
export const OUTCOME_LABELS = {
  ready: 'Готова',
  needs_user: 'Нужно уточнить',
  rejected: 'Не составлена',
  failed: 'Техническая неудача',
  invalid_input: 'Нужно исправить поля',
  pending: 'Прервана',
};

/**
 * Every outcome, in the order of its labels. The cast only names what `Object.keys` cannot:
 * the labels are a complete `Record` over `DraftOutcome`, so their keys are exactly the outcomes.
 */
export const OUTCOMES = /** @type {DraftOutcome[]} */ (Object.keys(OUTCOME_LABELS));

/**
 * What a marker over a paragraph names: a section's `source`, the item's `source`, or the
 * page's own two for a text the resident edited or brought in.
 * @typedef {Provenance | ItemSource | 'edited' | 'brought_in'} MarkerSource
 */

/**
 * The legend of provenance markers, keyed by section `source` and item `source`.
 * @type {Record<MarkerSource, string>}
 */
export const SOURCE_LABELS = {
  resident: 'ваши слова',
  model: 'описание, составленное моделью',
  legal_catalogue: 'нормативный текст',
  recorded_facts: 'по записанным сведениям о подаче',
  resident_request: 'ваше требование',
  generic: 'общая формулировка',
  inspection: 'просьба к инспекции',
  edited: 'изменено вами',
  brought_in: 'текст, как вы его подали',
};

/**
 * The marker over a request's title, keyed by its `title_source`.
 * @type {Record<TitleSource, string>}
 */
export const TITLE_SOURCE_LABELS = {
  resident: 'заголовок — ваши слова',
  model: 'заголовок составлен моделью',
  standard: 'стандартный заголовок',
  recorded_facts: 'заголовок по первой заявке',
};

/**
 * Panel headings per outcome: what happened, calmly. A ready draft has no panel.
 * @type {Record<Exclude<DraftOutcome, 'ready'>, string>}
 */
export const PANEL_HEADINGS = {
  needs_user: 'Нужно уточнить описание',
  rejected: 'Черновик не показан',
  failed: 'Не удалось составить заявку',
  invalid_input: 'Проверьте поля формы',
  pending: 'Составление прервалось',
};

// Shown until the first progress message arrives; later lines come worded from Rust.
export const PROGRESS_FIRST = 'Модель составляет описание…';

/** @type {Record<CheckStatus, string>} */
export const CHECK_STATUS_LABELS = {
  ok: 'В порядке',
  warning: 'Обратите внимание',
  problem: 'Нужно исправить',
};

/**
 * Russian plural: plural(5, ['заявка', 'заявки', 'заявок']) → 'заявок'.
 * @param {number} count
 * @param {readonly string[]} forms the forms for one, for a few and for many
 * @returns {string}
 */
export function plural(count, [one, few, many]) {
  const tens = count % 100;
  const units = count % 10;
  if (tens >= 11 && tens <= 14) return many;
  if (units === 1) return one;
  if (units >= 2 && units <= 4) return few;
  return many;
}

const DATE_FORMAT = new Intl.DateTimeFormat('ru-RU', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/**
 * A moment as the page writes it; a text that is not a date stays as it is.
 * @param {string} rfc3339
 * @returns {string}
 */
export function formatDate(rfc3339) {
  const date = new Date(rfc3339);
  return Number.isNaN(date.getTime()) ? rfc3339 : DATE_FORMAT.format(date);
}

/**
 * @param {number} milliseconds
 * @returns {string}
 */
export function formatSeconds(milliseconds) {
  const seconds = Math.floor(milliseconds / 1000);
  if (seconds < 60) return `${seconds} с`;
  return `${Math.floor(seconds / 60)} мин ${seconds % 60} с`;
}

/**
 * «ждём ответа до 17 декабря» → «Ждём ответа до 17 декабря»: a phrase from Rust as a sentence start.
 * @param {string} text
 * @returns {string}
 */
export function capitalised(text) {
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

/**
 * A count as a Russian text writes it (issue 31), as the core's `group_digits`: from five digits
 * on, groups of three joined by a no-break space («14 692»); four digits stay whole («2500»).
 * @param {number} number
 * @returns {string}
 */
export function count(number) {
  const digits = String(number);
  return digits.length < 5 ? digits : digits.replace(/\B(?=(\d{3})+(?!\d))/g, '\u00a0');
}
