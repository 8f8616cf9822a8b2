// «Пакет»: choose a file (or continue an earlier batch without choosing it again), see the plan
// before anything is sent — rows to send, rows done before, rows refused and why, rows no longer
// in the file, the worst-case cost — and confirm it; then progress and cancel, resume, review by
// row number, «ФИО» and «Квартира» with the reason for every row that needs something, export,
// and after filing, the batch's cases and its next letters (batch-cases.js, issue 30).
// Batches are named by their number («Пакет 3»); what a run does is the Rust side's plan.

import * as ipc from './ipc.js';
import { byId, h, replace, unhandled } from './dom.js';
import { openNextStep, renderResult } from './result.js';
import { batchCases } from './batch-cases.js';
import { FIELD_LABELS, capitalised, count, formatDate, plural } from './words.js';

/**
 * @import { BatchExportView, BatchListView, BatchPlanView, BatchProgressView, BatchRowView,
 *   BatchSummaryView, CheckOptions, JsonValue, StopReason } from './ipc-contract.js'
 * @import { NextAction } from './outcome-panel.js'
 */

/**
 * What «Пакет» needs of the page's navigation (main.js): `show` a screen, then focus the control
 * with that id; `editInForm` loads a draft's input into «Новая заявка».
 * @typedef {{
 *   show(screen: string, focusId?: string | null): void,
 *   editInForm(input: JsonValue): void,
 * }} Navigation
 */

/**
 * A run under way: the task to cancel, and whether it drafts without a model.
 * @typedef {{ taskId: string, offline: boolean }} Running
 */

// A row error's field is any of the input's JSON names, or empty for the row as a whole: looked
// up as any string, with the name itself as the fallback.
/** @type {Readonly<Record<string, string | undefined>>} */
const FIELD_LABEL_BY_NAME = FIELD_LABELS;

/** @type {[string, string, string]} */
const REQUESTS = ['заявку', 'заявки', 'заявок'];
// The usual row limit of a batch, and the most rows a batch file can hold (the engine's
// DEFAULT_MAX_ROWS and MAX_ROWS): a larger file is checked only when the resident says so.
const DEFAULT_ROWS = 5000;
const MAX_FILE_ROWS = 100000;
/** @type {[string, string, string]} */
const ROWS_TO_SEND = ['строку', 'строки', 'строк'];
/** @type {[string, string, string]} */
const ROWS = ['строка', 'строки', 'строк'];
// How many row numbers a plan line names before it says how many more.
const ROWS_NAMED = 12;

/**
 * «2 (строки 2, 4)», «130 (строки 2, 3, … и ещё 118)».
 * @param {number[]} rows
 */
function rowList(rows) {
  const named = rows.slice(0, ROWS_NAMED).join(', ');
  const more = rows.length > ROWS_NAMED ? ` и ещё ${rows.length - ROWS_NAMED}` : '';
  return `${rows.length} (${rows.length === 1 ? 'строка' : 'строки'} ${named}${more})`;
}

/**
 * An amount at the profile's prices: «0,0123 $», or the number and the currency as written.
 * @param {number} amount
 * @param {string | null} currency null when the profile's prices name none
 */
function money(amount, currency) {
  const digits = { minimumFractionDigits: 2, maximumFractionDigits: amount < 1 ? 4 : 2 };
  if (currency && /^[A-Z]{3}$/.test(currency)) {
    try {
      return new Intl.NumberFormat('ru-RU', { style: 'currency', currency, ...digits }).format(amount);
    } catch {
      // An unknown code: the number and the code as the profile names it.
    }
  }
  const number = new Intl.NumberFormat('ru-RU', digits).format(amount);
  return currency ? `${number} ${currency}` : number;
}

