// «Настройки»: the provider preset, server address, model and schema mode; the API key; the
// details for the document header (profile.js); the connection check. The key field is write-only: the page sends a key and learns only whether one
// is stored, and nothing the Rust side returns is ever written into that field.

import * as ipc from './ipc.js';
import { byId, h, replace, unhandled } from './dom.js';
import { CHECK_STATUS_LABELS } from './words.js';
import { setUpProfile } from './profile.js';

/** @import { CheckView, KeyStatusView, NextStep, ServiceFieldsView, SettingsView } from './ipc-contract.js' */

/**
 * What «Настройки» needs of the page's navigation (main.js).
 * @typedef {object} Navigation
 * @property {(screen: 'new' | 'setup', focusId?: string) => void} show shows one of the
 *   screens this one leads to, focusing the control `focusId` on it
 * @property {() => void} [unsavedChanged] hears that what leaving would lose may have changed
 */

/**
 * A setting the provider form writes (settings_set's `key`), and the service's own ones among
 * them (ServiceFieldsView).
 * @typedef {'scope' | 'folder_id' | 'base_url' | 'model' | 'schema_mode' | 'protocol'} SettingKey
 * @typedef {'scope' | 'folder_id' | 'protocol'} ServiceKey
 */

/**
 * What the provider form shows, by setting.
 * @typedef {Record<SettingKey, string>} Values
 */

// In the order they are sent and shown: the service's own fields (issue 15) above the address.
/** @type {ReadonlyArray<[SettingKey, string]>} */
const SETTING_FIELDS = [
  ['scope', 'gigachat-scope'],
  ['folder_id', 'folder-id'],
  ['base_url', 'base-url'],
  ['model', 'model-name'],
  ['schema_mode', 'schema-mode'],
  ['protocol', 'protocol'],
];

// The fields only some services use, with the kinds that use them (the engine's
// ProviderKind::accepts) and what the form shows when the profile leaves them unwritten.
/** @type {Record<ServiceKey, { kinds: string[], shown: string }>} */
const SERVICE_FIELDS = {
  scope: { kinds: ['gigachat'], shown: 'GIGACHAT_API_PERS' },
  folder_id: { kinds: ['yandex'], shown: '' },
  protocol: { kinds: ['yandex', 'openai', 'custom'], shown: 'chat_completions' },
};

/** @type {Record<string, string>} */
const KEY_LABELS = {
  gigachat: 'Ключ авторизации',
  default: 'Новый ключ доступа (API-ключ)',
};

/**
 * @param {SettingKey} key
 * @returns {key is ServiceKey}
 */
const isServiceKey = (key) => key in SERVICE_FIELDS;

/**
 * The service's own fields as the form shows them: what the profile has written, else what the
 * form shows when it leaves them unwritten.
 * @param {Partial<ServiceFieldsView>} service
 * @returns {Record<ServiceKey, string>}
 */
function serviceShown(service) {
  return {
    scope: service.scope ?? SERVICE_FIELDS.scope.shown,
    folder_id: service.folder_id ?? SERVICE_FIELDS.folder_id.shown,
    protocol: service.protocol ?? SERVICE_FIELDS.protocol.shown,
  };
}

/**
 * A field of the provider form: a text input or a select.
 * @param {string} id
 * @returns {HTMLInputElement | HTMLSelectElement}
 */
function control(id) {
  const element = byId(id);
  if (element instanceof HTMLInputElement || element instanceof HTMLSelectElement) return element;
  throw new Error(`#${id} is not a field`);
}

