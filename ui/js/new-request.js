// «Новая заявка»: the form, autosave and restore, drafting with progress and cancel, and the
// result below the form. The form is never cleared by anything that happens here: whatever the
// outcome, every word the resident typed stays where it was.

import * as ipc from './ipc.js';
import { byId, characterCount, debounce, h, replace } from './dom.js';
import { renderResult } from './result.js';
import { SUBJECTS, PROGRESS_FIRST, formatSeconds } from './words.js';

const TEXT_FIELDS = ['description', 'location', 'consequences', 'desired_actions'];
const ALL_FIELDS = [...TEXT_FIELDS, 'confirmed_subject'];
const AUTOSAVE_DELAY_MS = 400;

export function setUpNewRequest(navigation) {
  const form = byId('draft-form');
  const resultArea = byId('new-result');
  const progress = byId('draft-progress');
  const progressState = byId('draft-progress-state');
  const progressElapsed = byId('draft-progress-elapsed');
  const submit = byId('draft-submit');
  const offline = byId('draft-offline');
  const autosaveStatus = byId('autosave-status');

  renderSubjectOptions(byId('subject-options'));

  // What the current result was drafted from, to tell the resident when the form moved on.
  let sentSnapshot = null;
  let running = null;
  let staleNote = null;

  const autosave = debounce(async () => {
    try {
      await ipc.inputAutosave(readInput());
      autosaveStatus.textContent = '';
    } catch (failure) {
      autosaveStatus.textContent = `Черновик текста не сохранился: ${failure.message}`;
    }
  }, AUTOSAVE_DELAY_MS);
  // A closing window gets one last save of whatever is still waiting for the pause.
  window.addEventListener('pagehide', () => autosave.flush());

  form.addEventListener('input', (event) => {
    if (event.target.id && TEXT_FIELDS.includes(event.target.id)) updateCounter(event.target.id);
    autosave();
    updateStale();
  });
  form.addEventListener('change', () => {
    autosave();
    updateStale();
  });

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void draftWithModel();
  });
  offline.addEventListener('click', () => void draftWithoutModel());
  byId('draft-cancel').addEventListener('click', () => void cancel());

  function updateStale() {
    if (!staleNote || sentSnapshot === null) return;
    staleNote.hidden = JSON.stringify(readInput()) === sentSnapshot;
  }

  function newStaleNote() {
    staleNote = h(
      'p',
      { class: 'stale-note', role: 'note', hidden: true },
      'Этот результат составлен по прежнему тексту: после отправки вы изменили форму. Чтобы учесть изменения, составьте заявку ещё раз.',
    );
    return staleNote;
  }

  // A new run replaces what the last one left: its failure box or result, and the note that the
  // result belongs to an earlier text, go as soon as the new run starts (issue 14).
  function clearPrevious() {
    staleNote = null;
    sentSnapshot = null;
    replace(resultArea);
  }

  async function draftWithModel() {
    if (running) return;
    const input = readInput();
    clearPrevious();
    sentSnapshot = JSON.stringify(input);
    const taskId = ipc.newTaskId();
    const started = Date.now();
    running = { taskId, timer: null };
    setBusy(true);
    progressState.textContent = PROGRESS_FIRST;
    progressElapsed.textContent = 'Прошло 0 с';
    running.timer = setInterval(() => {
      progressElapsed.textContent = `Прошло ${formatSeconds(Date.now() - started)}`;
    }, 1000);
    try {
      const result = await ipc.draftRun(input, taskId, (message) => {
        progressState.textContent = message.message;
      });
      showResult(result);
    } catch (failure) {
      showFailure(failure);
    } finally {
      clearInterval(running.timer);
      running = null;
      setBusy(false);
    }
  }

  async function draftWithoutModel() {
    if (running) return;
    const input = readInput();
    clearPrevious();
    sentSnapshot = JSON.stringify(input);
    try {
      showResult(await ipc.draftOffline(input));
    } catch (failure) {
      showFailure(failure);
    }
  }

  async function cancel() {
    if (!running) return;
    progressState.textContent = 'Отменяем…';
    try {
      await ipc.draftCancel(running.taskId);
    } catch (failure) {
      progressState.textContent = failure.message;
    }
  }

  function setBusy(busy) {
    progress.hidden = !busy;
    // The form stays editable while the model works; only starting a second draft is blocked.
    submit.disabled = busy;
    offline.disabled = busy;
    if (busy) byId('draft-cancel').focus();
  }

  function showResult(result) {
    clearErrors();
    const focusWasInForm = form.contains(document.activeElement) && document.activeElement.matches('input, textarea, select');
    const view = renderResult(resultArea, result, {
      stale: newStaleNote(),
      onNextStep: (action) => handleAction(action),
    });
    updateStale();
    if (result.outcome === 'invalid_input') {
      showErrors(result.errors);
      return;
    }
    // Someone still typing keeps their place; everyone else is taken to what happened.
    if (!focusWasInForm) view.focus();
  }

  function showFailure(failure) {
    replace(
      resultArea,
      h(
        'div',
        { class: 'panel panel-failed', role: 'alert' },
        h('h2', { class: 'result-heading', tabindex: '-1' }, 'Не удалось составить заявку'),
        h('p', {}, failure.message),
        h('p', { class: 'note' }, 'Всё, что вы написали, осталось в форме и сохранено.'),
      ),
    );
  }

  function handleAction(action) {
    switch (action) {
      case 'retry':
        void draftWithModel();
        break;
      case 'draft_without_model':
        void draftWithoutModel();
        break;
      case 'open_settings':
        navigation.show('settings');
        break;
      case 'open_setup':
        navigation.show('setup');
        break;
      case 'store_api_key':
        navigation.show('settings', 'api-key');
        break;
      case 'focus_description':
        byId('description').focus();
        break;
      default:
        break;
    }
  }

  function showErrors(errors) {
    let first = null;
    for (const error of errors) {
      const fieldName = ALL_FIELDS.includes(error.field) ? error.field : 'description';
      const message = byId(`${fieldName}-error`);
      message.textContent = message.hidden ? error.message : `${message.textContent} ${error.message}`;
      message.hidden = false;
      const control = fieldName === 'confirmed_subject' ? byId('subject-fieldset').querySelector('input:checked') : byId(fieldName);
      control.setAttribute('aria-invalid', 'true');
      if (fieldName !== 'description' && fieldName !== 'confirmed_subject') byId('more-fields').open = true;
      first ??= control;
    }
    if (first) {
      // Focus alone scrolls only as far as the control; the label and the message above it
      // must be in view too, or the resident sees a focused field with no reason.
      first.focus({ preventScroll: true });
      (first.closest('.field, fieldset') ?? first).scrollIntoView({ block: 'start', behavior: 'instant' });
    }
  }

  function clearErrors() {
    for (const field of ALL_FIELDS) {
      const message = byId(`${field}-error`);
      message.hidden = true;
      message.textContent = '';
    }
    for (const control of form.querySelectorAll('[aria-invalid]')) control.removeAttribute('aria-invalid');
  }

  async function restore() {
    try {
      const saved = await ipc.inputRestore();
      if (saved) writeInput(saved);
    } catch (failure) {
      autosaveStatus.textContent = `Не удалось вернуть сохранённый текст: ${failure.message}`;
    }
  }

  function load(input) {
    writeInput(input);
    autosave();
  }

  // The legal paragraph needs the model's own reading of the text, so with no model set up
  // (none chosen, or the chosen one incomplete) the subject choice says it will not add one.
  const offlineNote = byId('subject-offline-note');
  async function enter() {
    try {
      const overview = await ipc.settingsGet();
      offlineNote.hidden = overview.effective !== null;
    } catch {
      offlineNote.hidden = true;
    }
  }

  return { restore, load, enter };
}