/** @param {Navigation} navigation */
export function setUpBatch(navigation) {
  const status = byId('batch-status');
  const chooseButton = byId('batch-choose');
  const checkBlock = byId('batch-check');
  const runBlock = byId('batch-run');
  const runHeading = byId('batch-run-heading');
  const bar = byId('batch-progress-bar', HTMLProgressElement);
  const progressText = byId('batch-progress-text');
  const cancelButton = byId('batch-cancel');
  const review = byId('batch-review');
  const detail = byId('batch-detail');
  const detailBody = byId('batch-detail-body');
  const earlier = byId('batch-earlier');

  /** @type {BatchPlanView | null} */
  let plan = null;
  /** @type {Running | null} */
  let running = null;
  // The file last chosen, while its plan is on screen: «Начать новый пакет» and «Проверить все
  // строки» check it again with the resident's choice (issue 31). A batch continued from the
  // list has none: Rust reads its file from the data folder.
  /** @type {string | null} */
  let chosenPath = null;
  /** @type {HTMLButtonElement | null} */
  let lastOpenedButton = null;

  chooseButton.addEventListener('click', () => void choose());
  cancelButton.addEventListener('click', () => void cancel());
  byId('batch-detail-back').addEventListener('click', () => {
    detail.hidden = true;
    replace(detailBody);
    review.hidden = false;
    lastOpenedButton?.focus();
  });

  // --- Choosing a file, or an earlier batch, gives a plan. -------------------------------------

  async function choose() {
    let path;
    try {
      path = await ipc.batchChooseFile();
    } catch (failure) {
      status.textContent = ipc.messageOf(failure);
      return;
    }
    if (path === null) {
      status.textContent = 'Файл не выбран.';
      return;
    }
    await check(path);
  }

  /**
   * Checks a chosen file; `options` as `batch_check` takes them.
   * @param {string} path
   * @param {CheckOptions | null} [options]
   */
  async function check(path, options = null) {
    chosenPath = null;
    status.textContent = 'Проверяем строки файла…';
    try {
      const next = await ipc.batchCheck(path, options);
      chosenPath = path;
      showPlan(next);
    } catch (failure) {
      checkBlock.hidden = true;
      status.textContent = ipc.messageOf(failure);
      // Too many rows for an ordinary batch: the resident may say it is the right file.
      if (failure instanceof ipc.IpcError && failure.kind === 'batch_too_large') {
        const all = h('button', { type: 'button' }, 'Это нужный файл — проверить все строки');
        all.addEventListener('click', () => void check(path, { new_batch: false, max_rows: MAX_FILE_ROWS }));
        replace(checkBlock, h('p', {}, 'Если это действительно нужный файл, приложение проверит все его строки. Отправлено ничего не будет, пока вы не подтвердите план.'), h('div', { class: 'actions' }, all));
        checkBlock.hidden = false;
        all.focus();
      }
    }
  }

  /** @param {number} number */
  async function continueBatch(number) {
    chosenPath = null;
    status.textContent = `Проверяем файл пакета ${number}…`;
    try {
      showPlan(await ipc.batchContinue(number));
    } catch (failure) {
      checkBlock.hidden = true;
      status.textContent = ipc.messageOf(failure);
      // The file is gone: choosing it again continues the batch (its finished rows stay).
      if (failure instanceof ipc.IpcError && failure.kind === 'batch_file_missing') chooseButton.focus();
    }
  }

  /** @param {BatchPlanView} next */
  function showPlan(next) {
    plan = next;
    status.textContent =
      plan.batch_number === null
        ? `Файл «${plan.file_name}» проверен: это новый пакет.`
        : `Файл «${plan.file_name}» проверен: это продолжение пакета ${plan.batch_number}.`;
    review.hidden = true;
    detail.hidden = true;
    runBlock.hidden = true;
    renderPlan(next);
    // renderPlan always puts the heading first.
    checkBlock.querySelector('h2')?.focus();
  }

  // The plan's parts take the plan on screen (`plan` above, never null while one is shown).

  /** @param {BatchPlanView} plan */
  function planLines(plan) {
    const verb = plan.offline ? 'будут составлены без модели' : 'будут отправлены';
    const lines = [`Строк с данными в файле: ${count(plan.rows)}.`];
    if (plan.new.length > 0) lines.push(`Новые — ${verb}: ${rowList(plan.new)}.`);
    if (plan.changed.length > 0) lines.push(`Изменены с прошлого раза — ${verb} заново: ${rowList(plan.changed)}.`);
    if (plan.unfinished.length > 0) lines.push(`Не закончены в прошлый раз — ${verb}: ${rowList(plan.unfinished)}.`);
    if (plan.done_before.length > 0) {
      lines.push(`Составлены раньше — повторно не отправляются: ${count(plan.done_before.length)}.`);
    }
    if (plan.invalid.length > 0) {
      lines.push(`С ошибками — не будут отправлены: ${rowList(plan.invalid.map((row) => row.row))}. Что не так — в таблице ниже.`);
    }
    if (plan.no_longer_in_file > 0) {
      const gone = plan.no_longer_in_file;
      lines.push(`Больше нет в файле: ${count(gone)} ${plural(gone, ROWS)} прошлого запуска — их заявки остаются в пакете.`);
    }
    return lines;
  }

  /** @param {BatchPlanView} plan */
  function costLine(plan) {
    if (plan.offline || plan.to_send === 0) return null;
    const cost = plan.cost;
    switch (cost.kind) {
      case 'at_most':
        return h(
          'p',
          { class: 'batch-cost' },
          h('strong', {}, `Стоимость — не больше ${money(cost.amount, cost.currency)} по ценам из настроек.`),
          ' Это расчёт на самый долгий ответ и все повторные запросы; обычно выходит намного меньше.',
        );
      case 'unknown':
        return h(
          'p',
          { class: 'batch-cost' },
          h('strong', {}, 'Стоимость оценить нельзя: в настройках сервиса не указаны цены.'),
          ' Если сервис платный, он возьмёт плату за каждую отправленную строку.',
        );
      case 'nothing':
        // Nothing is sent (the engine says so exactly when `to_send` is 0, returned above).
        return null;
      default:
        return unhandled(cost);
    }
  }

  /** @param {BatchPlanView} plan */
  function invalidTable(plan) {
    return h(
      'table',
      { class: 'table' },
      h('caption', {}, 'Строки с ошибками: исправьте их в файле и проверьте его снова'),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Строка'), h('th', { scope: 'col' }, 'Поле'), h('th', { scope: 'col' }, 'Что не так'))),
      h(
        'tbody',
        {},
        plan.invalid.flatMap((row) =>
          row.errors.map((error, index) =>
            h(
              'tr',
              { class: 'invalid-row' },
              index === 0 ? h('th', { scope: 'row', rowspan: String(row.errors.length) }, String(row.row)) : null,
              h('td', {}, FIELD_LABEL_BY_NAME[error.field] ?? error.field),
              h('td', {}, error.message),
            ),
          ),
        ),
      ),
    );
  }

  /** @param {BatchPlanView} plan */
  function renderPlan(plan) {
    const heading = plan.batch_number === null ? 'Что будет сделано' : `Пакет ${plan.batch_number}: что будет сделано`;
    const parts = [h('h2', { tabindex: '-1' }, heading), h('ul', { class: 'plain-list batch-plan' }, planLines(plan).map((line) => h('li', {}, line)))];
    const cost = costLine(plan);
    if (cost) parts.push(cost);
    if (plan.model_problem !== null) {
      const settings = h('button', { type: 'button' }, 'Открыть настройки');
      settings.addEventListener('click', () => navigation.show('settings'));
      parts.push(
        h(
          'div',
          { class: 'batch-model-problem' },
          h('p', {}, `${plan.model_problem} Пока заявки можно составить без модели — из слов каждой строки.`),
          h('div', { class: 'actions' }, settings),
        ),
      );
    }
    if (plan.batch_number !== null && chosenPath !== null) {
      // The CLI's `--new`: the same file as a batch of its own, every row drafted again.
      const path = chosenPath;
      const fresh = h('button', { type: 'button', 'aria-describedby': 'batch-new-hint' }, 'Начать новый пакет');
      fresh.addEventListener('click', () => void check(path, { new_batch: true, max_rows: plan.rows > DEFAULT_ROWS ? plan.rows : null }));
      parts.push(
        h('p', { id: 'batch-new-hint', class: 'note' }, `Этот файл уже запускали как пакет ${plan.batch_number}: составленные строки повторно не отправятся. Чтобы составить все строки заново отдельным пакетом, начните новый пакет — пакет ${plan.batch_number} останется как был.`),
        h('div', { class: 'actions' }, fresh),
      );
    }
    if (plan.invalid.length > 0) parts.push(invalidTable(plan));
    if (plan.to_draft === 0) {
      parts.push(h('p', {}, 'Отправлять нечего: все подходящие строки уже составлены.'));
      if (plan.batch_number !== null) {
        const number = plan.batch_number;
        const rows = h('button', { type: 'button' }, `Посмотреть строки пакета ${number}`);
        rows.addEventListener('click', () => void renderReview(number));
        parts.push(h('div', { class: 'actions' }, rows));
      }
    } else if (!plan.offline) {
      const send = h('button', { type: 'button', class: 'primary' }, `Отправить ${plan.to_send} ${plural(plan.to_send, ROWS_TO_SEND)}`);
      send.addEventListener('click', () => void run(false));
      const offline = h('button', { type: 'button', 'aria-describedby': 'batch-offline-hint' }, 'Составить без модели');
      offline.addEventListener('click', () => void run(true));
      parts.push(
        h('p', { class: 'note' }, 'Описания из строк уйдут выбранному в настройках сервису модели, по одному запросу на строку. Пока вы не нажмёте «Отправить», ничего не отправляется.'),
        h('div', { class: 'actions' }, send, offline),
        h('p', { id: 'batch-offline-hint', class: 'note' }, 'Без модели заявки составляются из слов каждой строки и никуда не отправляются.'),
      );
    } else {
      const draft = h('button', { type: 'button', class: 'primary' }, `Составить ${plan.to_draft} ${plural(plan.to_draft, REQUESTS)} без модели`);
      draft.addEventListener('click', () => void run(true));
      parts.push(
        h('p', { class: 'note' }, 'Заявки будут составлены из слов каждой строки, без модели: ничего никуда не отправляется.'),
        h('div', { class: 'actions' }, draft),
      );
    }
    replace(checkBlock, ...parts);
    checkBlock.hidden = false;
  }

  // --- Running. -------------------------------------------------------------------------------

  /** @param {boolean} offline */
  async function run(offline) {
    if (running || plan === null) return;
    const planned = plan;
    running = { taskId: ipc.newTaskId(), offline };
    runHeading.textContent = offline ? 'Составление без модели' : 'Отправка';
    runBlock.hidden = false;
    review.hidden = true;
    detail.hidden = true;
    for (const button of checkBlock.querySelectorAll('button')) button.disabled = true;
    cancelButton.hidden = false;
    showProgress({ done: 0, total: planned.to_draft, ready: 0, needs_user: 0, rejected: 0, failed: 0 });
    cancelButton.focus();
    try {
      // The resident's click on «Отправить» is the confirmation of the plan on screen.
      const summary = await ipc.batchRun(planned.check_token, offline, !offline, running.taskId, showProgress);
      showProgress(summary);
      // The plan is spent: what became of it is below, and a new plan comes from the file again.
      checkBlock.hidden = true;
      await renderReview(summary.batch_number, summary, offline);
    } catch (failure) {
      progressText.textContent = ipc.messageOf(failure);
    } finally {
      running = null;
      cancelButton.hidden = true;
      for (const button of checkBlock.querySelectorAll('button')) button.disabled = false;
      void refreshEarlier();
    }
  }

  async function cancel() {
    if (!running) return;
    progressText.textContent = 'Останавливаем отправку… Прерванные строки отправятся, когда вы продолжите.';
    try {
      await ipc.batchCancel(running.taskId);
    } catch (failure) {
      progressText.textContent = ipc.messageOf(failure);
    }
  }

  /** @param {BatchProgressView} progress */
  function showProgress(progress) {
    bar.max = Math.max(progress.total, 1);
    bar.value = progress.done;
    progressText.textContent =
      `Строк к отправке: ${progress.total}, отправлено: ${progress.done}. Готовы ${progress.ready}, ` +
      `нужно уточнить ${progress.needs_user}, не составлены ${progress.rejected}, технические неудачи ${progress.failed}.`;
  }

  // --- Reviewing a batch: its rows by number, «ФИО», «Квартира», state and reason. -------------

  /**
   * Why the run stopped, and what now.
   * @param {StopReason} stopped
   * @param {BatchSummaryView} summary
   */
  function stoppedSentence(stopped, summary) {
    switch (stopped) {
      case 'provider_refused':
        return 'Сервис модели отказал так, что остальные строки получили бы тот же отказ. Проверьте ключ и баланс в настройках, затем продолжите: составленные заявки повторно не отправляются.';
      case 'cost_cap':
        return 'Отправка остановлена, чтобы не превысить предел стоимости. Составленные заявки сохранены.';
      case 'cancelled':
        return `Строк к отправке: ${summary.total}, отправлено: ${summary.done}. Уже составленные заявки сохранены и повторно не отправляются.`;
      default:
        return unhandled(stopped);
    }
  }

  /**
   * Batch `number`'s rows, export and cases; after a run, first what the run did.
   * @param {number} number
   * @param {BatchSummaryView | null} [summary] the run's answer, null when only looking
   * @param {boolean} [offline] whether that run drafted without a model (for «Продолжить»)
   */
  async function renderReview(number, summary = null, offline = false) {
    /** @type {HTMLElement[]} */
    const parts = [];
    if (summary === null) {
      parts.push(h('h2', { tabindex: '-1' }, `Пакет ${number}`));
    } else if (summary.stopped !== null) {
      const resume = h('button', { type: 'button', class: 'primary' }, 'Продолжить отправку');
      resume.addEventListener('click', () => void run(offline));
      parts.push(
        h('h2', { tabindex: '-1' }, `Пакет ${number}: отправка остановлена`),
        h('p', {}, stoppedSentence(summary.stopped, summary)),
        h('div', { class: 'actions' }, resume),
      );
    } else {
      parts.push(h('h2', { tabindex: '-1' }, `Пакет ${number} обработан`));
      if (!summary.complete) {
        const again = h('button', { type: 'button' }, 'Проверить и отправить снова');
        again.addEventListener('click', () => void continueBatch(number));
        parts.push(
          h('p', {}, 'Некоторые строки не составлены из-за технического сбоя — это не оценка их текста. Их можно отправить ещё раз.'),
          h('div', { class: 'actions' }, again),
        );
      }
    }
    // Every row of the file accounted for, the ones refused before sending too (issue 31).
    if (summary !== null) parts.splice(1, 0, h('p', { class: 'batch-rows' }, summary.rows_ru));
    if (summary !== null && summary.cost !== null) {
      const currency = summary.currency ?? (plan?.cost?.kind === 'at_most' ? plan.cost.currency : null);
      parts.push(h('p', { class: 'note' }, `Стоимость пакета по данным сервиса и ценам из настроек: ${money(summary.cost, currency)}.`));
    }
    try {
      const rows = await ipc.batchRows(number);
      parts.push(rowsTable(number, rows));
    } catch (failure) {
      parts.push(h('p', { role: 'alert' }, ipc.messageOf(failure)));
    }
    parts.push(exportControls(number));
    parts.push(batchCases(number));
    replace(review, ...parts);
    if (summary === null) {
      checkBlock.hidden = true;
      runBlock.hidden = true;
    }
    detail.hidden = true;
    review.hidden = false;
    // Every review starts with its heading.
    review.querySelector('h2')?.focus();
  }

  /**
   * @param {number} number
   * @param {BatchRowView[]} rows
   */
  function rowsTable(number, rows) {
    // Explicit roles keep the table a table for screen readers where a narrow window lays each
    // row out as a card (the stylesheet's `.rows-table`). The request's cell holds its title,
    // its state, the reason when one is needed, and «Открыть», so that an 800-pixel window
    // has room for whole words.
    const headers = ['Строка', 'ФИО', 'Квартира', 'Заявка и состояние'];
    return h(
      'table',
      { class: 'table rows-table', role: 'table' },
      h('caption', {}, `Строки пакета ${number}`),
      h('thead', { role: 'rowgroup' }, h('tr', { role: 'row' }, headers.map((label) => h('th', { scope: 'col', role: 'columnheader' }, label)))),
      h(
        'tbody',
        { role: 'rowgroup' },
        rows.map((row) => {
          let action = null;
          const draftId = row.draft_id;
          if (draftId !== null) {
            const open = h('button', { type: 'button', 'aria-label': `Открыть заявку строки ${row.row}` }, 'Открыть');
            open.addEventListener('click', () => void openDraft(draftId, open));
            action = h('div', { class: 'row-action' }, open);
          }
          const empty = () => h('span', { class: 'quiet' }, 'не указано');
          return h(
            'tr',
            { role: 'row', class: `batch-row batch-row-${row.status}` },
            h('th', { scope: 'row', role: 'rowheader', class: 'row-number', dataset: { label: 'Строка' } }, String(row.row)),
            h('td', { role: 'cell', dataset: { label: 'ФИО' } }, row.full_name ?? empty()),
            h('td', { role: 'cell', dataset: { label: 'Квартира' } }, row.apartment ?? empty()),
            h(
              'td',
              { role: 'cell', class: 'row-request' },
              row.title ? h('p', { class: 'row-title' }, row.title) : null,
              h('span', { class: `chip chip-${row.status}` }, capitalised(row.status_label)),
              row.reason_ru ? h('p', { class: 'row-reason' }, row.reason_ru) : null,
              action,
            ),
          );
        }),
      ),
    );
  }

  /** @param {number} number */
  function exportControls(number) {
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
        const report = await ipc.batchExport(number, select.value, isDocuments && collective.checked);
        result.textContent = report === null ? 'Выгрузка отменена.' : exportSentence(report);
      } catch (failure) {
        result.textContent = ipc.messageOf(failure);
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

  /** @param {BatchExportView} report */
  function exportSentence(report) {
    const files = `${report.written} ${plural(report.written, ['файл', 'файла', 'файлов'])}`;
    let sentence = `Записано ${files} в папку ${report.folder}.`;
    if (report.skipped.length > 0) {
      const rows = report.skipped.map((skipped) => `строка ${skipped.row} — ${skipped.reason}`).join('; ');
      sentence += ` Без документа: ${rows}.`;
    }
    return sentence;
  }

  /**
   * Opens a row's draft in place; «← К пакету» brings the focus back to `button`.
   * @param {number} id
   * @param {HTMLButtonElement} button
   */
  async function openDraft(id, button) {
    lastOpenedButton = button;
    try {
      const opened = await ipc.draftOpen(id);
      review.hidden = true;
      detail.hidden = false;
      renderResult(detailBody, opened.result, {
        explain: opened.explain,
        /** @param {NextAction} action outcome-panel.js's action of a next-step button */
        onNextStep: (action) => openNextStep(navigation, action, opened.summary.input),
      }).focus();
    } catch (failure) {
      status.textContent = ipc.messageOf(failure);
    }
  }

  // --- Earlier batches: listed at every visit, after a crash or a restart too. ----------------

  /** @param {BatchListView} batch */
  function stateLine(batch) {
    const parts = [`строк: ${batch.rows}`, `готово: ${batch.ready}`];
    if (batch.needs_attention > 0) parts.push(`нужно уточнить: ${batch.needs_attention}`);
    if (batch.failed > 0) parts.push(`технический сбой: ${batch.failed}`);
    if (batch.unfinished > 0) parts.push(`ещё не составлены: ${batch.unfinished}`);
    if (batch.invalid > 0) parts.push(`с ошибками: ${batch.invalid}`);
    return `${capitalised(parts.join(', '))}.`;
  }

  /** @param {BatchListView[]} batches */
  function renderEarlier(batches) {
    if (batches.length === 0) {
      replace(earlier);
      earlier.hidden = true;
      return;
    }
    const items = batches.map((batch) => {
      const number = batch.number;
      const go = h(
        'button',
        { type: 'button', class: batch.complete ? null : 'primary', 'aria-label': `${batch.complete ? 'Проверить файл снова' : 'Продолжить'}: пакет ${number}` },
        batch.complete ? 'Проверить файл снова' : 'Продолжить',
      );
      go.addEventListener('click', () => void continueBatch(number));
      const rows = h('button', { type: 'button', 'aria-label': `Строки пакета ${number}` }, 'Строки');
      rows.addEventListener('click', () => void renderReview(number));
      const started = formatDate(batch.created_at);
      const last = batch.updated_at !== batch.created_at ? `, последний запуск ${formatDate(batch.updated_at)}` : '';
      return h(
        'li',
        { class: 'batch-item' },
        h(
          'div',
          { class: 'batch-main' },
          h(
            'h3',
            { class: 'batch-title' },
            `Пакет ${number} `,
            h('span', { class: `chip ${batch.complete ? 'chip-ready' : 'chip-needs_user'}` }, batch.complete ? 'Готов' : 'Не закончен'),
          ),
          h('p', { class: 'batch-file' }, `Файл «${batch.file_name}»`),
          h('p', { class: 'batch-meta' }, `Начат ${started}${last}.`),
          h('p', { class: 'batch-state' }, stateLine(batch)),
          batch.file_found ? null : h('p', { class: 'note' }, 'Файла больше нет на прежнем месте. Чтобы продолжить, выберите его снова кнопкой «Выбрать файл…».'),
        ),
        h('div', { class: 'batch-actions' }, batch.file_found ? go : null, rows),
      );
    });
    replace(earlier, h('h2', {}, 'Пакеты, начатые раньше'), h('ul', { class: 'batch-list' }, items));
    earlier.hidden = false;
  }

  async function refreshEarlier() {
    try {
      renderEarlier(await ipc.batchList());
    } catch (failure) {
      replace(earlier, h('p', { role: 'alert' }, ipc.messageOf(failure)));
      earlier.hidden = false;
    }
  }

  return {
    enter() {
      void refreshEarlier();
    },
  };
}
