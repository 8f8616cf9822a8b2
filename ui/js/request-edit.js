// «Редактировать»: the form in which the resident rewrites the request's title and body. Rust
// records the edit as the resident's version (`draft_edit`) and answers with the draft as it
// now stands; the original text stays in the draft's history.

import * as ipc from './ipc.js';
import { freshId, h, replace } from './dom.js';

/**
 * @import { DraftDetail } from './ipc-contract.js'
 * @import { ShownText } from './request-actions.js'
 */

/**
 * Shows the edit form in `container` in place of the result, with `shown` (the title and body
 * on screen) to start from, and moves focus to the title. `onSaved(detail)` gets `draft_edit`'s
 * DraftDetail; `onCancel()` goes back without saving.
 * @param {HTMLElement} container
 * @param {number} draftId
 * @param {ShownText} shown
 * @param {{ onSaved: (detail: DraftDetail) => void, onCancel: () => void }} handlers
 */
export function showEditForm(container, draftId, shown, { onSaved, onCancel }) {
  const titleId = freshId('edit-title');
  const bodyId = freshId('edit-body');
  const errorId = freshId('edit-error');
  const title = h('input', { id: titleId, type: 'text', 'aria-describedby': errorId });
  const body = h('textarea', { id: bodyId, rows: '16', 'aria-describedby': errorId });
  title.value = shown.title;
  body.value = shown.body;
  const error = h('p', { id: errorId, class: 'field-error', hidden: true });
  const save = h('button', { type: 'submit', class: 'primary' }, 'Сохранить изменения');
  const cancel = h('button', { type: 'button', onclick: () => onCancel() }, 'Отмена');
  const form = h(
    'form',
    { class: 'edit-form', novalidate: true },
    h('h2', { class: 'result-heading', tabindex: '-1' }, 'Редактирование заявки'),
    h('p', { class: 'note' }, 'Ваши правки сохранятся как ваша версия; исходный текст останется в истории черновика.'),
    h('div', { class: 'field' }, h('label', { for: titleId }, 'Заголовок'), title),
    h('div', { class: 'field' }, h('label', { for: bodyId }, 'Текст заявки'), body),
    error,
    h('div', { class: 'actions' }, save, cancel),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    save.disabled = true;
    try {
      onSaved(await ipc.draftEdit(draftId, title.value, body.value));
    } catch (failure) {
      // ipc.js rejects with an IpcError, whose message is for the resident.
      error.textContent = ipc.messageOf(failure);
      error.hidden = false;
      save.disabled = false;
      title.focus();
    }
  });
  replace(container, form);
  title.focus();
}
