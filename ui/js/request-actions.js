// What the resident can do with a ready request: «Скопировать», and for a stored draft
// «Сохранить как…», «Печать» and «Редактировать» with the «Коллективная заявка» choice for the
// saved and printed document. One status line under them says how the last action went.

import * as ipc from './ipc.js';
import { byId, freshId, h } from './dom.js';
import { renderPrintDocument } from './print-document.js';

/** @import { DraftResult, Edited, SaveFormat } from './ipc-contract.js' */

/**
 * The title and body on screen: the resident's edit when there is one, else Rust's own.
 * @typedef {Pick<Edited, 'title' | 'body'>} ShownText
 */

/**
 * The action buttons, the collective choice (stored drafts only) and the status line, in the
 * order the result shows them. `shown` is the title and body on screen (the resident's edit,
 * if any); `onEdit(draftId)` opens the edit form, null when the text may not be edited.
 * @param {DraftResult} result
 * @param {ShownText} shown
 * @param {((draftId: number) => void) | null} onEdit
 * @returns {HTMLElement[]}
 */
export function requestActions(result, shown, onEdit) {
  const status = h('p', { class: 'quiet', role: 'status' });
  const actions = h(
    'div',
    { class: 'actions' },
    h('button', { type: 'button', class: 'primary', onclick: () => copy(shown, status) }, 'Скопировать'),
  );
  if (result.draft_id === null) return [actions, status];
  const draftId = result.draft_id;
  const collectiveId = freshId('collective');
  const collective = h('input', { type: 'checkbox', id: collectiveId, 'aria-describedby': `${collectiveId}-hint` });
  actions.append(
    h('button', { type: 'button', onclick: () => saveAs(draftId, collective.checked, status) }, 'Сохранить как…'),
    h('button', { type: 'button', onclick: () => print(draftId, collective.checked, status) }, 'Печать'),
  );
  if (onEdit !== null) actions.append(h('button', { type: 'button', onclick: () => onEdit(draftId) }, 'Редактировать'));
  return [
    actions,
    h(
      'div',
      { class: 'collective' },
      h('label', { class: 'choice', for: collectiveId }, collective, ' Коллективная заявка'),
      h('p', { id: `${collectiveId}-hint`, class: 'hint' }, 'В сохранённый и распечатанный документ добавится таблица, где соседи впишут свои ФИО и квартиры и распишутся.'),
    ),
    status,
  ];
}

/**
 * Copies the plain text Rust rendered — the title, a blank line, the body — never the card's.
 * @param {ShownText} shown
 * @param {HTMLElement} status
 */
async function copy(shown, status) {
  try {
    await ipc.clipboardWrite(`${shown.title}\n\n${shown.body}`);
    status.textContent = 'Текст заявки скопирован. Вставьте его в письмо или на сайт управляющей компании.';
  } catch (failure) {
    status.textContent = ipc.messageOf(failure);
  }
}

/**
 * Asks for the format in the page's dialog, then saves through Rust's own save dialog.
 * @param {number} draftId
 * @param {boolean} collective
 * @param {HTMLElement} status
 */
function saveAs(draftId, collective, status) {
  const dialog = byId('save-dialog', HTMLDialogElement);
  dialog.returnValue = '';
  const onClose = async () => {
    dialog.removeEventListener('close', onClose);
    if (dialog.returnValue !== 'save') return;
    try {
      const format = chosenFormat(dialog);
      const path = await ipc.draftSaveAs(draftId, format, collective);
      status.textContent = path === null ? 'Сохранение отменено.' : `Заявка сохранена: ${path}`;
    } catch (failure) {
      status.textContent = ipc.messageOf(failure);
    }
  };
  dialog.addEventListener('close', onClose);
  dialog.showModal();
}

/**
 * Prints the filed document — the same header, text, date and signature line as the saved
 * PDF — through the system's print dialog. The page lays the document out in a block that only
 * paper shows, so what is printed is the document, not the app.
 * @param {number} draftId
 * @param {boolean} collective
 * @param {HTMLElement} status
 */
async function print(draftId, collective, status) {
  try {
    const filed = await ipc.draftDocument(draftId, collective);
    renderPrintDocument(filed);
    status.textContent = 'Открывается окно печати.';
    await ipc.printPage();
    status.textContent = '';
  } catch (failure) {
    status.textContent = ipc.messageOf(failure);
  }
}

/**
 * The format checked in the save dialog, whose radios carry the `SaveFormat` codes
 * (index.html); PDF, the one it starts with, when none is checked.
 * @param {HTMLDialogElement} dialog
 * @returns {SaveFormat}
 */
function chosenFormat(dialog) {
  const checked = dialog.querySelector('input[name="format"]:checked');
  const value = checked instanceof HTMLInputElement ? checked.value : 'pdf';
  if (value === 'pdf' || value === 'docx' || value === 'txt') return value;
  // The page and the code disagree about the formats: fail loudly, as `byId` does.
  throw new Error(`#save-dialog offers an unknown format ${value}`);
}

