// «Черновики»: the saved drafts, newest first, with search as you type, filters, opening a draft
// into the same result card as a fresh one with its «Подача и ответ» panel (issue 30), and
// deleting with a confirmation dialog. A filed request's line says where its case stands.
// Everything here reads the local store, so it works with no network. «Записать уже поданную
// заявку» (issue 38) records a request filed before Zayavka, its text as filed, and opens it.

import * as ipc from './ipc.js';
import { byId, codeOf, debounce, h, replace } from './dom.js';
import { filingFields } from './case-panel.js';
import { openNextStep, renderResult } from './result.js';
import { OUTCOMES, OUTCOME_LABELS, SUBJECTS, capitalised, formatDate, plural, subjectLabel } from './words.js';

/**
 * @import { DraftDetail, DraftListItem, DueItem, JsonValue, ListFilter }
 *   from './ipc-contract.js'
 * @import { NextAction } from './outcome-panel.js'
 */

/**
 * What this screen asks of the navigation (main.js): the screens a stored draft's next steps
 * lead to, and the form a draft goes back to.
 * @typedef {object} Navigation
 * @property {(screen: 'settings' | 'setup', focusId?: string) => void} show
 * @property {(input: JsonValue) => void} editInForm
 */

const SEARCH_DELAY_MS = 250;
const LIST_LIMIT = 200;

