// The result of one draft: the document-like card for `ready`, a calm panel for every other
// outcome. Used by «Новая заявка», «Черновики» and «Пакет», so an opened draft looks exactly like
// a fresh one. The card renders the typed sections; copying sends the plain `body` the Rust side
// rendered from the same sections, never text read back from the page.

import * as ipc from './ipc.js';
import { byId, freshId, h, replace } from './dom.js';
import {
  FIELD_LABELS,
  PANEL_HEADINGS,
  SOURCE_LABELS,
  SUBJECTS,
  TITLE_SOURCE_LABELS,
  legalStatusSentence,
  subjectLabel,
  formatDate,
  formatSeconds,
} from './words.js';

/**
 * Renders `result` (a DraftResult) into `container`.
 *
 * `options.onNextStep(step)` handles the steps that belong to the owning screen (retry, drafting
 * without a model, focusing a field, opening settings); `options.stale` is a node shown above the
 * result when it belongs to an earlier text; `options.explain` is an already loaded `explain`
 * record (an opened draft has it), otherwise it is loaded when the disclosure opens.
 */
export function renderResult(container, result, options = {}) {
  const view = new ResultView(container, options);
  view.show(result);
  return view;
}

class ResultView {
  constructor(container, options) {
    this.container = container;
    this.options = options;
    this.result = null;
    this.headingId = freshId('result-heading');
  }

  show(result) {
    this.result = result;
    const parts = [];
    if (this.options.stale) parts.push(this.options.stale);
    if (result.outcome === 'ready' && result.request) {
      parts.push(this.readyView(result));
    } else {
      parts.push(this.panel(result));
    }
    replace(this.container, ...parts);
  }

  /** Moves focus to the result's heading, so a keyboard or screen-reader user lands on it. */
  focus() {
    const heading = this.container.querySelector('.result-heading');
    if (!heading) return;
    // The result starts at the top of the window, not wherever the smallest scroll would leave it.
    heading.focus({ preventScroll: true });
    heading.scrollIntoView({ block: 'start' });
  }

  readyView(result) {
    const request = result.request;
    const shown = request.edited ?? { title: request.title, body: request.body };
    const status = h('p', { class: 'quiet', role: 'status' });

    const parts = [h('h2', { id: this.headingId, class: 'result-heading', tabindex: '-1' }, 'Ваша заявка')];
    parts.push(h('p', {}, result.message));
    if (request.warnings.length > 0) {
      parts.push(
        h(
          'div',
          { class: 'warnings', role: 'note', 'aria-label': 'Предупреждения' },
          h('p', { class: 'warnings-title' }, 'Проверьте перед отправкой:'),
          h('ul', {}, request.warnings.map((warning) => h('li', {}, warning))),
        ),
      );
    }
    // What the checks found in the model's sentences (issue 17): the words are marked in the
    // text below, at their sentence; the request stays ready and the resident decides.
    const unfaithful = request.edited ? [] : (request.faithfulness ?? []);
    if (unfaithful.length > 0) {
      parts.push(
        h(
          'div',
          { class: 'warnings faithfulness-summary', role: 'note', 'aria-label': 'Сверьте с вашим текстом' },
          h('p', { class: 'warnings-title' }, 'Сверьте описание со своим текстом.'),
          h(
            'p',
            {},
            'Модель могла добавить то, чего вы не писали. Такие слова выделены в тексте заявки, а под абзацем сказано, что проверить. ' +
              'Если всё верно, ничего делать не нужно; если нет — нажмите «Редактировать» и исправьте.',
          ),
        ),
      );
    }
    const offerSubject = result.next_steps.includes('confirm_subject') && result.draft_id !== null;
    parts.push(
      h(
        'p',
        { class: 'legal-status' },
        legalStatusSentence(request, result.model_used),
        offerSubject ? ' Выбрать вид проблемы можно под текстом заявки.' : null,
      ),
    );
    if (!result.model_used) {
      parts.push(h('p', { class: 'note' }, 'Модель не использовалась: заявка составлена из вашего текста.'));
    }

    parts.push(request.edited ? this.editedCard(shown) : this.documentCard(request));
    parts.push(this.legend(request));

    const actions = h('div', { class: 'actions' });
    actions.append(
      h('button', { type: 'button', class: 'primary', onclick: () => this.copy(shown, status) }, 'Скопировать'),
    );
    let collective = null;
    if (result.draft_id !== null) {
      const collectiveId = freshId('collective');
      collective = h('input', { type: 'checkbox', id: collectiveId, 'aria-describedby': `${collectiveId}-hint` });
      actions.append(
        h('button', { type: 'button', onclick: () => this.saveAs(status, collective.checked) }, 'Сохранить как…'),
        h('button', { type: 'button', onclick: () => this.print(status, collective.checked) }, 'Печать'),
        h('button', { type: 'button', onclick: () => this.edit(shown, status) }, 'Редактировать'),
      );
      parts.push(actions);
      parts.push(
        h(
          'div',
          { class: 'collective' },
          h('label', { class: 'choice', for: collectiveId }, collective, ' Коллективная заявка'),
          h('p', { id: `${collectiveId}-hint`, class: 'hint' }, 'В сохранённый и распечатанный документ добавится таблица, где соседи впишут свои ФИО и квартиры и распишутся.'),
        ),
      );
    } else {
      parts.push(actions);
    }
    parts.push(status);
    // The selector comes after the text: the resident reads the request first, then decides.
    if (offerSubject) {
      parts.push(this.subjectConfirmation(result));
    }
    // Photos come after the question: confirming the subject changes the text, photos do not.
    if (result.draft_id !== null) parts.push(this.photosSection(result.draft_id));
    if (result.draft_id !== null) parts.push(this.explainDisclosure(result.draft_id));
    return h('article', { class: 'result', 'aria-labelledby': this.headingId }, parts);
  }

