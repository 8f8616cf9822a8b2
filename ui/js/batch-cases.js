// A batch after it is filed (issue 30): how many rows were filed, answered, are overdue and
// solved; marking the ready rows (all, or the ones named) filed in one step; and writing the
// repeat requests or the complaints for the overdue and unsolved rows into a folder, one
// document per row. Shown under a batch's rows on «Пакет».

import * as ipc from './ipc.js';
import { codeOf, freshId, h, replace } from './dom.js';
import { filingFields } from './case-panel.js';

/** @import { CaseCounts, FollowUpKind, SaveFormat } from './ipc-contract.js' */

/**
 * The letters a batch's next step writes, as its select offers them.
 * @type {readonly FollowUpKind[]}
 */
const LETTER_KINDS = ['repeat', 'complaint'];
/**
 * The formats its letters are saved in, as its select offers them.
 * @type {readonly SaveFormat[]}
 */
const LETTER_FORMATS = ['pdf', 'docx', 'txt'];

/** @param {CaseCounts} counts `batch_cases`' answer, or `batch_file`'s `cases` */
function countsSentence(counts) {
  if (counts.filed === 0) return 'Ни одна заявка пакета ещё не отмечена как поданная.';
  return `Подано: ${counts.filed}; ответ получен: ${counts.answered}; просрочено: ${counts.overdue}; решено: ${counts.solved}.`;
}

/**
 * Row numbers as the resident types them: «2, 5, 7» or «2 5 7»; null when one is not a number.
 * @param {string} text
 * @returns {number[] | null}
 */
function parseRows(text) {
  const parts = text.split(/[\s,;]+/).filter(Boolean);
  const rows = parts.map((part) => Number.parseInt(part, 10));
  return rows.every((row, index) => Number.isInteger(row) && row >= 1 && String(row) === parts[index]) ? rows : null;
}

/**
 * The section «После подачи» of batch `number`.
 * @param {number} number
 */
export function batchCases(number) {
  const counts = h('p', { role: 'status' });
  const filing = h('div', {});
  const refresh = async () => {
    try {
      const answer = await ipc.batchCases(number);
      counts.textContent = countsSentence(answer);
      if (filing.childElementCount === 0) replace(filing, fileForm(answer.today));
    } catch (failure) {
      counts.textContent = ipc.messageOf(failure);
    }
  };

  // Marking filed: the form is built once today is known (the app's today, ZAYAVKA_TODAY).
  /** @param {string} today */
  const fileForm = (today) => {
    const fields = filingFields({ today });
    const rowsId = freshId('batch-file-rows');
    const rowsInput = h('input', { id: rowsId, type: 'text', inputmode: 'numeric', autocomplete: 'off', 'aria-describedby': `${rowsId}-hint` });
    const fileStatus = h('p', { role: 'status' });
    const fileError = h('p', { class: 'field-error', role: 'alert', hidden: true });
    const form = h(
      'form',
      { class: 'case-form', novalidate: true },
      h('h4', {}, 'Отметить поданными'),
      fileError,
      fields.nodes,
      h(
        'div',
        { class: 'field' },
        h('label', { for: rowsId }, 'Какие строки ', h('span', { class: 'optional' }, '(пусто — все готовые)')),
        rowsInput,
        h('p', { id: `${rowsId}-hint`, class: 'hint' }, 'Номера строк файла через запятую, например: 2, 5, 7.'),
      ),
      h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Отметить поданными')),
      fileStatus,
    );
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      fileError.hidden = true;
      const invalid = fields.firstInvalid();
      const rows = parseRows(rowsInput.value);
      if (invalid || rows === null) {
        fileError.textContent = invalid ? invalid.message : 'Номера строк — целые числа от 1 через запятую, как в файле пакета.';
        fileError.hidden = false;
        (invalid ? invalid.field : rowsInput).focus();
        return;
      }
      try {
        const report = await ipc.batchFile(number, rows, fields.read());
        fileStatus.textContent = report.message;
        counts.textContent = countsSentence(report.cases);
      } catch (failure) {
        fileError.textContent = ipc.messageOf(failure);
        fileError.hidden = false;
      }
    });
    return form;
  };

  // The next letters.
  const kindId = freshId('batch-letter-kind');
  const kind = h(
    'select',
    { id: kindId },
    h('option', { value: 'repeat' }, 'Повторные заявки в управляющую организацию'),
    h('option', { value: 'complaint' }, 'Жалобы в жилищную инспекцию'),
  );
  const inspectorateId = freshId('batch-inspectorate');
  const inspectorate = h('input', { id: inspectorateId, type: 'text', maxlength: 300, autocomplete: 'organization' });
  const inspectorateField = h('div', { class: 'field', hidden: true }, h('label', { for: inspectorateId }, 'Жилищная инспекция вашего региона'), inspectorate);
  kind.addEventListener('change', () => {
    inspectorateField.hidden = kind.value !== 'complaint';
  });
  const formatId = freshId('batch-letter-format');
  const format = h(
    'select',
    { id: formatId },
    h('option', { value: 'pdf' }, 'PDF'),
    h('option', { value: 'docx' }, 'DOCX'),
    h('option', { value: 'txt' }, 'Текст (TXT)'),
  );
  const letterStatus = h('p', { role: 'status' });
  const write = h('button', { type: 'button' }, 'Написать письма…');
  write.addEventListener('click', async () => {
    try {
      const letter = codeOf(kind.value, LETTER_KINDS);
      const report = await ipc.batchFollowUp(number, letter, letter === 'complaint' ? inspectorate.value : null, codeOf(format.value, LETTER_FORMATS));
      letterStatus.textContent = report === null ? 'Письма не записаны: папка не выбрана.' : report.message;
      void refresh();
    } catch (failure) {
      letterStatus.textContent = ipc.messageOf(failure);
    }
  });

  const section = h(
    'div',
    { class: 'export batch-cases' },
    h('h3', {}, 'После подачи'),
    counts,
    filing,
    h('h4', {}, 'Письма по просроченным и нерешённым'),
    h('p', { class: 'note' }, 'Для строк, где срок ответа истёк или ответ не решил проблему. Письма пишутся по записанным сведениям, без модели; каждое сохраняется и как черновик.'),
    h('div', { class: 'field' }, h('label', { for: kindId }, 'Что написать'), kind),
    inspectorateField,
    h('div', { class: 'field' }, h('label', { for: formatId }, 'Формат'), format),
    h('div', { class: 'actions' }, write),
    letterStatus,
  );
  void refresh();
  return section;
}
