// «Новая заявка»: the form, autosave and restore, drafting with progress and cancel, and the
// result below the form. The form is never cleared by anything that happens here: whatever the
// outcome, every word the resident typed stays where it was.

import * as ipc from './ipc.js';
import { byId, characterCount, debounce, h, replace, unhandled } from './dom.js';
import { renderResult } from './result.js';
import { SUBJECTS, PROGRESS_FIRST, formatSeconds } from './words.js';

/**
 * @import { DraftResult, FieldError, JsonValue, RawInput } from './ipc-contract.js'
 * @import { NextAction } from './outcome-panel.js'
 */

/**
 * The form's text fields, each named as its RawInput field and its control's id.
 * @typedef {Exclude<keyof RawInput, 'confirmed_subject'>} TextField
 */

/**
 * What this screen asks of the navigation (main.js): the screens its next steps lead to.
 * @typedef {object} Navigation
 * @property {(screen: 'settings' | 'setup', focusId?: string) => void} show
 */

/**
 * A draft under way: its task id for «Отменить» and the timer of its «Прошло».
 * @typedef {{ taskId: string, timer: ReturnType<typeof setInterval> | undefined }} Running
 */

/** @type {readonly TextField[]} */
const TEXT_FIELDS = ['description', 'location', 'consequences', 'desired_actions'];
/** @type {readonly (keyof RawInput)[]} */
const ALL_FIELDS = [...TEXT_FIELDS, 'confirmed_subject'];
const AUTOSAVE_DELAY_MS = 400;

/**
 * The control of text field `field`: a textarea, or for `location` a one-line input.
 * @param {TextField} field
 * @returns {HTMLInputElement | HTMLTextAreaElement}
 */
function textControl(field) {
  const control = byId(field);
  if (control instanceof HTMLInputElement || control instanceof HTMLTextAreaElement) return control;
  throw new Error(`#${field} is not a text field`);
}