  documentCard(request) {
    const findings = request.faithfulness ?? [];
    const sections = request.sections.map((section) => {
      const own = section.source === 'model' ? findings.filter((f) => f.field === section.kind) : [];
      return h(
        'div',
        { class: `doc-section source-${section.source}` },
        marker(SOURCE_LABELS[section.source] ?? section.source),
        h('p', {}, markWords(section.text, own)),
        faithfulnessNotes(own),
      );
    });
    const titleFindings = request.title_source === 'model' ? findings.filter((f) => f.field === 'title') : [];
    const itemSource = request.item.source;
    return h(
      'div',
      { class: 'document', 'aria-label': 'Текст заявки' },
      // Who wrote the title (issue 14): the resident's first words without a model.
      h(
        'div',
        { class: 'doc-heading' },
        marker(TITLE_SOURCE_LABELS[request.title_source] ?? request.title_source),
        h('p', { class: 'doc-title' }, markWords(request.title, titleFindings)),
        faithfulnessNotes(titleFindings),
      ),
      sections,
      h(
        'div',
        { class: `doc-section source-${itemSource}` },
        marker(SOURCE_LABELS[itemSource] ?? itemSource),
        h('p', {}, 'Прошу:'),
        h('p', {}, `1. ${request.item.text}`),
      ),
    );
  }

  editedCard(shown) {
    return h(
      'div',
      { class: 'document', 'aria-label': 'Текст заявки' },
      h('p', { class: 'doc-title' }, shown.title),
      h(
        'div',
        { class: 'doc-section source-edited' },
        marker(SOURCE_LABELS.edited),
        shown.body.split(/\n{2,}/).map((paragraph) => h('p', { class: 'keep-lines' }, paragraph)),
      ),
    );
  }

  legend(request) {
    const sources = request.edited
      ? ['edited']
      : [...new Set([...request.sections.map((section) => section.source), request.item.source])];
    return h(
      'div',
      { class: 'legend' },
      h('p', { class: 'legend-title' }, 'Пометки над абзацами и цветные полосы слева показывают, откуда взят текст. При копировании их нет.'),
      h(
        'ul',
        {},
        sources.map((source) =>
          h('li', { class: `legend-item source-${source}` }, h('span', { class: 'swatch', 'aria-hidden': 'true' }), SOURCE_LABELS[source] ?? source),
        ),
      ),
    );
  }

