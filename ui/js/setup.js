// «Подключение модели»: the first-run setup (issue 15). The app opens on it while no model
// service is set up (settings_get's `first_run`, decided in Rust); the form is always one click
// away, and «Пока без модели» or «Пропустить» remember the choice in Rust (setup_skip) so that
// the setup does not come back on every start. The choices come from the engine's presets as
// settings_get lists them, in their order and with their own privacy and cost lines; the steps
// to get a key are condensed from docs/providers.md — tests/ui/setup.test.js holds every button
// name, address and value they quote to that guide, so the two cannot drift apart unnoticed.
//
// Each choice has its own panel and fields, so switching choices loses nothing typed. A key
// field is write-only, as on «Настройки»: it is sent with key_set and emptied; no command ever
// returns a key.

import * as ipc from './ipc.js';
import { byId, h, replace, unhandled } from './dom.js';
import { CHECK_STATUS_LABELS } from './words.js';

/** @import { CheckView, NextStep, PresetView, SettingsView, SetupCheckView } from './ipc-contract.js' */

/**
 * What the setup needs of the page's navigation (main.js).
 * @typedef {object} Navigation
 * @property {(screen: 'new' | 'settings', focusId?: string) => void} show shows one of the
 *   screens this one leads to, focusing the control `focusId` on it
 */

/**
 * The setup's choices: the two named services, the local servers, the other services, and
 * «Пока без модели».
 * @typedef {'gigachat' | 'yandex'} NamedId
 * @typedef {NamedId | 'local' | 'other' | 'none'} ChoiceId
 */

/**
 * One choice of the setup, built from the presets: «Пока без модели» has none.
 * @typedef {object} Choice
 * @property {ChoiceId} id
 * @property {string} label
 * @property {PresetView[]} presets
 */

/**
 * A setting a choice's fields write (settings_set's `key`).
 * @typedef {'scope' | 'folder_id' | 'base_url' | 'model'} SetupSetting
 */

// The numbered steps of each choice. «…» quotes a button, section or field of the service (or
// of this screen); the guide quotes the same words.
/** @type {Record<Exclude<ChoiceId, 'none'>, string[]>} */
const STEPS = {
  gigachat: [
    'Откройте сайт developers.sber.ru и войдите в личный кабинет через Сбер ID.',
    'Нажмите «Создать проект», в разделе «AI-модели» выберите «GigaChat API», введите любое название и примите условия.',
    'В проекте откройте «Настройки API» и нажмите «Получить ключ».',
    'Скопируйте Authorization Key и вставьте его в поле «Ключ авторизации» ниже. Он показывается один раз; если потерялся — получите новый там же.',
    'В поле Scope проекта у физических лиц написано GIGACHAT_API_PERS — тогда «Тип доступа» не меняйте. Для ИП и юрлиц выберите то, что написано в проекте.',
    'Нажмите «Проверить подключение».',
  ],
  yandex: [
    'Войдите в AI Studio (aistudio.yandex.ru) с Яндекс ID и создайте организацию: каталог default появится сам.',
    'Привяжите платёжный аккаунт и банковскую карту.',
    'В консоли console.yandex.cloud откройте Identity and Access Management → «Сервисные аккаунты» и создайте аккаунт с любым именем.',
    'В каталоге на вкладке «Права доступа» нажмите «Настроить доступ» и дайте этому аккаунту роль ai.languageModels.user.',
    'В аккаунте нажмите «Создать новый ключ» → «Создать API-ключ», область действия yc.ai.languageModels.execute. Секретный ключ показывается один раз: вставьте его в поле «API-ключ» ниже.',
    'Идентификатор каталога написан в консоли под именем каталога и обычно начинается с b1g: впишите его в поле «Идентификатор каталога».',
    'Нажмите «Проверить подключение».',
  ],
  local: [
    'Установите и запустите Ollama, LM Studio или llama.cpp и скачайте модель, которая понимает русский.',
    'Запрос Заявки длинный: дайте модели контекст не меньше 8192, лучше 16384 токенов (например, llama-server -c 16384 или OLLAMA_CONTEXT_LENGTH=16384 ollama serve). С 4096 сервер откажется отвечать.',
    'Выберите сервер ниже. Адрес и модель вписаны по умолчанию — впишите модель, которую скачали.',
    'Нажмите «Проверить подключение».',
  ],
  other: [
    'В личном кабинете сервиса найдите три значения: адрес API (например, https://…/v1), название модели и API-ключ.',
    'Впишите их в поля ниже (для OpenAI и OpenRouter адрес уже вписан).',
    'Нажмите «Проверить подключение». Текст уходит на серверы этого сервиса — прочитайте его правила о хранении данных.',
  ],
};

