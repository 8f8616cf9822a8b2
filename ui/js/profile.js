// «Данные для шапки документа» in «Настройки»: the resident's name, address and contacts and
// the management company, which only the saved document shows («Кому», «От»). The Rust side
// checks every value; a refused one is shown beside its field and nothing else changes.

import * as ipc from './ipc.js';
import { byId } from './dom.js';

/** @import { Profile } from './ipc-contract.js' */

/** @type {ReadonlyArray<keyof Profile>} */
const FIELDS = ['full_name', 'address', 'apartment', 'phone', 'email', 'company_name', 'company_address'];

export function setUpProfile() {
  const form = byId('profile-form');
  const status = byId('profile-status');
  /** @type {Profile | null} */
  let stored = null;

  /** @param {keyof Profile} field */
  const input = (field) => byId(`profile-${field}`, HTMLInputElement);

  /** @param {Profile} profile */
  function render(profile) {
    stored = profile;
    for (const field of FIELDS) input(field).value = profile[field] ?? '';
  }

  function clearErrors() {
    for (const field of FIELDS) {
      byId(`profile-${field}-error`).hidden = true;
      input(field).removeAttribute('aria-invalid');
    }
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors();
    // What the resident typed is read once, before anything is sent, and a refused value stays
    // in its field so that nothing typed is lost.
    const typed = Object.fromEntries(FIELDS.map((field) => [field, input(field).value]));
    let firstInvalid = null;
    let changed = 0;
    for (const field of FIELDS) {
      if (typed[field].trim() === (stored?.[field] ?? '')) continue;
      try {
        stored = await ipc.profileSet(field, typed[field]);
        changed += 1;
      } catch (failure) {
        const control = input(field);
        const error = byId(`profile-${field}-error`);
        // Every command rejects with an IpcError, whose message is the resident's sentence.
        error.textContent = ipc.messageOf(failure);
        error.hidden = false;
        control.setAttribute('aria-invalid', 'true');
        firstInvalid ??= control;
      }
    }
    for (const field of FIELDS) {
      if (input(field).getAttribute('aria-invalid') !== 'true') {
        input(field).value = stored?.[field] ?? '';
      }
    }
    if (firstInvalid) {
      status.textContent = 'Не все данные сохранены: исправьте отмеченные поля.';
      firstInvalid.focus();
      return;
    }
    status.textContent = changed > 0 ? 'Данные сохранены.' : 'Изменений нет.';
  });

  byId('profile-clear').addEventListener('click', async () => {
    clearErrors();
    try {
      render(await ipc.profileClear());
      status.textContent = 'Данные очищены.';
    } catch (failure) {
      status.textContent = ipc.messageOf(failure);
    }
  });

  return {
    async enter() {
      try {
        render(await ipc.profileGet());
      } catch (failure) {
        status.textContent = ipc.messageOf(failure);
      }
    },
  };
}