/** @param {Navigation} navigation */
export function setUpDrafts(navigation) {
  const search = byId('drafts-search', HTMLInputElement);
  const outcome = byId('drafts-outcome', HTMLSelectElement);
  const subject = byId('drafts-subject', HTMLSelectElement);
  const list = byId('drafts-list');
  const status = byId('drafts-status');
  const browser = byId('drafts-browser');
  const detail = byId('draft-detail');
  const detailBody = byId('draft-detail-body');

  subject.append(...SUBJECTS.map((s) => h('option', { value: s.kind }, s.label)));

  // Answers can arrive out of order while the resident types; only the latest one is shown.
  let generation = 0;
  /** @type {number | null} */
  let lastOpenedId = null;
  /** @type {Map<number, DueItem>} */
  let cases = new Map();

  async function refresh() {
    generation += 1;
    const mine = generation;
    const text = search.value.trim();
    // Every field sent, `null` for "any" (the contract's convention: null means absent).
    /** @type {ListFilter} */
    const filter = {
      outcome: outcome.value === '' ? null : codeOf(outcome.value, OUTCOMES),
      subject: subject.value === '' ? null : codeOf(subject.value, SUBJECTS.map((choice) => choice.kind)),
      batch_id: null,
      limit: LIST_LIMIT,
    };
    try {
      let drafts;
      if (text === '') {
        drafts = await ipc.draftsList(filter);
      } else {
        // Full-text search takes only the text, so the filters narrow its answer here.
        drafts = (await ipc.draftsSearch(text)).filter(
          (draft) =>
            (filter.outcome === null || draft.outcome === filter.outcome) &&
            (filter.subject === null || draft.subject_module === filter.subject),
        );
      }
      // Where each filed request stands; the list shows without it when it cannot be read.
      const due = await ipc.casesDue().catch(() => null);
      if (mine !== generation) return;
      cases = new Map((due?.cases ?? []).map((item) => [item.draft_id, item]));
      drafts.sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : b.id - a.id));
      renderList(drafts, text);
    } catch (failure) {
      if (mine !== generation) return;
      status.textContent = ipc.messageOf(failure);
    }
  }

  /**
   * @param {DraftListItem[]} drafts
   * @param {string} text the search text, '' when the list is not searched
   */
  function renderList(drafts, text) {
    if (drafts.length === 0) {
      status.textContent = text === '' ? 'Черновиков пока нет. Составленные заявки появятся здесь.' : 'Ничего не нашлось. Попробуйте другое слово.';
    } else {
      status.textContent = `${text === '' ? 'Всего' : 'Найдено'} ${drafts.length} ${plural(drafts.length, ['черновик', 'черновика', 'черновиков'])}.`;
    }
    replace(list, drafts.map(draftItem));
  }

  // Under every title, the first words of the resident's description (issue 14): ten drafts
  // titled alike still look different. A draft without a title shows them in its place.
  /** @param {DraftListItem} draft */
  function draftItem(draft) {
    const title = draft.title ?? draft.preview ?? 'Без заголовка';
    const preview = draft.title !== null && draft.preview ? draft.preview : null;
    const titleId = `draft-title-${draft.id}`;
    const open = h('button', { type: 'button', class: 'open-draft', 'aria-describedby': titleId }, 'Открыть');
    open.addEventListener('click', () => void openDraft(draft.id));
    const remove = h('button', { type: 'button', class: 'danger-quiet', 'aria-describedby': titleId }, 'Удалить');
    remove.addEventListener('click', () => void confirmDelete(draft, title, remove));
    return h(
      'li',
      { class: 'draft-item', dataset: { draftId: String(draft.id) } },
      h(
        'div',
        { class: 'draft-main' },
        h('p', { id: titleId, class: 'draft-title' }, title),
        preview === null ? null : h('p', { class: 'draft-preview' }, preview),
        h(
          'p',
          { class: 'draft-meta' },
          h('span', { class: `chip chip-${draft.outcome}` }, OUTCOME_LABELS[draft.outcome] ?? draft.outcome),
          ' ',
          h('span', {}, formatDate(draft.created_at)),
          // A code the page does not know is shown as it is, as subjectLabel does.
          draft.subject_module ? h('span', {}, ` · ${subjectLabel(draft.subject_module)}`) : null,
          draft.batch_id ? h('span', {}, ' · из пакета') : null,
        ),
        caseLine(cases.get(draft.id)),
      ),
      h('div', { class: 'draft-actions' }, open, remove),
    );
  }

  /** @param {DueItem | undefined} item */
  function caseLine(item) {
    if (!item) return null;
    return h('p', { class: `draft-case${item.state.state === 'overdue' ? ' case-overdue' : ''}` }, `${capitalised(item.filed_ru)} · ${item.state_ru}`);
  }

  // `message` (after a change of the case, or when another draft of the case is opened) is said
  // in the «Подача и ответ» panel, which then has the focus; otherwise the result's heading has.
  /**
   * @param {number} id
   * @param {string} [message]
   */
  async function openDraft(id, message = '') {
    lastOpenedId = id;
    try {
      const opened = await ipc.draftOpen(id);
      // The draft still opens when its case cannot be read; the panel is then left out.
      const caseDetail = await ipc.caseGet(id).catch(() => null);
      browser.hidden = true;
      detail.hidden = false;
      const view = renderResult(detailBody, opened.result, {
        explain: opened.explain,
        case: caseDetail,
        caseActions: {
          onChanged: (_next, said) => void openDraft(id, said),
          onOpenDraft: (other, said) => void openDraft(other, said),
        },
        onNextStep: (action) => nextStep(action, opened),
        onReplaced: () => void refresh(),
      });
      if (message !== '') view.announceCase(message);
      else view.focus();
    } catch (failure) {
      status.textContent = ipc.messageOf(failure);
    }
  }

  /**
   * A stored draft that did not end ready goes back to the form, where it can be sent again.
   * @param {NextAction} action the page's action of a next-step button (outcome-panel.js)
   * @param {DraftDetail} opened
   */
  function nextStep(action, opened) {
    openNextStep(navigation, action, opened.summary.input);
  }

  // Back in the list, focus returns to the «Открыть» of the draft that was open, once the list
  // has been read again (the draft may have changed or been re-assembled meanwhile).
  async function closeDetail() {
    detail.hidden = true;
    browser.hidden = false;
    replace(detailBody);
    await refresh();
    const again = list.querySelector(`[data-draft-id="${lastOpenedId}"] .open-draft`);
    (again instanceof HTMLElement ? again : search).focus();
  }

  /**
   * @param {DraftListItem} draft
   * @param {string} title
   * @param {HTMLButtonElement} button the draft's «Удалить», focused again when the draft is kept
   */
  async function confirmDelete(draft, title, button) {
    const dialog = byId('delete-dialog', HTMLDialogElement);
    byId('delete-dialog-text').textContent = `Черновик «${title}» будет удалён с этого компьютера. Это нельзя отменить.`;
    dialog.returnValue = '';
    dialog.showModal();
    await new Promise((resolve) => dialog.addEventListener('close', resolve, { once: true }));
    if (dialog.returnValue !== 'delete') {
      button.focus();
      return;
    }
    try {
      await ipc.draftDelete(draft.id);
      await refresh();
      status.textContent = `Черновик «${title}» удалён. ${status.textContent}`;
      search.focus();
    } catch (failure) {
      status.textContent = ipc.messageOf(failure);
    }
  }

  // «Записать уже поданную заявку»: the text as it was filed and the filing's facts, checked by
  // Rust; on success the new draft opens with its deadline. What was typed stays in the form
  // until it is recorded.
  const bringIn = byId('bring-in');
  const bringInButton = byId('drafts-bring-in');
  async function showBringIn() {
    if (!bringIn.hidden) {
      bringIn.querySelector('textarea')?.focus();
      return;
    }
    let today;
    try {
      today = (await ipc.casesDue()).today;
    } catch (failure) {
      status.textContent = ipc.messageOf(failure);
      return;
    }
    const fields = filingFields({ today });
    const textId = 'bring-in-text';
    const text = h('textarea', { id: textId, rows: 8, maxlength: 2000, required: true, 'aria-describedby': `${textId}-hint` });
    const error = h('p', { id: 'bring-in-error', class: 'field-error', role: 'alert', hidden: true });
    const form = h(
      'form',
      { class: 'case-form bring-in-form', novalidate: true, 'aria-labelledby': 'bring-in-heading' },
      h('h2', { id: 'bring-in-heading' }, 'Заявка, поданная раньше'),
      h('p', {}, 'Если вы уже подали заявку — на бумаге, через ГИС ЖКХ или по почте, — запишите её: приложение посчитает срок ответа и поможет со следующим письмом. Текст сохранится точно как вы его вставите; модель не используется.'),
      error,
      h(
        'div',
        { class: 'field' },
        h('label', { for: textId }, 'Текст заявки, как вы его подали'),
        text,
        h('p', { id: `${textId}-hint`, class: 'hint' }, 'От 10 до 2000 знаков: сама заявка, без шапки с адресом и подписи.'),
      ),
      fields.nodes,
      h(
        'div',
        { class: 'actions' },
        h('button', { type: 'submit', class: 'primary' }, 'Записать'),
        h('button', { type: 'button', onclick: () => hideBringIn() }, 'Отмена'),
      ),
    );
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      error.hidden = true;
      const invalid = text.value.trim() === '' ? { field: text, message: 'Вставьте или напишите текст заявки, как вы её подали.' } : fields.firstInvalid();
      if (invalid) {
        error.textContent = invalid.message;
        error.hidden = false;
        invalid.field.focus();
        return;
      }
      try {
        const detail = await ipc.caseBringIn(text.value, fields.read());
        hideBringIn();
        await openDraft(detail.draft_id, `Заявка записана как черновик № ${detail.draft_id}: ${detail.deadline_line ?? 'срок ответа посчитан.'}`);
      } catch (failure) {
        error.textContent = ipc.messageOf(failure);
        error.hidden = false;
        text.focus();
      }
    });
    replace(bringIn, form);
    bringIn.hidden = false;
    bringInButton.setAttribute('aria-expanded', 'true');
    text.focus();
  }
  function hideBringIn() {
    bringIn.hidden = true;
    replace(bringIn);
    bringInButton.setAttribute('aria-expanded', 'false');
    bringInButton.focus();
  }
  bringInButton.setAttribute('aria-expanded', 'false');
  bringInButton.setAttribute('aria-controls', 'bring-in');
  bringInButton.addEventListener('click', () => void showBringIn());

  const refreshSoon = debounce(() => void refresh(), SEARCH_DELAY_MS);
  search.addEventListener('input', refreshSoon);
  outcome.addEventListener('change', () => void refresh());
  subject.addEventListener('change', () => void refresh());
  byId('draft-detail-back').addEventListener('click', () => void closeDetail());

  return {
    enter() {
      if (detail.hidden) void refresh();
    },
    /**
     * Opens draft `id` (from «Сроки»).
     * @param {number} id
     */
    open(id) {
      return openDraft(id);
    },
  };
}