  subjectConfirmation(result) {
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
      if (!chosen) {
        error.textContent = 'Выберите, к чему относится проблема, и нажмите «Пересобрать заявку» ещё раз.';
        error.hidden = false;
        fieldset.querySelector('input')?.focus();
        return;
      }
      error.hidden = true;
      button.disabled = true;
      try {
        const next = await ipc.draftReassemble(result.draft_id, chosen.value);
        this.show(next);
        this.options.onReplaced?.(next);
        this.focus();
      } catch (failure) {
        error.textContent = failure.message;
        error.hidden = false;
        button.disabled = false;
      }
    });
    return h('div', { class: 'confirm-block' }, fieldset, h('div', { class: 'actions' }, button));
  }

  async copy(shown, status) {
    try {
      await ipc.clipboardWrite(`${shown.title}\n\n${shown.body}`);
      status.textContent = 'Текст заявки скопирован. Вставьте его в письмо или на сайт управляющей компании.';
    } catch (failure) {
      status.textContent = failure.message;
    }
  }

  saveAs(status, collective) {
    const dialog = byId('save-dialog');
    dialog.returnValue = '';
    const onClose = async () => {
      dialog.removeEventListener('close', onClose);
      if (dialog.returnValue !== 'save') return;
      const format = dialog.querySelector('input[name="format"]:checked')?.value ?? 'pdf';
      try {
        const path = await ipc.draftSaveAs(this.result.draft_id, format, collective);
        status.textContent = path === null ? 'Сохранение отменено.' : `Заявка сохранена: ${path}`;
      } catch (failure) {
        status.textContent = failure.message;
      }
    };
    dialog.addEventListener('close', onClose);
    dialog.showModal();
  }

  /**
   * Prints the filed document — the same header, text, date and signature line as the saved
   * PDF — through the system's print dialog. The page lays the document out in a block that only
   * paper shows, so what is printed is the document, not the app.
   */
  async print(status, collective) {
    try {
      const filed = await ipc.draftDocument(this.result.draft_id, collective);
      renderPrintDocument(filed);
      status.textContent = 'Открывается окно печати.';
      await ipc.printPage();
      status.textContent = '';
    } catch (failure) {
      status.textContent = failure.message;
    }
  }

  /**
   * «Фотографии к заявке»: the draft's photos, attached from the open dialog or by dropping
   * files on the window, each removable. The list loads after the card is shown.
   */
  photosSection(draftId) {
    const headingId = freshId('photos-heading');
    const list = h('ul', { class: 'photo-list' });
    const status = h('p', { role: 'status', class: 'photo-status' });
    const section = h(
      'section',
      { class: 'photos', 'aria-labelledby': headingId },
      h('h3', { id: headingId }, 'Фотографии к заявке'),
      h('p', { class: 'hint' }, 'Фотографии войдут в документ: в список «Приложения» и по одной на страницу в PDF. Модели они не отправляются, а место съёмки и модель камеры из файлов удаляются.'),
      list,
    );
    const show = (photos) => {
      replace(
        list,
        photos.length === 0 ? h('li', { class: 'quiet' }, 'Фотографий пока нет.') : null,
        photos.map((photo) =>
          h(
            'li',
            {},
            h('span', {}, `${photo.label}, ${photo.width} × ${photo.height}`),
            h('button', { type: 'button', class: 'link-button', 'aria-label': `Убрать ${photo.label}`, onclick: () => detach(photo) }, 'Убрать'),
          ),
        ),
      );
    };
    const attempt = async (work, done) => {
      try {
        const photos = await work();
        if (photos === null) return;
        show(photos);
        status.textContent = done(photos);
      } catch (failure) {
        status.textContent = failure.message;
      }
    };
    const attached = (photos) => `Фотографии приложены. Всего: ${photos.length}.`;
    const detach = (photo) =>
      attempt(() => ipc.draftDetach(draftId, photo.number), () => `${photo.label.split(' (')[0]} убрано.`);
    const choose = h('button', { type: 'button', onclick: () => attempt(() => ipc.draftAttachChosen(draftId), attached) }, 'Приложить фотографии…');
    section.append(h('div', { class: 'actions' }, choose, h('span', { class: 'quiet' }, 'или перетащите файлы в окно')), status);
    dropTargets.push({ section, attach: () => attempt(() => ipc.draftAttachDropped(draftId), attached) });
    attempt(() => ipc.draftPhotos(draftId), () => '');
    return section;
  }

  edit(shown, status) {
    const titleId = freshId('edit-title');
    const bodyId = freshId('edit-body');
    const errorId = freshId('edit-error');
    const title = h('input', { id: titleId, type: 'text', 'aria-describedby': errorId });
    const body = h('textarea', { id: bodyId, rows: '16', 'aria-describedby': errorId });
    title.value = shown.title;
    body.value = shown.body;
    const error = h('p', { id: errorId, class: 'field-error', hidden: true });
    const save = h('button', { type: 'submit', class: 'primary' }, 'Сохранить изменения');
    const cancel = h('button', { type: 'button', onclick: () => { this.show(this.result); this.focus(); } }, 'Отмена');
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
        const detail = await ipc.draftEdit(this.result.draft_id, title.value, body.value);
        this.options.explain = detail.explain;
        this.show(detail.result);
        this.options.onReplaced?.(detail.result);
        this.focus();
      } catch (failure) {
        error.textContent = failure.message;
        error.hidden = false;
        save.disabled = false;
        title.focus();
      }
    });
    replace(this.container, form);
    title.focus();
    void status;
  }

  explainDisclosure(draftId) {
    const body = h('div', { class: 'explain-body' });
    const details = h('details', { class: 'explain' }, h('summary', {}, 'Как получен результат'), body);
    details.addEventListener('toggle', async () => {
      if (!details.open || body.dataset.loaded) return;
      replace(body, h('p', { role: 'status' }, 'Загружаем запись о составлении…'));
      try {
        const explain = this.options.explain !== undefined ? this.options.explain : (await ipc.draftOpen(draftId)).explain;
        replace(body, explainView(explain));
        body.dataset.loaded = 'yes';
      } catch (failure) {
        replace(body, h('p', { role: 'alert' }, failure.message));
      }
    });
    return details;
  }

  panel(result) {
    const heading = h('h2', { id: this.headingId, class: 'result-heading', tabindex: '-1' }, PANEL_HEADINGS[result.outcome] ?? 'Заявка не составлена');
    const parts = [heading, h('p', { class: 'keep-lines' }, result.message)];
    if (result.hints.length > 0) {
      parts.push(h('ul', { class: 'hints' }, result.hints.map((hint) => h('li', {}, hint))));
    }
    if (result.outcome === 'invalid_input' && result.errors.length > 0) {
      parts.push(
        h(
          'ul',
          { class: 'error-list' },
          result.errors.map((error) => h('li', {}, `${FIELD_LABELS[error.field] ?? error.field}: ${error.message}`)),
        ),
      );
    }
    if (result.details) parts.push(failureDetails(result.details));
    parts.push(nextStepsView(result.next_steps, (step) => this.options.onNextStep?.(step, result)));
    parts.push(h('p', { class: 'note' }, 'Всё, что вы написали, осталось в форме и сохранено.'));
    return h('div', { class: `panel panel-${result.outcome}`, role: 'region', 'aria-labelledby': this.headingId }, parts);
  }
}

