// «Подача и ответ» (issue 30): under an opened ready draft in «Черновики», what happened after
// the request was printed — marking it filed (the date, how, the incoming number, to whom, the
// delivery of a letter, photos of the stamped copy or the receipt), the answer's deadline with
// the norm it comes from, the answer, closing, the deadline for the resident's own calendar, a
// corrected copy, and the next letter: a repeat request or a complaint to the housing
// inspectorate. Rust decides every date and sentence; the page lays them out.

import * as ipc from './ipc.js';
import { byId, codeOf, freshId, h, replace } from './dom.js';
import { ANSWER_RESULTS, FILING_METHODS, capitalised } from './words.js';

/**
 * @import { Answer, AnswerForm, CaseDetail, Filing, FilingForm, FollowKind, PhotoView }
 *   from './ipc-contract.js'
 */

/**
 * A form's fields as `form` below (and the batch's filing form) use them: the nodes, the
 * control that takes focus after a refusal, what the command takes, and the first field the
 * page itself refuses, with its message.
 * @template T
 * @typedef {object} FormFields
 * @property {Node[]} nodes
 * @property {HTMLElement} first
 * @property {() => T} read
 * @property {() => { field: HTMLElement, message: string } | null} firstInvalid
 */

/**
 * What the panel asks of the screen that shows it (result.js passes «Черновики»' own).
 * @typedef {object} CaseActions
 * @property {(detail: CaseDetail, message: string) => void} onChanged
 * @property {(id: number, message: string) => void} onOpenDraft
 */

/**
 * Which photos a case keeps, as `case_attach_chosen` names them: of the filing (a stamped copy,
 * a receipt) or of the answer.
 * @typedef {'filing' | 'answer'} PhotoRole
 */

/**
 * The filing form's fields, shared by a draft and a batch: `values` prefills them (a filed
 * draft's facts when they are changed), `today` bounds the dates. `read()` gives what
 * `case_file` and `batch_file` take; `firstInvalid()` the first field the page itself refuses
 * (a blank date), with its message.
 * @param {{ today: string, values?: Partial<Filing>, company?: string | null }} options
 * @returns {FormFields<FilingForm>}
 */
export function filingFields({ today, values = {}, company = null }) {
  const ids = { date: freshId('filed-on'), method: freshId('method'), delivered: freshId('delivered'), number: freshId('number'), to: freshId('addressee') };
  const date = h('input', { id: ids.date, type: 'date', max: today, value: values.filed_on ?? today, required: true });
  const method = h(
    'select',
    { id: ids.method },
    FILING_METHODS.map((m) => h('option', { value: m.code, selected: m.code === (values.method ?? 'in_person') }, capitalised(m.label))),
  );
  const delivered = h('input', { id: ids.delivered, type: 'date', max: today, value: values.delivered_on ?? '', 'aria-describedby': `${ids.delivered}-hint` });
  const deliveredField = h(
    'div',
    { class: 'field' },
    h('label', { for: ids.delivered }, 'Дата вручения письма ', h('span', { class: 'optional' }, '(можно вписать позже)')),
    delivered,
    h('p', { id: `${ids.delivered}-hint`, class: 'hint' }, 'Из уведомления о вручении или по трек-номеру на сайте Почты России. Срок ответа считается с этого дня.'),
  );
  const number = h('input', { id: ids.number, type: 'text', autocomplete: 'off', maxlength: 60, value: values.number ?? '' });
  const to = h('input', { id: ids.to, type: 'text', autocomplete: 'organization', maxlength: 300, value: values.addressee ?? company ?? '' });
  const showDelivery = () => {
    deliveredField.hidden = method.value !== 'letter';
  };
  method.addEventListener('change', showDelivery);
  showDelivery();
  const nodes = [
    h('div', { class: 'field' }, h('label', { for: ids.date }, 'Дата подачи'), date),
    h('div', { class: 'field' }, h('label', { for: ids.method }, 'Как подана'), method),
    deliveredField,
    h('div', { class: 'field' }, h('label', { for: ids.number }, 'Входящий номер ', h('span', { class: 'optional' }, '(если дали)')), number),
    h('div', { class: 'field' }, h('label', { for: ids.to }, 'Кому подана ', h('span', { class: 'optional' }, '(необязательно)')), to),
  ];
  /** @param {string} text */
  const blankToNull = (text) => (text.trim() === '' ? null : text);
  return {
    nodes,
    first: date,
    read: () => ({
      filed_on: date.value,
      method: codeOf(method.value, FILING_METHODS.map((choice) => choice.code)),
      number: blankToNull(number.value),
      addressee: blankToNull(to.value),
      delivered_on: method.value === 'letter' ? blankToNull(delivered.value) : null,
    }),
    firstInvalid: () => (date.value === '' ? { field: date, message: 'Укажите дату подачи: день, месяц и год.' } : null),
  };
}