function renderSubjectOptions(container) {
  const none = h(
    'div',
    { class: 'choice-block' },
    h('label', { class: 'choice' }, h('input', { type: 'radio', name: 'confirmed_subject', value: '', checked: true }), ' Не выбирать'),
  );
  const kinds = SUBJECTS.map((subject) =>
    h(
      'div',
      { class: 'choice-block' },
      h(
        'label',
        { class: 'choice' },
        h('input', { type: 'radio', name: 'confirmed_subject', value: subject.kind, 'aria-describedby': `hint-${subject.kind}` }),
        ` ${subject.label}`,
      ),
      h('p', { id: `hint-${subject.kind}`, class: 'hint' }, subject.hint),
    ),
  );
  replace(container, none, kinds);
}

function updateCounter(field) {
  const counter = byId(`${field}-counter`);
  const count = characterCount(byId(field).value.trim());
  const max = Number(counter.dataset.max);
  counter.textContent = `${count} из ${max}`;
  counter.classList.toggle('over', count > max);
}

/** The form as a RawInput: empty fields are null, text is sent exactly as typed. */
function readInput() {
  const input = {};
  for (const field of TEXT_FIELDS) {
    const value = byId(field).value;
    input[field] = value === '' ? null : value;
  }
  const subject = document.querySelector('input[name="confirmed_subject"]:checked')?.value ?? '';
  input.confirmed_subject = subject === '' ? null : subject;
  return input;
}

function writeInput(input) {
  for (const field of TEXT_FIELDS) {
    byId(field).value = input[field] ?? '';
    updateCounter(field);
  }
  if (input.location || input.consequences || input.desired_actions) byId('more-fields').open = true;
  const subject = input.confirmed_subject ?? '';
  const radio = document.querySelector(`input[name="confirmed_subject"][value="${CSS.escape(subject)}"]`);
  if (radio) radio.checked = true;
}
