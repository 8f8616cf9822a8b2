// «Настройки»: the provider preset, server address, model and schema mode; the API key; the
// details for the document header (profile.js); the connection check. The key field is write-only: the page sends a key and learns only whether one
// is stored, and nothing the Rust side returns is ever written into that field.

import * as ipc from './ipc.js';
import { byId, h, replace } from './dom.js';
import { CHECK_STATUS_LABELS } from './words.js';
import { setUpProfile } from './profile.js';

const SETTING_FIELDS = [
  ['base_url', 'base-url'],
  ['model', 'model-name'],
  ['schema_mode', 'schema-mode'],
];

export function setUpSettings(navigation) {
  const profile = setUpProfile();
  const presets = byId('preset-options');
  const providerForm = byId('provider-form');
  const providerStatus = byId('provider-status');
  const keyForm = byId('key-form');
  const keyInput = byId('api-key');
  const keyError = byId('api-key-error');
  const keyStatusText = byId('key-status');
  const keySave = byId('key-save');
  const keyDeleteButton = byId('key-delete');
  const doctorStatus = byId('doctor-status');
  const doctorChecks = byId('doctor-checks');

  let overview = null;

  async function load() {
    try {
      overview = await ipc.settingsGet();
      renderOverview();
    } catch (failure) {
      providerStatus.textContent = failure.message;
    }
  }

  function renderOverview() {
    replace(
      presets,
      overview.presets.map((preset) => {
        const noteId = `preset-note-${preset.name}`;
        const radio = h('input', {
          type: 'radio',
          name: 'preset',
          value: preset.name,
          checked: overview.active_profile === preset.name,
          'aria-describedby': noteId,
        });
        radio.addEventListener('change', () => void choosePreset(preset.name));
        return h(
          'div',
          { class: `choice-block preset ${preset.local ? 'preset-local' : 'preset-remote'}` },
          h('label', { class: 'choice' }, radio, ` ${preset.label}`),
          h('p', { id: noteId, class: 'hint' }, `${preset.privacy_note} ${preset.cost_note}`),
        );
      }),
    );
    const effective = overview.effective;
    byId('base-url').value = effective?.base_url ?? '';
    byId('model-name').value = effective?.model ?? '';
    byId('schema-mode').value = effective?.schema_mode ?? 'json_object';
    renderKeyStatus(overview.key);
  }

  async function choosePreset(name) {
    clearFieldErrors();
    try {
      overview = await ipc.settingsSet('active_profile', name);
      renderOverview();
      providerStatus.textContent = 'Сервис модели выбран. Адрес и модель заполнены по умолчанию — их можно изменить.';
    } catch (failure) {
      providerStatus.textContent = failure.message;
    }
  }

  providerForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearFieldErrors();
    const effective = overview?.effective ?? {};
    let firstInvalid = null;
    let changed = 0;
    for (const [key, id] of SETTING_FIELDS) {
      const control = byId(id);
      if (control.value === (effective[key] ?? '')) continue;
      try {
        overview = await ipc.settingsSet(key, control.value);
        changed += 1;
      } catch (failure) {
        const error = byId(`${id}-error`);
        error.textContent = failure.message;
        error.hidden = false;
        control.setAttribute('aria-invalid', 'true');
        firstInvalid ??= control;
      }
    }
    if (firstInvalid) {
      providerStatus.textContent = 'Не все настройки сохранены: исправьте отмеченные поля.';
      firstInvalid.focus();
      return;
    }
    if (changed > 0) renderOverview();
    providerStatus.textContent = changed > 0 ? 'Настройки сохранены.' : 'Изменений нет.';
  });

  function clearFieldErrors() {
    for (const [, id] of SETTING_FIELDS) {
      byId(`${id}-error`).hidden = true;
      byId(id).removeAttribute('aria-invalid');
    }
  }

  function renderKeyStatus(key) {
    let text;
    if (key.source === 'environment') {
      text = 'Ключ берётся из переменной окружения ZAYAVKA_API_KEY.';
    } else if (key.stored) {
      text = 'Ключ сохранён.';
    } else {
      text = 'Ключ не задан.';
    }
    if (key.profile) text += ` Сервис: ${key.profile}.`;
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
    } catch (failure) {
      keyError.textContent = failure.message;
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
      keyStatusText.textContent = failure.message;
    }
  });

  byId('connection-check').addEventListener('click', async () => {
    doctorStatus.textContent = 'Проверяем…';
    replace(doctorChecks);
    try {
      const report = await ipc.connectionCheck();
      const problems = report.checks.filter((check) => check.status === 'problem').length;
      doctorStatus.textContent = problems === 0 ? 'Проверка закончена: всё работает.' : 'Проверка закончена: есть что исправить.';
      replace(doctorChecks, report.checks.map(checkItem));
    } catch (failure) {
      doctorStatus.textContent = failure.message;
    }
  });

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

  function fixButton(step) {
    if (step === 'store_api_key') {
      return h('button', { type: 'button', onclick: () => keyInput.focus() }, 'Задать ключ');
    }
    if (step === 'configure_provider' || step === 'check_provider_settings' || step === 'switch_schema_mode') {
      return h('button', { type: 'button', onclick: () => presets.querySelector('input')?.focus() }, 'К настройкам сервиса');
    }
    if (step === 'draft_without_model') {
      return h('button', { type: 'button', onclick: () => navigation.show('new', 'draft-offline') }, 'Составить без модели');
    }
    return null;
  }

  return {
    enter() {
      void load();
      void profile.enter();
    },
  };
}