// «Пока без модели» is not a preset, so its line is the page's own.
const NONE_NOTE =
  'Заявка соберётся из ваших слов: текст никуда не уходит, это бесплатно. Абзаца с нормой закона не будет — для него нужна модель.';

// The choices' own named services, as the engine's presets name them (settings_get).
/** @type {ReadonlyArray<string>} */
const NAMED = ['gigachat', 'yandex'];

/**
 * @param {string} name a preset's name
 * @returns {name is NamedId}
 */
const isNamed = (name) => NAMED.includes(name);

/** @type {ReadonlyArray<[value: string, text: string]>} */
const GIGACHAT_SCOPES = [
  ['GIGACHAT_API_PERS', 'Физическое лицо (GIGACHAT_API_PERS)'],
  ['GIGACHAT_API_B2B', 'ИП и юрлица — B2B'],
  ['GIGACHAT_API_CORP', 'Корпоративный — CORP'],
];

// The fields a server's preset fills in on «Модель на этом компьютере» and «Другой сервис».
/** @type {ReadonlyArray<'base_url' | 'model'>} */
const SERVER_SETTINGS = ['base_url', 'model'];

// The key field of each choice that takes a key.
/** @type {Partial<Record<ChoiceId, string>>} */
const KEY_FIELDS = { gigachat: 'setup-gigachat-key', yandex: 'setup-yandex-key', other: 'setup-other-key' };

/**
 * A field of a choice: a text input, or the select of GigaChat's access type.
 * @param {string} id
 * @returns {HTMLInputElement | HTMLSelectElement}
 */
function control(id) {
  const element = byId(id);
  if (element instanceof HTMLInputElement || element instanceof HTMLSelectElement) return element;
  throw new Error(`#${id} is not a field`);
}