/** @param {Navigation} navigation */
export function setUpNewRequest(navigation) {
  const form = byId('draft-form');
  const resultArea = byId('new-result');
  const progress = byId('draft-progress');
  const progressState = byId('draft-progress-state');
  const progressElapsed = byId('draft-progress-elapsed');
  const submit = byId('draft-submit', HTMLButtonElement);
  const offline = byId('draft-offline', HTMLButtonElement);
  const autosaveStatus = byId('autosave-status');

  renderSubjectOptions(byId('subject-options'));

  // What the current result was drafted from, to tell the resident when the form moved on.
  /** @type {string | null} */
  let sentSnapshot = null;
  /** @type {Running | null} */
  let running = null;
  /** @type {HTMLParagraphElement | null} */
  let staleNote = null;

  const autosave = debounce(async () => {
    try {
      await ipc.inputAutosave(readInput());
      autosaveStatus.textContent = '';
    } catch (failure) {
      autosaveStatus.textContent = `Черновик текста не сохранился: ${ipc.messageOf(failure)}`;
    }
  }, AUTOSAVE_DELAY_MS);
  // A closing window gets one last save of whatever is still waiting for the pause.
  window.addEventListener('pagehide', () => autosave.flush());

  form.addEventListener('input', (event) => {
    const target = event.target;
    const field = target instanceof HTMLElement ? TEXT_FIELDS.find((name) => name === target.id) : undefined;
    if (field) updateCounter(field);
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
    running = { taskId, timer: undefined };
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
      progressState.textContent = ipc.messageOf(failure);
    }
  }

  /** @param {boolean} busy */
  function setBusy(busy) {
    progress.hidden = !busy;
    // The form stays editable while the model works; only starting a second draft is blocked.
    submit.disabled = busy;
    offline.disabled = busy;
    if (busy) byId('draft-cancel').focus();
  }

  /** @param {DraftResult} result */
  function showResult(result) {
    clearErrors();
    const active = document.activeElement;
    const focusWasInForm = active !== null && form.contains(active) && active.matches('input, textarea, select');
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

  /** @param {unknown} failure */
  function showFailure(failure) {
    replace(
      resultArea,
      h(
        'div',
        { class: 'panel panel-failed', role: 'alert' },
        h('h2', { class: 'result-heading', tabindex: '-1' }, 'Не удалось составить заявку'),
        h('p', {}, ipc.messageOf(failure)),
        h('p', { class: 'note' }, 'Всё, что вы написали, осталось в форме и сохранено.'),
      ),
    );
  }

  /**
   * The page's action of a next-step button (outcome-panel.js), not a code from Rust.
   * @param {NextAction} action
   */
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
        unhandled(action);
    }
  }

  /** @param {FieldError[]} errors */
  function showErrors(errors) {
    /** @type {HTMLElement | null} */
    let first = null;
    for (const error of errors) {
      const fieldName = ALL_FIELDS.find((name) => name === error.field) ?? 'description';
      const message = byId(`${fieldName}-error`);
      message.textContent = message.hidden ? error.message : `${message.textContent} ${error.message}`;
      message.hidden = false;
      const control = fieldName === 'confirmed_subject' ? checkedSubject() : textControl(fieldName);
      control.setAttribute('aria-invalid', 'true');
      if (fieldName !== 'description' && fieldName !== 'confirmed_subject') byId('more-fields', HTMLDetailsElement).open = true;
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
      autosaveStatus.textContent = `Не удалось вернуть сохранённый текст: ${ipc.messageOf(failure)}`;
    }
  }

  /**
   * Puts a stored draft's input back in the form, to be sent again.
   * @param {JsonValue} input the draft's input as typed (DraftListItem's `input`)
   */
  function load(input) {
    writeInput(rawInputOf(input));
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

/** @param {HTMLElement} container */
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

/** @param {TextField} field */
function updateCounter(field) {
  const counter = byId(`${field}-counter`);
  const count = characterCount(textControl(field).value.trim());
  const max = Number(counter.dataset.max);
  counter.textContent = `${count} из ${max}`;
  counter.classList.toggle('over', count > max);
}

/**
 * The subject's radio button that is checked («Не выбирать» unless another is).
 * @returns {HTMLInputElement}
 */
function checkedSubject() {
  const radio = byId('subject-fieldset').querySelector('input:checked');
  if (!(radio instanceof HTMLInputElement)) throw new Error('no subject radio button is checked');
  return radio;
}

/**
 * The form as a RawInput: empty fields are null, text is sent exactly as typed.
 * @returns {RawInput}
 */
function readInput() {
  /** @type {RawInput} */
  const input = { description: null, location: null, consequences: null, desired_actions: null, confirmed_subject: null };
  for (const field of TEXT_FIELDS) {
    const value = textControl(field).value;
    input[field] = value === '' ? null : value;
  }
  const checked = document.querySelector('input[name="confirmed_subject"]:checked');
  const subject = checked instanceof HTMLInputElement ? checked.value : '';
  input.confirmed_subject = subject === '' ? null : subject;
  return input;
}

/**
 * A stored draft's input as the form takes it. Rust sends it as any JSON: an object of the
 * form's fields for everything the page or a batch stored, but a file written by hand for the
 * command-line tool may hold other values there, or not be JSON at all (its text then comes as
 * a string). Whatever is not text in a field of an object leaves that field empty.
 * @param {JsonValue} input
 * @returns {RawInput}
 */
function rawInputOf(input) {
  const fields = input !== null && typeof input === 'object' && !Array.isArray(input) ? input : {};
  /** @param {keyof RawInput} name */
  const text = (name) => {
    const value = fields[name];
    return typeof value === 'string' ? value : null;
  };
  return {
    description: text('description'),
    location: text('location'),
    consequences: text('consequences'),
    desired_actions: text('desired_actions'),
    confirmed_subject: text('confirmed_subject'),
  };
}

/** @param {RawInput} input */
function writeInput(input) {
  for (const field of TEXT_FIELDS) {
    textControl(field).value = input[field] ?? '';
    updateCounter(field);
  }
  if (input.location || input.consequences || input.desired_actions) byId('more-fields', HTMLDetailsElement).open = true;
  const subject = input.confirmed_subject ?? '';
  const radio = document.querySelector(`input[name="confirmed_subject"][value="${CSS.escape(subject)}"]`);
  if (radio instanceof HTMLInputElement) radio.checked = true;
}