/** @param {Navigation} navigation */
export function setUpSettings(navigation) {
  const profile = setUpProfile();
  const presets = byId('preset-options');
  const providerForm = byId('provider-form');
  const providerStatus = byId('provider-status');
  const providerSave = byId('provider-save');
  const schemaMode = byId('schema-mode', HTMLSelectElement);
  const keyForm = byId('key-form');
  const keyInput = byId('api-key', HTMLInputElement);
  const keyError = byId('api-key-error');
  const keyStatusText = byId('key-status');
  const keySave = byId('key-save', HTMLButtonElement);
  const keyDeleteButton = byId('key-delete', HTMLButtonElement);
  const schemaModeDetails = byId('schema-mode-details', HTMLDetailsElement);
  const doctorStatus = byId('doctor-status');
  const doctorChecks = byId('doctor-checks');
  const profileForm = byId('profile-form');

  // `overview` is what is saved; the form shows `chosen` and the fields as the resident left
  // them. Nothing is written until «Сохранить настройки»: choosing a service only changes what
  // the form shows (issue 14).
  /** @type {SettingsView | null} */
  let overview = null;
  /** @type {string | null} */
  let chosen = null;
  // What the form showed for the chosen service before the resident typed: a field equal to it
  // is not sent, so the service's own default stays in force.
  /** @type {Values | null} */
  let shown = null;
  // The header details as they were last loaded or saved (profile.js owns that form).
  /** @type {string[] | null} */
  let profileSaved = null;
  // What is saved or shown changed without the resident typing: the page tells Rust whether
  // closing the window would lose anything (main.js).
  const unsavedChanged = () => navigation.unsavedChanged?.();

  async function load() {
    try {
      overview = await ipc.settingsGet();
      renderOverview();
    } catch (failure) {
      providerStatus.textContent = ipc.messageOf(failure);
    }
  }

  /** What is saved: nothing on this screen acts on it before `load` has read it. */
  function loaded() {
    if (overview === null) throw new Error('«Настройки» used before settings_get answered');
    return overview;
  }

  function renderOverview() {
    const overview = loaded();
    chosen = overview.active_profile;
    replace(
      presets,
      overview.presets.map((preset) => {
        const noteId = `preset-note-${preset.name}`;
        const radio = h('input', {
          type: 'radio',
          name: 'preset',
          value: preset.name,
          checked: chosen === preset.name,
          'aria-describedby': noteId,
        });
        radio.addEventListener('change', () => choosePreset(preset.name));
        return h(
          'div',
          { class: `choice-block preset ${preset.local ? 'preset-local' : 'preset-remote'}` },
          h('label', { class: 'choice' }, radio, ` ${preset.label}`),
          h('p', { id: noteId, class: 'hint' }, `${preset.privacy_note} ${preset.cost_note}`),
        );
      }),
    );
    showFields(savedValues());
    renderKeyStatus(overview.key);
    unsavedChanged();
  }

  /**
   * The kind of a service on the list: the saved profile's own, else the preset's name.
   * @param {string | null} name
   */
  function kindOf(name) {
    if (name !== null && name === overview?.active_profile) return overview.service?.kind ?? name;
    return name;
  }

  /**
   * Whether the chosen service uses `key` (every field but the service's own ones).
   * @param {SettingKey} key
   */
  function uses(key) {
    if (!isServiceKey(key)) return true;
    const kind = kindOf(chosen);
    return kind !== null && SERVICE_FIELDS[key].kinds.includes(kind);
  }

  /**
   * What is saved, as the form shows it.
   * @returns {Values}
   */
  function savedValues() {
    const overview = loaded();
    const effective = overview.effective;
    // A saved profile that is not complete yet (a Yandex one without its folder) shows its
    // preset's address and model, and leaves the format to the service.
    const preset = effective ? null : overview.presets.find((candidate) => candidate.name === overview.active_profile);
    return {
      base_url: effective?.base_url ?? preset?.base_url ?? '',
      model: effective?.model ?? preset?.model ?? '',
      schema_mode: effective?.schema_mode ?? (preset ? '' : 'json_object'),
      ...serviceShown(overview.service),
    };
  }

  /** @param {Values} values */
  function showFields(values) {
    shown = values;
    byId('base-url', HTMLInputElement).value = values.base_url;
    byId('model-name', HTMLInputElement).value = values.model;
    setServiceDefaultOption(values.schema_mode === '');
    schemaMode.value = values.schema_mode;
    byId('gigachat-scope', HTMLSelectElement).value = values.scope;
    byId('folder-id', HTMLInputElement).value = values.folder_id;
    byId('protocol', HTMLSelectElement).value = values.protocol;
    // Only the fields the chosen service uses are shown, named as that service names them.
    byId('gigachat-scope-field').hidden = !uses('scope');
    byId('folder-id-field').hidden = !uses('folder_id');
    byId('protocol-field').hidden = !uses('protocol');
    // The example address is for a server of one's own; a hosted service's address is given.
    const kind = kindOf(chosen);
    byId('base-url-hint').hidden = kind === 'gigachat' || kind === 'yandex';
    const keyLabel = keyInput.labels?.[0];
    if (keyLabel) keyLabel.textContent = KEY_LABELS[kind ?? 'default'] ?? KEY_LABELS.default;
  }

  /**
   * While a service is chosen but not saved, the page does not know how that service keeps the
   * format; the extra choice says so and leaves it to the service's own setting.
   * @param {boolean} present
   */
  function setServiceDefaultOption(present) {
    const existing = schemaMode.querySelector('option[value=""]');
    if (present && !existing) {
      schemaMode.prepend(h('option', { value: '' }, 'Как принято для выбранного сервиса'));
    } else if (!present && existing) {
      existing.remove();
    }
  }

  /** @param {string | null} name */
  function presetLabel(name) {
    return overview?.presets.find((preset) => preset.name === name)?.label ?? name;
  }

  /** @param {string} name */
  function choosePreset(name) {
    const overview = loaded();
    clearFieldErrors();
    chosen = name;
    if (name === overview.active_profile) {
      showFields(savedValues());
      providerStatus.textContent = 'Выбран сохранённый сервис. Изменений нет.';
      return;
    }
    const preset = overview.presets.find((candidate) => candidate.name === name);
    showFields({
      base_url: preset?.base_url ?? '',
      model: preset?.model ?? '',
      schema_mode: '',
      ...serviceShown({}),
    });
    let fields = preset?.base_url ? 'Адрес и модель показаны по умолчанию — их можно изменить.' : 'Впишите адрес сервера и модель.';
    if (uses('folder_id')) fields = `Впишите идентификатор каталога. ${fields}`;
    providerStatus.textContent = `Выбран сервис «${presetLabel(name)}», но он ещё не сохранён. ${fields} Чтобы пользоваться этим сервисом, нажмите «Сохранить настройки».`;
  }

  /** What the provider form holds now, by setting. */
  function typedProvider() {
    return Object.fromEntries(SETTING_FIELDS.map(([key, id]) => [key, control(id).value]));
  }

  function providerChanged() {
    if (overview === null) return false;
    if (chosen !== overview.active_profile) return true;
    const typed = typedProvider();
    return SETTING_FIELDS.some(([key]) => uses(key) && typed[key] !== (shown?.[key] ?? ''));
  }

  providerForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearFieldErrors();
    if (overview === null) return;
    const typed = typedProvider();
    const switching = chosen !== overview.active_profile;
    /** @type {HTMLElement | null} */
    let firstInvalid = null;
    let changed = 0;
    // A service differs from the saved one only once it was chosen on the list.
    if (switching && chosen !== null) {
      try {
        overview = await ipc.settingsSet('active_profile', chosen);
        changed += 1;
      } catch (failure) {
        providerStatus.textContent = ipc.messageOf(failure);
        const checked = presets.querySelector('input:checked');
        if (checked instanceof HTMLElement) checked.focus();
        return;
      }
    }
    for (const [key, id] of SETTING_FIELDS) {
      if (!uses(key)) continue;
      const field = control(id);
      const value = key === 'folder_id' ? typed[key].trim() : typed[key];
      // What the form shows is what is saved; «Как принято для выбранного сервиса» and the
      // empty fields of «Свой сервер» leave the service's own value. A folder saved just
      // before completes a Yandex profile, so what is saved is read again for each field.
      const saved = savedValues();
      if (key === 'schema_mode' && value === '') continue;
      if (value === (isServiceKey(key) ? saved[key] : (overview.effective?.[key] ?? ''))) continue;
      // A profile not complete yet (a Yandex one whose folder was refused) keeps the preset's
      // address and model as defaults rather than writing them.
      const preset = overview.presets.find((candidate) => candidate.name === chosen);
      if (overview.effective === null && (key === 'base_url' || key === 'model') && value === preset?.[key]) continue;
      // A Yandex model's short name is the same model as its full name under the folder (the
      // engine expands it, ADR 23).
      if (key === 'model' && overview.effective?.model === `gpt://${overview.service?.folder_id}/${value}`) continue;
      if (switching && value === '' && shown?.[key] === '') continue;
      try {
        overview = await ipc.settingsSet(key, value);
        changed += 1;
      } catch (failure) {
        const error = byId(`${id}-error`);
        error.textContent = ipc.messageOf(failure);
        error.hidden = false;
        field.setAttribute('aria-invalid', 'true');
        if (key === 'schema_mode' || key === 'protocol') schemaModeDetails.open = true;
        firstInvalid ??= field;
      }
    }
    if (firstInvalid) {
      // The service is saved; the refused fields keep what was typed, to be fixed and saved.
      const kept = typedProvider();
      renderOverview();
      for (const [key, id] of SETTING_FIELDS) {
        if (byId(id).getAttribute('aria-invalid') === 'true') control(id).value = kept[key];
      }
      unsavedChanged();
      providerStatus.textContent = 'Не все настройки сохранены: исправьте отмеченные поля.';
      firstInvalid.focus();
      return;
    }
    renderOverview();
    providerStatus.textContent = changed > 0 ? 'Настройки сохранены.' : 'Изменений нет.';
  });

  function clearFieldErrors() {
    for (const [, id] of SETTING_FIELDS) {
      byId(`${id}-error`).hidden = true;
      byId(id).removeAttribute('aria-invalid');
    }
  }

  // --- Unsaved changes: what leaving the screen would lose. ---------------------------------

  const PROFILE_FIELDS = [...profileForm.querySelectorAll('input')];
  const profileValues = () => PROFILE_FIELDS.map((field) => field.value);

  // profile.js writes the saved values back into its fields after a save or a clearing and then
  // says so in its status line; the fields it did not refuse are what is saved now.
  new MutationObserver(() => {
    const before = profileSaved;
    if (before === null) return;
    profileSaved = PROFILE_FIELDS.map((field, index) =>
      field.getAttribute('aria-invalid') === 'true' ? before[index] : field.value,
    );
    unsavedChanged();
  }).observe(byId('profile-status'), { childList: true, characterData: true, subtree: true });

  /** What would be lost by leaving now, in words for the question; empty when nothing. */
  function unsavedParts() {
    const parts = [];
    if (providerChanged()) parts.push('сервис модели');
    if (keyInput.value.trim() !== '') parts.push('ключ доступа');
    const saved = profileSaved;
    if (saved !== null && profileValues().some((value, index) => value !== saved[index])) {
      parts.push('данные для шапки документа');
    }
    return parts;
  }

  /** Puts every field back as it is saved. */
  function discard() {
    clearFieldErrors();
    if (overview !== null) renderOverview();
    providerStatus.textContent = '';
    keyInput.value = '';
    keyError.hidden = true;
    keyInput.removeAttribute('aria-invalid');
    const saved = profileSaved;
    if (saved !== null) {
      PROFILE_FIELDS.forEach((field, index) => {
        field.value = saved[index];
        field.removeAttribute('aria-invalid');
      });
      for (const error of profileForm.querySelectorAll('.field-error')) if (error instanceof HTMLElement) error.hidden = true;
    }
  }

  /** @param {KeyStatusView} key */
  function renderKeyStatus(key) {
    let text;
    if (key.source === 'environment') {
      text = 'Ключ берётся из переменной окружения ZAYAVKA_API_KEY.';
    } else if (key.stored) {
      text = 'Ключ сохранён.';
    } else {
      text = 'Ключ не задан.';
    }
    // A server that does not require a key: the engine says whether one is sent (issue 14).
    if (key.optional_note) text = key.optional_note;
    // The service by the name on the screen («Свой сервер»), not the profile's internal name.
    if (key.profile) text += ` Сервис: ${presetLabel(key.profile)}.`;
    if (!key.keyring_available) {
      text += ' Хранилище ключей системы недоступно: ключ можно задать только переменной окружения ZAYAVKA_API_KEY.';
    }
    keyStatusText.textContent = text;
    keySave.textContent = key.stored ? 'Заменить ключ' : 'Сохранить ключ';
    keyDeleteButton.disabled = !key.stored || key.source === 'environment';
    keySave.disabled = !key.keyring_available;
  }

  keyForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    keyError.hidden = true;
    keyInput.removeAttribute('aria-invalid');
    const secret = keyInput.value.trim();
    if (overview !== null && chosen !== overview.active_profile) {
      // A key belongs to the saved service; storing it now would give it to the other one.
      keyError.textContent = `Сначала сохраните выбор сервиса «${presetLabel(chosen)}» кнопкой «Сохранить настройки»: ключ сохраняется для выбранного сервиса.`;
      keyError.hidden = false;
      providerSave.focus();
      return;
    }
    if (secret === '') {
      keyError.textContent = 'Вставьте ключ доступа в поле и нажмите кнопку ещё раз.';
      keyError.hidden = false;
      keyInput.setAttribute('aria-invalid', 'true');
      keyInput.focus();
      return;
    }
    try {
      const status = await ipc.keySet(secret);
      // The key leaves the page as soon as it is stored: the field is emptied, never refilled.
      keyInput.value = '';
      renderKeyStatus(status);
      unsavedChanged();
    } catch (failure) {
      keyError.textContent = ipc.messageOf(failure);
      keyError.hidden = false;
      keyInput.setAttribute('aria-invalid', 'true');
      keyInput.focus();
    }
  });

  keyDeleteButton.addEventListener('click', async () => {
    try {
      renderKeyStatus(await ipc.keyDelete());
      keySave.focus();
    } catch (failure) {
      keyStatusText.textContent = ipc.messageOf(failure);
    }
  });

  // The first-run setup again, with its steps for each service (issue 15).
  byId('setup-open').addEventListener('click', () => navigation.show('setup'));

  byId('connection-check').addEventListener('click', async () => {
    doctorStatus.textContent = 'Проверяем…';
    replace(doctorChecks);
    // The check uses what is saved; a choice not yet saved is not part of it.
    const unsaved = providerChanged() ? ' Проверены сохранённые настройки: несохранённые изменения сервиса не учтены.' : '';
    try {
      const report = await ipc.connectionCheck();
      const problems = report.checks.filter((check) => check.status === 'problem').length;
      doctorStatus.textContent = (problems === 0 ? 'Проверка закончена: всё работает.' : 'Проверка закончена: есть что исправить.') + unsaved;
      replace(doctorChecks, report.checks.map(checkItem));
    } catch (failure) {
      doctorStatus.textContent = ipc.messageOf(failure);
    }
  });

  /** @param {CheckView} check */
  function checkItem(check) {
    const fix = fixButton(check.next_step);
    return h(
      'li',
      { class: `check check-${check.status}` },
      h('p', { class: 'check-title' }, h('span', { class: `chip chip-check-${check.status}` }, CHECK_STATUS_LABELS[check.status] ?? check.status), ` ${check.title}`),
      h('p', {}, check.message),
      fix,
    );
  }

  /**
   * Where to act on a check's next step, when «Настройки» or a screen it leads to can.
   * @param {NextStep | null} step
   * @returns {HTMLButtonElement | null}
   */
  function fixButton(step) {
    if (step === null) return null;
    switch (step) {
      case 'store_api_key':
        return h('button', { type: 'button', onclick: () => keyInput.focus() }, 'Задать ключ');
      case 'switch_schema_mode':
        return h('button', { type: 'button', onclick: () => { schemaModeDetails.open = true; schemaMode.focus(); } }, 'К формату ответа');
      case 'configure_provider':
        return h('button', { type: 'button', onclick: () => navigation.show('setup') }, 'Мастер подключения');
      case 'check_provider_settings':
        return h('button', { type: 'button', onclick: () => presets.querySelector('input')?.focus() }, 'К настройкам сервиса');
      case 'draft_without_model':
        return h('button', { type: 'button', onclick: () => navigation.show('new', 'draft-offline') }, 'Составить без модели');
      // Nothing here changes these: the check's message says what to do.
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

  return {
    enter() {
      // Coming back to the screen shows what is saved, unless the resident is still editing it.
      if (unsavedParts().length > 0) return;
      void load();
      void profile.enter().then(() => {
        profileSaved = profileValues();
        unsavedChanged();
      });
    },
    unsavedParts,
    discard,
    focusSave() {
      const parts = unsavedParts();
      if (parts.includes('сервис модели')) providerSave.focus();
      else if (parts.includes('ключ доступа')) keyInput.focus();
      else if (parts.length > 0) byId('profile-save').focus();
    },
  };
}