/** @param {Navigation} navigation */
export function setUpSetup(navigation) {
  const options = byId('setup-options');
  const checkButton = byId('setup-check');
  // The check, its verdict and «Начать составлять заявку» go with the chosen choice's panel.
  const checkArea = byId('setup-check-area');
  const status = byId('setup-status');
  const checksList = byId('setup-checks');
  const startButton = byId('setup-start');

  /** @type {SettingsView | null} */
  let overview = null;
  // The choices, built once from the presets.
  /** @type {Choice[] | null} */
  let choices = null;
  /** @type {Choice | null} */
  let chosen = null;
  let checking = false;

  /** What is saved: nothing on this screen acts before `enter` has read it. */
  function loaded() {
    if (overview === null) throw new Error('the setup is used before settings_get answered');
    return overview;
  }

  /** The choices: nothing on this screen acts before `render` has built them. */
  function built() {
    if (choices === null) throw new Error('the setup is used before its choices are built');
    return choices;
  }

  /** @param {string} name */
  const presetByName = (name) => loaded().presets.find((preset) => preset.name === name);
  /** @param {PresetView} preset */
  const notesOf = (preset) => `${preset.privacy_note} ${preset.cost_note}`;

  /**
   * The choices in the engine's order: each named service, the local servers, the others.
   * @returns {Choice[]}
   */
  function buildChoices() {
    /** @type {Choice[]} */
    const list = [];
    const { presets } = loaded();
    const local = presets.filter((preset) => preset.local);
    const others = presets.filter((preset) => !preset.local && !isNamed(preset.name));
    for (const preset of presets) {
      if (isNamed(preset.name)) {
        list.push({ id: preset.name, label: preset.label, presets: [preset] });
      } else if (preset === local[0]) {
        list.push({ id: 'local', label: `Модель на этом компьютере (${local.map((p) => p.label).join(', ')})`, presets: local });
      } else if (preset === others[0]) {
        // «Свой сервер» first: it is the one for «another service».
        const ordered = [...others].sort((a, b) => Number(b.name === 'custom') - Number(a.name === 'custom'));
        list.push({ id: 'other', label: 'Другой сервис, совместимый с OpenAI', presets: ordered });
      }
    }
    list.push({ id: 'none', label: 'Пока без модели', presets: [] });
    return list;
  }

  /**
   * @param {string} id the control's id
   * @param {string} label
   * @param {HTMLElement} control
   * @param {string | null} [hint]
   */
  function field(id, label, control, hint = null) {
    const hintId = hint ? `${id}-hint` : null;
    control.setAttribute('aria-describedby', [`${id}-error`, hintId].filter(Boolean).join(' '));
    return h(
      'div',
      { class: 'field' },
      h('label', { for: id }, label),
      h('p', { id: `${id}-error`, class: 'field-error', hidden: true }),
      control,
      hint ? h('p', { id: hintId, class: 'note' }, hint) : null,
    );
  }

  /**
   * @param {string} id
   * @param {string} [type]
   */
  const textInput = (id, type = 'text') => h('input', { id, type, autocomplete: 'off', spellcheck: 'false' });
  /** @param {string} id */
  const keyInput = (id) => h('input', { id, type: 'password', autocomplete: 'off', spellcheck: 'false' });
  const KEY_HINT = 'Ключ хранится в защищённом хранилище системы. Приложение никогда не показывает его снова.';

  /**
   * The panel of one choice, shown under it once chosen: its numbered steps and its fields.
   * @param {Choice} choice
   */
  function buildPanel(choice) {
    const fields = [];
    if (choice.id === 'gigachat') {
      const scope = h('select', { id: 'setup-gigachat-scope' }, GIGACHAT_SCOPES.map(([value, text]) => h('option', { value }, text)));
      fields.push(field('setup-gigachat-key', 'Ключ авторизации', keyInput('setup-gigachat-key'), KEY_HINT));
      fields.push(field('setup-gigachat-scope', 'Тип доступа', scope));
    } else if (choice.id === 'yandex') {
      fields.push(field('setup-yandex-key', 'API-ключ', keyInput('setup-yandex-key'), KEY_HINT));
      const folder = textInput('setup-yandex-folder');
      folder.setAttribute('maxlength', '64');
      fields.push(field('setup-yandex-folder', 'Идентификатор каталога', folder, 'Например: b1gexamplefolder0a1b.'));
    } else if (choice.id === 'local' || choice.id === 'other') {
      const server = h(
        'select',
        { id: `setup-${choice.id}-server` },
        choice.presets.map((preset) => h('option', { value: preset.name }, preset.label)),
      );
      server.addEventListener('change', () => serverChanged(choice));
      fields.push(field(`setup-${choice.id}-server`, choice.id === 'local' ? 'Программа' : 'Сервис', server));
      fields.push(field(`setup-${choice.id}-base-url`, 'Адрес сервера', textInput(`setup-${choice.id}-base-url`, 'url')));
      fields.push(field(`setup-${choice.id}-model`, 'Модель', textInput(`setup-${choice.id}-model`)));
      if (choice.id === 'other') fields.push(field('setup-other-key', 'API-ключ', keyInput('setup-other-key'), KEY_HINT));
    }
    const body =
      choice.id === 'none'
        ? [
            h('p', {}, 'Заявку можно составить и без модели — приложение соберёт её из ваших слов. Подключить модель можно позже: «Настройки» → «Мастер подключения».'),
            h('div', { class: 'actions' }, h('button', { id: 'setup-none-go', type: 'button', class: 'primary', onclick: skip }, 'Составлять без модели')),
          ]
        : [h('ol', { class: 'setup-steps' }, STEPS[choice.id].map((step) => h('li', {}, step))), fields];
    return h('div', { id: `setup-panel-${choice.id}`, class: 'setup-panel', role: 'group', 'aria-label': choice.label, hidden: true }, body);
  }

  function render() {
    choices = buildChoices();
    replace(
      options,
      choices.map((choice) => {
        const noteId = `setup-note-${choice.id}`;
        const radio = h('input', { type: 'radio', name: 'setup-choice', value: choice.id, 'aria-describedby': noteId });
        radio.addEventListener('change', () => choose(choice.id));
        // The panel follows its choice, so what to do next appears where the resident looks, and
        // Tab from the chosen radio goes straight to its first field.
        return h(
          'div',
          { class: 'choice-block preset' },
          h('label', { class: 'choice' }, radio, ` ${choice.label}`),
          h('p', { id: noteId, class: 'hint' }, choice.id === 'none' ? NONE_NOTE : notesOf(choice.presets[0])),
          buildPanel(choice),
        );
      }),
    );
    for (const choice of choices) if (choice.id === 'local' || choice.id === 'other') serverChanged(choice, true);
  }

  /**
   * The preset a choice stands for now (the server picked in its list). Only a choice with
   * presets has one: the check and the server lists never ask for «Пока без модели»'s.
   * @param {Choice} choice
   * @returns {PresetView}
   */
  function presetOf(choice) {
    const preset =
      choice.id === 'local' || choice.id === 'other'
        ? presetByName(byId(`setup-${choice.id}-server`, HTMLSelectElement).value)
        : choice.presets[0];
    if (preset === undefined) throw new Error(`the choice ${choice.id} has no preset`);
    return preset;
  }

  /**
   * Another server in the list: its address and model, unless the resident typed their own.
   * @param {Choice} choice
   */
  function serverChanged(choice, first = false) {
    const preset = presetOf(choice);
    for (const key of SERVER_SETTINGS) {
      const input = byId(`setup-${choice.id}-${key === 'base_url' ? 'base-url' : 'model'}`, HTMLInputElement);
      const typedOwn = !first && input.value !== '' && !choice.presets.some((p) => p[key] === input.value);
      if (!typedOwn) input.value = preset[key];
    }
    byId(`setup-note-${choice.id}`).textContent = notesOf(preset);
  }

  /** Shows what is saved: the choice holding the saved profile, with its written values. */
  function showSaved() {
    const overview = loaded();
    const saved = overview.active_profile;
    if (saved === null) return;
    const choice = built().find((candidate) => candidate.presets.some((preset) => preset.name === saved));
    if (!choice) return;
    const radio = options.querySelector(`input[value="${choice.id}"]`);
    if (radio instanceof HTMLInputElement) radio.checked = true;
    if (choice.id === 'local' || choice.id === 'other') {
      byId(`setup-${choice.id}-server`, HTMLSelectElement).value = saved;
      serverChanged(choice, true);
      if (overview.effective) {
        byId(`setup-${choice.id}-base-url`, HTMLInputElement).value = overview.effective.base_url;
        byId(`setup-${choice.id}-model`, HTMLInputElement).value = overview.effective.model;
      }
    }
    if (choice.id === 'gigachat' && overview.service?.scope) byId('setup-gigachat-scope', HTMLSelectElement).value = overview.service.scope;
    if (choice.id === 'yandex' && overview.service?.folder_id) byId('setup-yandex-folder', HTMLInputElement).value = overview.service.folder_id;
    choose(choice.id);
  }

  /** @param {ChoiceId} id */
  function choose(id) {
    chosen = built().find((choice) => choice.id === id) ?? null;
    for (const choice of built()) byId(`setup-panel-${choice.id}`).hidden = choice.id !== id;
    if (id !== 'none') byId(`setup-panel-${id}`).append(checkArea);
    checkArea.hidden = id === 'none';
    clearResult();
  }

  function clearResult() {
    status.textContent = '';
    replace(checksList);
    startButton.hidden = true;
  }

  function clearErrors() {
    for (const error of options.querySelectorAll('.field-error')) if (error instanceof HTMLElement) error.hidden = true;
    for (const control of options.querySelectorAll('[aria-invalid]')) control.removeAttribute('aria-invalid');
  }

  /**
   * @param {string} id the field's id
   * @param {string} message
   */
  function showError(id, message) {
    const error = byId(`${id}-error`);
    error.textContent = message;
    error.hidden = false;
    byId(id).setAttribute('aria-invalid', 'true');
    return byId(id);
  }

  /**
   * Which field each setting of a choice is typed in.
   * @param {Choice} choice
   * @returns {Array<[SetupSetting, string]>}
   */
  function settingFields(choice) {
    if (choice.id === 'gigachat') return [['scope', 'setup-gigachat-scope']];
    if (choice.id === 'yandex') return [['folder_id', 'setup-yandex-folder']];
    return [
      ['base_url', `setup-${choice.id}-base-url`],
      ['model', `setup-${choice.id}-model`],
    ];
  }

  /** @param {Choice} choice */
  const keyFieldOf = (choice) => KEY_FIELDS[choice.id] ?? null;

  /**
   * What must be typed before anything is saved; the first field missing, or null.
   * @param {Choice} choice
   * @param {PresetView} preset
   */
  function missing(choice, preset) {
    const keyId = keyFieldOf(choice);
    const keyStored = loaded().active_profile === preset.name && loaded().key.stored;
    if (keyId && preset.needs_api_key && byId(keyId, HTMLInputElement).value.trim() === '' && !keyStored) {
      return showError(keyId, 'Вставьте ключ из личного кабинета сервиса (шаги выше) и нажмите кнопку ещё раз.');
    }
    if (choice.id === 'yandex' && byId('setup-yandex-folder', HTMLInputElement).value.trim() === '') {
      return showError('setup-yandex-folder', 'Впишите идентификатор каталога (шаг 6 выше) и нажмите кнопку ещё раз.');
    }
    for (const [key, id] of settingFields(choice)) {
      if ((key === 'base_url' || key === 'model') && control(id).value.trim() === '') {
        return showError(id, key === 'base_url' ? 'Впишите адрес сервера, например http://127.0.0.1:8080/v1.' : 'Впишите название модели.');
      }
    }
    return null;
  }

  /**
   * Saves the choice through the ordinary settings commands; false when something was refused.
   * @param {Choice} choice
   * @param {PresetView} preset
   */
  async function save(choice, preset) {
    overview = await ipc.settingsSet('active_profile', preset.name);
    for (const [key, id] of settingFields(choice)) {
      const value = key === 'folder_id' ? control(id).value.trim() : control(id).value;
      // What is saved already (or the service's own default) is not written again.
      const current =
        key === 'scope'
          ? (overview.service?.scope ?? 'GIGACHAT_API_PERS')
          : key === 'folder_id'
            ? (overview.service?.folder_id ?? '')
            : (overview.effective?.[key] ?? preset[key]);
      if (value === current) continue;
      try {
        overview = await ipc.settingsSet(key, value);
      } catch (failure) {
        if (!(failure instanceof ipc.IpcError) || failure.kind !== 'invalid_setting') throw failure;
        showError(id, failure.message).focus();
        return false;
      }
    }
    const keyId = keyFieldOf(choice);
    const secret = keyId ? byId(keyId, HTMLInputElement).value.trim() : '';
    if (keyId && secret !== '') {
      try {
        await ipc.keySet(secret);
        // The key leaves the page as soon as it is stored: the field is emptied, never refilled.
        byId(keyId, HTMLInputElement).value = '';
        byId(`${keyId}-hint`).textContent = `Ключ сохранён. ${KEY_HINT}`;
      } catch (failure) {
        showError(keyId, ipc.messageOf(failure)).focus();
        return false;
      }
    }
    return true;
  }

  checkButton.addEventListener('click', async () => {
    if (checking || chosen === null || chosen.id === 'none') return;
    clearErrors();
    clearResult();
    const choice = chosen;
    const preset = presetOf(choice);
    const first = missing(choice, preset);
    if (first) {
      first.focus();
      return;
    }
    checking = true;
    // Not `disabled`: a focused button that is disabled drops the keyboard's focus to the page.
    checkButton.setAttribute('aria-disabled', 'true');
    status.textContent = 'Сохраняем выбор и проверяем подключение: один небольшой запрос к сервису…';
    try {
      if (!(await save(choice, preset))) {
        status.textContent = 'Подключение не проверено: исправьте отмеченное поле.';
        return;
      }
      const report = await ipc.setupCheck();
      showReport(report, choice, preset);
    } catch (failure) {
      status.textContent = ipc.messageOf(failure);
    } finally {
      checking = false;
      checkButton.removeAttribute('aria-disabled');
    }
  });

  /**
   * @param {SetupCheckView} report
   * @param {Choice} choice
   * @param {PresetView} preset
   */
  function showReport(report, choice, preset) {
    status.textContent = report.ready
      ? `Подключение работает: заявки будет составлять модель сервиса «${preset.label}».`
      : 'Составлять заявки с моделью пока не получится. Исправьте то, что отмечено ниже, и нажмите «Проверить подключение» ещё раз. Без модели заявку можно составить уже сейчас.';
    replace(checksList, report.checks.map((check) => checkItem(check, choice)));
    startButton.hidden = false;
    startButton.classList.toggle('primary', report.ready);
    // The verdict is announced (role="status"); it is also brought into view, below the fields.
    startButton.scrollIntoView({ block: 'nearest' });
  }

  /**
   * @param {CheckView} check
   * @param {Choice} choice
   */
  function checkItem(check, choice) {
    return h(
      'li',
      { class: `check check-${check.status}` },
      h('p', { class: 'check-title' }, h('span', { class: `chip chip-check-${check.status}` }, CHECK_STATUS_LABELS[check.status] ?? ''), ` ${check.title}`),
      h('p', {}, check.message),
      check.status === 'problem' ? fixButton(check.next_step, choice) : null,
    );
  }

  /**
   * Where to change what a problem names: the field on this screen, never a code.
   * @param {NextStep | null} step
   * @param {Choice} choice
   * @returns {HTMLButtonElement | null}
   */
  function fixButton(step, choice) {
    if (step === null) return null;
    switch (step) {
      case 'store_api_key': {
        const keyId = keyFieldOf(choice);
        return keyId ? h('button', { type: 'button', onclick: () => byId(keyId).focus() }, 'К полю ключа') : null;
      }
      case 'check_provider_settings':
      case 'configure_provider': {
        const [, id] = settingFields(choice).find(([key]) => key !== 'model') ?? [];
        return id ? h('button', { type: 'button', onclick: () => byId(id).focus() }, 'К настройкам сервиса') : null;
      }
      case 'switch_schema_mode':
        return h('button', { type: 'button', onclick: () => navigation.show('settings') }, 'Открыть настройки');
      // Nothing on this screen changes these: the check's message says what to do.
      case 'draft_without_model':
      case 'check_provider_account':
      case 'retry':
      case 'retry_later':
      // A draft's steps, not a connection check's.
      case 'fix_input':
      case 'describe_one_problem':
      case 'add_details':
      case 'shorten_text':
      case 'confirm_subject':
        return null;
      default:
        return unhandled(step);
    }
  }

  async function skip() {
    try {
      await ipc.setupSkip();
    } catch (failure) {
      // The form works all the same; the setup will be offered again at the next start.
      status.textContent = ipc.messageOf(failure);
    }
    navigation.show('new', 'description');
  }

  byId('setup-skip-link').addEventListener('click', (event) => {
    event.preventDefault();
    void skip();
  });
  startButton.addEventListener('click', () => navigation.show('new', 'description'));

  return {
    async enter() {
      try {
        const fresh = await ipc.settingsGet();
        // Built once: coming back keeps what was typed and chosen.
        if (choices === null) {
          overview = fresh;
          render();
          showSaved();
        } else {
          overview = fresh;
        }
      } catch (failure) {
        status.textContent = ipc.messageOf(failure);
      }
    },
  };
}