/**
 * The panel for `detail` (a `case_get` answer). `actions.onChanged(detail, message)` hears of a
 * change that alters the whole draft (filed, filing taken back), `actions.onOpenDraft(id,
 * message)` opens another draft (a correction or the next letter).
 * @param {CaseDetail} detail
 * @param {CaseActions} actions
 */
export function casePanel(detail, actions) {
  const headingId = freshId('case-heading');
  const section = h('section', { class: 'case-panel', 'aria-labelledby': headingId });
  const status = h('p', { class: 'case-status', role: 'status' });
  /** @param {unknown} failure */
  const report = (failure) => {
    status.textContent = ipc.messageOf(failure);
  };

  // Whatever the panel shows after an action; forms replace the body, Отмена brings it back.
  let current = detail;
  const body = h('div', {});

  /**
   * @param {CaseDetail} next
   * @param {string} [message]
   */
  function show(next, message = '') {
    current = next;
    replace(body, overview(next));
    status.textContent = message;
  }

  /** @param {CaseDetail} d */
  function overview(d) {
    const parts = [];
    if (d.follows) {
      parts.push(
        h(
          'p',
          { class: 'case-follows' },
          d.follows.draft_id === null
            ? `${d.follows.label} по черновику, который потом удалён.`
            : [`${d.follows.label} по черновику № ${d.follows.draft_id}. `, openButton(d.follows.draft_id, 'Открыть первый черновик')],
        ),
      );
    }
    if (d.case === null) {
      if (d.can_file) {
        parts.push(
          h('p', {}, 'Когда подадите заявку, отметьте это здесь: приложение посчитает срок ответа по закону и напомнит, если ответа не будет.'),
          h('div', { class: 'actions' }, h('button', { type: 'button', class: 'primary', onclick: () => filingForm(null) }, 'Отметить как поданное')),
        );
      }
      return parts;
    }
    const c = d.case;
    const answer = c.case.answer;
    const stateClass = c.state.state === 'overdue' ? 'case-state case-overdue' : 'case-state';
    parts.push(h('p', { class: stateClass }, capitalised(c.state_ru)));
    parts.push(h('ul', { class: 'case-facts' }, d.facts.map((fact) => h('li', {}, fact))));
    if (d.deadline_line) parts.push(h('p', {}, d.deadline_line));
    if (c.notice_ru) parts.push(h('p', { class: 'note' }, c.notice_ru));
    parts.push(
      h(
        'details',
        { class: 'more case-term' },
        h('summary', {}, 'Откуда этот срок'),
        h('p', {}, `${capitalised(c.term_ru)}.`),
        h('ul', {}, c.term_sources.map((source) => h('li', {}, source))),
      ),
    );
    parts.push(photoLine('Фотографии подачи', d.filing_photos, 'filing', 'Приложить фото отметки или квитанции…'));
    if (answer) parts.push(photoLine('Фотографии ответа', d.answer_photos, 'answer', 'Приложить фото или скан ответа…'));

    const closed = c.case.closed_on !== null;
    const buttons = [];
    if (!closed) {
      buttons.push(h('button', { type: 'button', class: answer ? null : 'primary', onclick: () => answerForm(answer) }, answer ? 'Изменить ответ' : 'Записать ответ'));
      buttons.push(h('button', { type: 'button', onclick: () => filingForm(c.case.filing) }, 'Изменить сведения о подаче'));
      if (c.deadline.state === 'known' && !answer) {
        buttons.push(h('button', { type: 'button', onclick: () => calendar() }, 'Добавить срок в календарь…'));
      }
    }
    buttons.push(h('button', { type: 'button', onclick: () => close(!closed) }, closed ? 'Открыть дело снова' : 'Закрыть дело'));
    parts.push(h('div', { class: 'actions' }, buttons));
    if (d.can_follow_up) parts.push(nextLetter());
    if (d.follow_ups.length > 0) {
      parts.push(
        h('h4', {}, 'Письма после этой заявки'),
        h(
          'ul',
          { class: 'case-links' },
          // Rust lists only follow-ups that exist, so their id is never null; the type is shared
          // with `follows`, whose draft may have been deleted, and a link with none is left out.
          d.follow_ups.map(({ label, draft_id: id }) =>
            id === null ? null : h('li', {}, `${label}: черновик № ${id} `, openButton(id, `Открыть черновик № ${id}`)),
          ),
        ),
      );
    }
    parts.push(
      h(
        'div',
        { class: 'actions case-quiet-actions' },
        h('button', { type: 'button', class: 'link-button', onclick: () => correct() }, 'Исправить текст в новом черновике'),
        h('button', { type: 'button', class: 'link-button danger-quiet', onclick: () => unfile() }, 'Снять отметку о подаче'),
      ),
    );
    return parts;
  }

  /**
   * @param {number} id
   * @param {string} label
   */
  function openButton(id, label) {
    return h('button', { type: 'button', class: 'link-button', onclick: () => actions.onOpenDraft(id, '') }, label);
  }

  /**
   * @param {string} label
   * @param {PhotoView[]} photos
   * @param {PhotoRole} role
   * @param {string} button
   */
  function photoLine(label, photos, role, button) {
    return h(
      'div',
      { class: 'case-photos' },
      h('p', {}, photos.length === 0 ? `${label}: нет.` : `${label}: ${photos.map((photo) => photo.label).join(', ')}.`),
      h('button', { type: 'button', onclick: () => attach(role) }, button),
    );
  }

  /**
   * Runs a command and hands its answer on; `null` (a dialog the resident cancelled) does nothing.
   * @template T
   * @param {() => Promise<T | null>} work
   * @param {(answer: T) => void} done
   */
  async function run(work, done) {
    try {
      const next = await work();
      if (next === null) return;
      done(next);
    } catch (failure) {
      report(failure);
    }
  }

  /** @param {PhotoRole} role */
  const attach = (role) =>
    run(
      () => ipc.caseAttachChosen(current.draft_id, role),
      (next) => show(next, 'Фотографии приложены; место съёмки и модель камеры из файлов удалены.'),
    );

  const calendar = () =>
    run(
      () => ipc.caseCalendar(current.draft_id),
      (path) => {
        status.textContent = `Срок сохранён: ${path}. Откройте файл, чтобы добавить событие в свой календарь (с напоминанием за день).`;
      },
    );

  /** @param {boolean} closing */
  const close = (closing) =>
    run(
      () => ipc.caseClose(current.draft_id, closing),
      (next) => show(next, closing ? 'Дело закрыто.' : 'Дело снова открыто.'),
    );

  const correct = () =>
    run(
      () => ipc.draftCorrect(current.draft_id),
      (id) => actions.onOpenDraft(id, `Создан черновик № ${id} — копия поданного. Исправьте его и подайте как новую заявку; поданный черновик остаётся как был.`),
    );

  function unfile() {
    const dialog = byId('unfile-dialog', HTMLDialogElement);
    dialog.returnValue = '';
    dialog.addEventListener(
      'close',
      () => {
        if (dialog.returnValue !== 'unfile') return;
        void run(
          () => ipc.caseUnfile(current.draft_id),
          (next) => actions.onChanged(next, 'Отметка о подаче снята: сведения о подаче, ответ и их фотографии удалены, текст снова можно править.'),
        );
      },
      { once: true },
    );
    dialog.showModal();
  }

  /**
   * A form in place of the overview; `Отмена` brings the overview back.
   * @template T
   * @param {string} title
   * @param {FormFields<T>} fields
   * @param {string} submitLabel
   * @param {(values: T) => Promise<void>} submit
   */
  function form(title, fields, submitLabel, submit) {
    const error = h('p', { class: 'field-error', role: 'alert', hidden: true });
    const formHeading = h('h4', { tabindex: '-1' }, title);
    const element = h(
      'form',
      { class: 'case-form', novalidate: true },
      formHeading,
      error,
      fields.nodes,
      h(
        'div',
        { class: 'actions' },
        h('button', { type: 'submit', class: 'primary' }, submitLabel),
        h('button', { type: 'button', onclick: () => show(current) }, 'Отмена'),
      ),
    );
    element.addEventListener('submit', async (event) => {
      event.preventDefault();
      const invalid = fields.firstInvalid();
      if (invalid) {
        error.textContent = invalid.message;
        error.hidden = false;
        invalid.field.focus();
        return;
      }
      try {
        await submit(fields.read());
      } catch (failure) {
        // Nothing typed is lost: the form stays as it is, with the reason above it.
        error.textContent = ipc.messageOf(failure);
        error.hidden = false;
        fields.first.focus();
      }
    });
    replace(body, element);
    status.textContent = '';
    formHeading.focus();
  }

  /** @param {Filing | null} filing the facts to change, or null to mark the draft filed */
  function filingForm(filing) {
    const fields = filingFields({ today: current.today, values: filing ?? {}, company: current.profile_company });
    form(filing ? 'Сведения о подаче' : 'Отметить как поданное', fields, 'Сохранить', async (values) => {
      const next = await ipc.caseFile(current.draft_id, values);
      if (filing) show(next, 'Сведения о подаче сохранены.');
      else actions.onChanged(next, 'Заявка отмечена как поданная. Её текст и фотографии больше не меняются.');
    });
  }

  /** @param {Answer | null} answer the answer to change, or null to record one */
  function answerForm(answer) {
    const ids = { date: freshId('answered-on'), result: freshId('result') };
    const date = h('input', { id: ids.date, type: 'date', max: current.today, value: answer?.answered_on ?? current.today });
    const result = h(
      'select',
      { id: ids.result },
      ANSWER_RESULTS.map((r) => h('option', { value: r.code, selected: r.code === (answer?.result ?? 'solved') }, capitalised(r.label))),
    );
    /** @type {FormFields<AnswerForm>} */
    const fields = {
      nodes: [
        h('div', { class: 'field' }, h('label', { for: ids.date }, 'Когда пришёл ответ'), date),
        h('div', { class: 'field' }, h('label', { for: ids.result }, 'Что в ответе'), result),
      ],
      first: date,
      read: () => ({ answered_on: date.value, result: codeOf(result.value, ANSWER_RESULTS.map((choice) => choice.code)) }),
      firstInvalid: () => (date.value === '' ? { field: date, message: 'Укажите дату ответа: день, месяц и год.' } : null),
    };
    form('Ответ управляющей организации', fields, 'Сохранить ответ', async (values) => {
      show(await ipc.caseAnswer(current.draft_id, values), 'Ответ записан. Фото или скан ответа можно приложить ниже.');
    });
  }

  function nextLetter() {
    const inspectorateId = freshId('inspectorate');
    const inspectorate = h('input', { id: inspectorateId, type: 'text', maxlength: 300, autocomplete: 'organization', 'aria-describedby': `${inspectorateId}-hint` });
    /** @param {Exclude<FollowKind, 'correction'>} kind */
    const write = (kind) =>
      run(
        () => ipc.followUpWrite(current.draft_id, kind, kind === 'complaint' ? inspectorate.value : null),
        (id) =>
          actions.onOpenDraft(
            id,
            `${kind === 'complaint' ? 'Жалоба в жилищную инспекцию' : 'Повторная заявка'} написана по записанным сведениям, без модели: черновик № ${id}. Проверьте его, сохраните или распечатайте и подайте.`,
          ),
      );
    return h(
      'div',
      { class: 'case-next' },
      h('h4', {}, 'Следующее письмо'),
      h('p', {}, 'Приложение напишет его само по тому, что записано: дата и номер первой заявки, ваши слова о проблеме, срок ответа и ответ, если он был. Модель не нужна.'),
      h('div', { class: 'actions' }, h('button', { type: 'button', onclick: () => write('repeat') }, 'Написать повторную заявку')),
      h(
        'div',
        { class: 'field' },
        h('label', { for: inspectorateId }, 'Жилищная инспекция вашего региона'),
        inspectorate,
        h('p', { id: `${inspectorateId}-hint`, class: 'hint' }, 'Как её назвать в строке «Кому», например: Государственная жилищная инспекция Московской области. Название и адрес есть на сайте инспекции или на Госуслугах.'),
      ),
      h('div', { class: 'actions' }, h('button', { type: 'button', onclick: () => write('complaint') }, 'Написать жалобу в инспекцию')),
    );
  }

  const heading = h('h3', { id: headingId, tabindex: '-1' }, 'Подача и ответ');
  section.append(heading, body, status);
  show(detail);
  return {
    element: section,
    /**
     * Shows `message` in the panel's status line and moves focus to the panel.
     * @param {string} message
     */
    announce(message) {
      status.textContent = message;
      heading.focus();
    },
  };
}
