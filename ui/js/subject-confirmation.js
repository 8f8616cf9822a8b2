// «К чему относится проблема?» under a ready request whose resident confirmed no subject (the
// `confirm_subject` next step): the subject choice, never pre-filled, and «Пересобрать заявку»,
// which has Rust assemble the request again from the stored answer (`draft_reassemble`).

import * as ipc from './ipc.js';
import { codeOf, freshId, h } from './dom.js';
import { SUBJECTS } from './words.js';

/** @import { DraftResult } from './ipc-contract.js' */

/**
 * The question for draft `draftId`; `onReassembled(result)` gets the new DraftResult.
 * @param {number} draftId
 * @param {(result: DraftResult) => void} onReassembled
 */
export function subjectConfirmation(draftId, onReassembled) {
  const name = freshId('confirm-subject');
  const errorId = freshId('confirm-subject-error');
  const error = h('p', { id: errorId, class: 'field-error', hidden: true });
  const options = SUBJECTS.map((subject) => {
    const hintId = freshId('confirm-hint');
    return h(
      'div',
      { class: 'choice-block' },
      h(
        'label',
        { class: 'choice' },
        h('input', { type: 'radio', name, value: subject.kind, 'aria-describedby': hintId }),
        ` ${subject.label}`,
      ),
      h('p', { id: hintId, class: 'hint' }, subject.hint),
    );
  });
  const fieldset = h(
    'fieldset',
    { class: 'subjects confirm', 'aria-describedby': errorId },
    h('legend', {}, 'К чему относится проблема?'),
    h('p', { class: 'note' }, 'Если выбрать вид проблемы, приложение пересоберёт заявку из уже полученного ответа, без нового обращения к модели, и добавит абзац с нормой, если ваш текст это подтверждает.'),
    options,
    error,
  );
  const button = h('button', { type: 'button' }, 'Пересобрать заявку');
  button.addEventListener('click', async () => {
    const chosen = fieldset.querySelector(`input[name="${name}"]:checked`);
    if (!(chosen instanceof HTMLInputElement)) {
      error.textContent = 'Выберите, к чему относится проблема, и нажмите «Пересобрать заявку» ещё раз.';
      error.hidden = false;
      fieldset.querySelector('input')?.focus();
      return;
    }
    error.hidden = true;
    button.disabled = true;
    try {
      onReassembled(await ipc.draftReassemble(draftId, codeOf(chosen.value, SUBJECTS.map((subject) => subject.kind))));
    } catch (failure) {
      error.textContent = ipc.messageOf(failure);
      error.hidden = false;
      button.disabled = false;
    }
  });
  return h('div', { class: 'confirm-block' }, fieldset, h('div', { class: 'actions' }, button));
}