/**
 * «Подробности» of a technical failure: what failed and what the server answered, closed until
 * the resident opens it. The server's words are set as text, never as markup.
 */
function failureDetails(details) {
  const lines = [];
  if (details.detail) lines.push(h('p', {}, sentence(details.detail)));
  if (details.server_reason) {
    lines.push(h('p', {}, 'Ответ сервера: ', h('span', { class: 'server-reason' }, details.server_reason)));
  }
  return h('details', { class: 'failure-details' }, h('summary', {}, 'Подробности'), lines);
}

/** A detail as a sentence: capitalised, ending in one full stop. */
function sentence(text) {
  const trimmed = text.trim().replace(/\.+$/, '');
  return trimmed.length === 0 ? '' : `${trimmed[0].toUpperCase()}${trimmed.slice(1)}.`;
}

/** A quiet provenance marker: visible and read aloud, but never selected or copied. */
function marker(label) {
  return h('span', { class: 'marker' }, h('span', { class: 'visually-hidden' }, 'Источник: '), label);
}

/**
 * The text with the words the faithfulness checks found marked (issue 17). Spans count Unicode
 * characters, as the Rust side does; a span outside the text or overlapping an earlier one is
 * left unmarked rather than misplaced.
 */
export function markWords(text, findings) {
  const spans = findings
    .flatMap((finding) => finding.spans.map((span) => ({ ...span, certainty: finding.certainty })))
    .sort((a, b) => a.start - b.start);
  if (spans.length === 0) return text;
  const chars = Array.from(text);
  const parts = [];
  let at = 0;
  for (const span of spans) {
    if (span.start < at || span.end > chars.length || span.end <= span.start) continue;
    parts.push(chars.slice(at, span.start).join(''));
    parts.push(h('mark', { class: `unfaithful ${span.certainty}` }, chars.slice(span.start, span.end).join('')));
    at = span.end;
  }
  parts.push(chars.slice(at).join(''));
  return parts;
}

