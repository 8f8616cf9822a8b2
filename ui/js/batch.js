// «Пакет»: choose a file, see the row-by-row check before anything is sent, send with progress
// and cancel, resume by sending again (finished rows are skipped by the Rust side), review each
// row's draft and export the results.

import * as ipc from './ipc.js';
import { byId, h, replace } from './dom.js';
import { renderResult } from './result.js';
import { FIELD_LABELS, OUTCOME_LABELS, plural } from './words.js';

const REQUESTS = ['заявку', 'заявки', 'заявок'];

export function setUpBatch(navigation) {
  const status = byId('batch-status');
  const checkBlock = byId('batch-check');
  const runBlock = byId('batch-run');
  const bar = byId('batch-progress-bar');
  const progressText = byId('batch-progress-text');
  const cancelButton = byId('batch-cancel');
  const review = byId('batch-review');
  const detail = byId('batch-detail');
  const detailBody = byId('batch-detail-body');

  let check = null;
  let running = null;
  let lastOpenedButton = null;

  byId('batch-choose').addEventListener('click', () => void choose());
  cancelButton.addEventListener('click', () => void cancel());
  byId('batch-detail-back').addEventListener('click', () => {
    detail.hidden = true;
    replace(detailBody);
    review.hidden = false;
    lastOpenedButton?.focus();
  });

  async function choose() {
    try {
      const path = await ipc.batchChooseFile();
      if (path === null) {
        status.textContent = 'Файл не выбран.';
        return;
      }
      status.textContent = 'Проверяем строки файла…';
      check = await ipc.batchCheck(path);
      status.textContent = `Файл «${check.file_name}» проверен.`;
      review.hidden = true;
      runBlock.hidden = true;
      renderCheck();
      checkBlock.querySelector('h2').focus();
    } catch (failure) {
      status.textContent = failure.message;
    }
  }

  function toSend() {
    return Math.max(0, check.valid - check.already_done);
  }

  function renderCheck() {
    const count = toSend();
    const summary = [
      `Строк в файле: ${check.rows}.`,
      `Можно отправить: ${check.valid}.`,
      check.invalid.length > 0 ? `С ошибками: ${check.invalid.length} — они отправлены не будут.` : 'Ошибок нет.',
      check.already_done > 0 ? `Уже составлены раньше: ${check.already_done} — повторно не отправляются.` : null,
    ].filter(Boolean);
    const parts = [h('h2', { tabindex: '-1' }, 'Проверка строк'), h('ul', { class: 'plain-list' }, summary.map((line) => h('li', {}, line)))];
    if (check.invalid.length > 0) {
      parts.push(
        h(
          'table',
          { class: 'table' },
          h('caption', {}, 'Строки с ошибками: исправьте их в файле и выберите его снова'),
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Строка'), h('th', { scope: 'col' }, 'Поле'), h('th', { scope: 'col' }, 'Что не так'))),
          h(
            'tbody',
            {},
            check.invalid.flatMap((row) =>
              row.errors.map((error, index) =>
                h(
                  'tr',
                  { class: 'invalid-row' },
                  index === 0 ? h('th', { scope: 'row', rowspan: String(row.errors.length) }, String(row.row)) : null,
                  h('td', {}, FIELD_LABELS[error.field] ?? error.field),
                  h('td', {}, error.message),
                ),
              ),
            ),
          ),
        ),
      );
    }
    if (count > 0) {
      const send = h('button', { type: 'button', class: 'primary' }, `Отправить ${count} ${plural(count, REQUESTS)}`);
      send.addEventListener('click', () => void run());
      parts.push(
        h('p', { class: 'note' }, 'Описания из строк уйдут выбранному в настройках сервису модели, по одному на заявку.'),
        h('div', { class: 'actions' }, send),
      );
    } else {
      parts.push(h('p', {}, 'Отправлять нечего: все подходящие строки уже составлены.'));
    }
    replace(checkBlock, ...parts);
    checkBlock.hidden = false;
  }

  async function run() {
    if (running) return;
    running = { taskId: ipc.newTaskId() };
    runBlock.hidden = false;
    review.hidden = true;
    for (const button of checkBlock.querySelectorAll('button')) button.disabled = true;
    cancelButton.hidden = false;
    showProgress({ done: 0, total: toSend(), ready: 0, needs_user: 0, rejected: 0, failed: 0 });
    cancelButton.focus();
    try {
      const summary = await ipc.batchRun(check.batch_id, running.taskId, showProgress);
      showProgress(summary);
      await renderReview(summary);
    } catch (failure) {
      progressText.textContent = failure.message;
    } finally {
      running = null;
      cancelButton.hidden = true;
      for (const button of checkBlock.querySelectorAll('button')) button.disabled = false;
    }
  }

  async function cancel() {
    if (!running) return;
    progressText.textContent = 'Останавливаем отправку… Прерванные строки отправятся, когда вы продолжите.';
    try {
      await ipc.batchCancel(running.taskId);
    } catch (failure) {
      progressText.textContent = failure.message;
    }
  }

  function showProgress(progress) {
    bar.max = Math.max(progress.total, 1);
    bar.value = progress.done;
    progressText.textContent =
      `Обработано ${progress.done} из ${progress.total}: готовы ${progress.ready}, ` +
      `нужно уточнить ${progress.needs_user}, не составлены ${progress.rejected}, технические неудачи ${progress.failed}.`;
  }

  async function renderReview(summary) {
    const finished = summary.done >= summary.total;
    const parts = [h('h2', { tabindex: '-1' }, finished ? 'Пакет обработан' : 'Отправка остановлена')];
    if (!finished) {
      const resume = h('button', { type: 'button', class: 'primary' }, 'Продолжить отправку');
      resume.addEventListener('click', () => void run());
      parts.push(
        h('p', {}, `Обработано ${summary.done} из ${summary.total}. Уже составленные заявки сохранены и повторно не отправляются.`),
        h('div', { class: 'actions' }, resume),
      );
    }
    if (summary.cost !== null) {
      const cost = new Intl.NumberFormat('ru-RU', { style: 'currency', currency: 'USD', maximumFractionDigits: 4 }).format(summary.cost);
      parts.push(h('p', { class: 'note' }, `Стоимость по данным сервиса: ${cost}.`));
    }
    try {
      const drafts = await ipc.draftsList({ outcome: null, subject: null, batch_id: summary.batch_id, limit: 1000 });
      parts.push(
        h(
          'table',
          { class: 'table' },
          h('caption', {}, 'Заявки пакета'),
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Заявка'), h('th', { scope: 'col' }, 'Состояние'), h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Действие')))),
          h(
            'tbody',
            {},
            drafts.map((draft) => {
              const open = h('button', { type: 'button' }, 'Открыть');
              open.addEventListener('click', () => void openDraft(draft.id, open));
              return h(
                'tr',
                {},
                h('td', {}, draft.title ?? draft.input.description ?? ''),
                h('td', {}, h('span', { class: `chip chip-${draft.outcome}` }, OUTCOME_LABELS[draft.outcome] ?? draft.outcome)),
                h('td', {}, open),
              );
            }),
          ),
        ),
      );
    } catch (failure) {
      parts.push(h('p', { role: 'alert' }, failure.message));
    }
    parts.push(exportControls(summary.batch_id));
    replace(review, ...parts);
    review.hidden = false;
    review.querySelector('h2').focus();
  }

  function exportControls(batchId) {
    const select = h(
      'select',
      { id: 'batch-export-format' },
      h('option', { value: 'pdf' }, 'PDF — документ для каждой строки'),
      h('option', { value: 'docx' }, 'DOCX — документ для каждой строки'),
      h('option', { value: 'txt' }, 'Текст (TXT) — документ для каждой строки'),
      h('option', { value: 'csv' }, 'Таблица (CSV) — все строки в одном файле'),
      h('option', { value: 'jsonl' }, 'Данные (JSONL) — все строки в одном файле'),
    );
    const collective = h('input', { type: 'checkbox', id: 'batch-export-collective', 'aria-describedby': 'batch-export-collective-hint' });
    const collectiveField = h(
      'div',
      { class: 'collective' },
      h('label', { class: 'choice', for: 'batch-export-collective' }, collective, ' Коллективные заявки'),
      h('p', { id: 'batch-export-collective-hint', class: 'hint' }, 'В каждый документ добавится таблица для подписей соседей.'),
    );
    const headerNote = h('p', { class: 'note' }, 'В шапке каждого документа — ваши данные из «Настроек», а ФИО, квартира и телефон — из столбцов этой строки, если они заполнены.');
    const documentFormats = ['pdf', 'docx', 'txt'];
    select.addEventListener('change', () => {
      collectiveField.hidden = !documentFormats.includes(select.value);
      headerNote.hidden = collectiveField.hidden;
    });
    const result = h('p', { role: 'status' });
    const button = h('button', { type: 'button' }, 'Выгрузить…');
    button.addEventListener('click', async () => {
      try {
        const isDocuments = documentFormats.includes(select.value);
        const report = await ipc.batchExport(batchId, select.value, isDocuments && collective.checked);
        result.textContent = report === null ? 'Выгрузка отменена.' : exportSentence(report);
      } catch (failure) {
        result.textContent = failure.message;
      }
    });
    return h(
      'div',
      { class: 'export' },
      h('h3', {}, 'Выгрузить результаты'),
      h('div', { class: 'field' }, h('label', { for: 'batch-export-format' }, 'Формат'), select),
      headerNote,
      collectiveField,
      h('div', { class: 'actions' }, button),
      result,
    );
  }

  function exportSentence(report) {
    const files = `${report.written} ${plural(report.written, ['файл', 'файла', 'файлов'])}`;
    let sentence = `Записано ${files} в папку ${report.folder}.`;
    if (report.skipped.length > 0) {
      const rows = report.skipped.map((skipped) => `строка ${skipped.row} — ${skipped.reason}`).join('; ');
      sentence += ` Без документа: ${rows}.`;
    }
    return sentence;
  }

  async function openDraft(id, button) {
    lastOpenedButton = button;
    try {
      const opened = await ipc.draftOpen(id);
      review.hidden = true;
      detail.hidden = false;
      renderResult(detailBody, opened.result, {
        explain: opened.explain,
        onNextStep: (action) => {
          if (action === 'open_settings') navigation.show('settings');
          else if (action === 'store_api_key') navigation.show('settings', 'api-key');
          else navigation.editInForm(opened.summary.input);
        },
      }).focus();
    } catch (failure) {
      status.textContent = failure.message;
    }
  }

  return { enter() {} };
}