/** The checks' messages under the paragraph they concern, one per finding. */
function faithfulnessNotes(findings) {
  if (findings.length === 0) return null;
  return h(
    'ul',
    { class: 'faithfulness-notes', 'aria-label': 'Что проверить в этом абзаце' },
    findings.map((finding) => h('li', {}, finding.message)),
  );
}

const STEP_TEXT = {
  describe_one_problem: 'Опишите одну проблему — для второй составьте отдельную заявку.',
  add_details: 'Допишите, что именно случилось, где и как давно.',
  shorten_text: 'Сократите описание: приложение не обрезает текст само.',
  fix_input: 'Исправьте поля, отмеченные в форме.',
  retry_later: 'Подождите минуту и попробуйте снова.',
  check_provider_account: 'Проверьте баланс или квоту в личном кабинете сервиса модели.',
};

const STEP_BUTTONS = {
  retry: ['retry', 'Попробовать ещё раз'],
  retry_later: ['retry', 'Попробовать ещё раз'],
  draft_without_model: ['draft_without_model', 'Составить без модели'],
  configure_provider: ['open_settings', 'Открыть настройки'],
  check_provider_settings: ['open_settings', 'Открыть настройки'],
  switch_schema_mode: ['open_settings', 'Открыть настройки'],
  store_api_key: ['store_api_key', 'Задать ключ'],
  describe_one_problem: ['focus_description', 'Перейти к описанию'],
  add_details: ['focus_description', 'Перейти к описанию'],
  shorten_text: ['focus_description', 'Перейти к описанию'],
};

/**
 * The next steps as text and buttons, each button once. The actions it reports are the page's
 * own: `retry`, `draft_without_model`, `open_settings`, `store_api_key`, `focus_description`.
 */
export function nextStepsView(steps, onAction) {
  const texts = [];
  const buttons = new Map();
  for (const step of steps) {
    if (STEP_TEXT[step]) texts.push(STEP_TEXT[step]);
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

function explainView(explain) {
  if (explain === null) {
    return h('p', {}, 'Модель не использовалась: заявка составлена только из вашего текста, на этом компьютере.');
  }
  const facts = [
    ['Модель', explain.model ?? 'не указана'],
    ['Сервис', explain.provider_host ?? 'не указан'],
    ['Начало', explain.started_at ? formatDate(explain.started_at) : 'не записано'],
    ['Длительность', explain.duration_ms === null ? 'не записана' : formatSeconds(explain.duration_ms)],
  ];
  const attempts = h(
    'table',
    { class: 'table' },
    h('caption', {}, 'Попытки обращения к модели'),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, '№'), h('th', { scope: 'col' }, 'Ответ сервера'), h('th', { scope: 'col' }, 'Что произошло'), h('th', { scope: 'col' }, 'Время'))),
    h(
      'tbody',
      {},
      explain.attempts.map((attempt) =>
        h(
          'tr',
          {},
          h('td', {}, String(attempt.number)),
          h('td', {}, attempt.status === null ? 'нет ответа' : `HTTP ${attempt.status}`),
          h('td', {}, [attempt.error_kind ?? 'успешно', attempt.retry_reason ? ` (повтор: ${attempt.retry_reason})` : ''].join('')),
          h('td', {}, formatSeconds(attempt.duration_ms)),
        ),
      ),
    ),
  );
  return h(
    'div',
    {},
    h('dl', { class: 'facts' }, facts.map(([term, value]) => [h('dt', {}, term), h('dd', {}, value)])),
    h('p', {}, explain.legal_decision),
    attempts,
    h('h3', {}, 'Что было отправлено модели'),
    h('p', { class: 'note' }, 'Ваши данные из профиля модели не отправляются.'),
    explain.messages.map((message) =>
      h('div', { class: 'message' }, h('p', { class: 'message-role' }, message.role === 'system' ? 'Инструкция приложения' : message.role === 'user' ? 'Ваш текст' : message.role), h('pre', {}, message.content)),
    ),
  );
}

export { subjectLabel };

/** Fills the print-only block with a filed document as `draft_document` gives it. */
export function renderPrintDocument(filed) {
  const headerBlock = (lines) =>
    h('div', { class: 'print-block' }, lines.map((line) => h('p', {}, `${line.label}: ${line.value}`)));
  replace(
    byId('print-document'),
    h('div', { class: 'print-header' }, headerBlock(filed.recipient), headerBlock(filed.sender)),
    h('h1', {}, filed.title),
    h('div', { class: 'print-body' }, filed.paragraphs.map((paragraph) => h('p', {}, paragraph))),
    filed.appendix.length > 0 ? h('div', { class: 'print-appendix' }, filed.appendix.map((line) => h('p', {}, line))) : null,
    filed.co_signers ? coSignersTable(filed.co_signers) : null,
    h('p', { class: 'print-date' }, filed.date),
    h('p', { class: 'print-signature' }, filed.signature),
  );
}

/** The signatures table of a collective request: heading, sentence, and empty numbered rows. */
function coSignersTable(coSigners) {
  const rows = [];
  for (let number = 1; number <= coSigners.rows; number += 1) {
    rows.push(h('tr', {}, h('td', {}, String(number)), h('td'), h('td'), h('td')));
  }
  return h(
    'section',
    { class: 'print-co-signers' },
    h('h2', {}, coSigners.heading),
    h('p', {}, coSigners.sentence),
    h(
      'table',
      {},
      h('thead', {}, h('tr', {}, coSigners.columns.map((column) => h('th', { scope: 'col' }, column)))),
      h('tbody', {}, rows),
    ),
  );
}

// The photos sections files dropped on the window may go to: the one on screen (each screen may
// show a result; sections no longer in the page are forgotten). The window's own drag and drop
// keeps the files' paths in Rust.
let dropTargets = [];

function visibleDropTarget() {
  dropTargets = dropTargets.filter((target) => target.section.isConnected);
  return dropTargets.findLast((target) => target.section.offsetParent !== null) ?? null;
}

/**
 * Listens for files dragged onto the window. A drop attaches them to the draft whose result is
 * on screen; with none, the resident is told how to attach photos.
 */
export function watchPhotoDrops(onNoTarget) {
  return ipc.photosDropWatch((event) => {
    const target = visibleDropTarget();
    document.body.classList.toggle('files-over', event.kind === 'over' && target !== null);
    if (event.kind !== 'dropped') return;
    document.body.classList.remove('files-over');
    if (target !== null) {
      target.section.scrollIntoView({ block: 'nearest' });
      target.attach();
    } else {
      onNoTarget('Чтобы приложить фотографии, сначала составьте заявку или откройте черновик, затем перетащите файлы на окно ещё раз.');
    }
  });
}
