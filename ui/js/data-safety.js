// «Данные» in «Настройки» (issue 31): a backup of the drafts database, a backup put back in its
// place, and a damaged database recovered — the same engine calls as `zayavka drafts backup`,
// `restore --replace` and `recover`. Nothing is replaced before the resident confirms it in a
// dialog, and Rust keeps the database that was in place beside the new one under another name;
// the status line says where every file went, in Rust's own words.
//
// The module starts itself (a script tag of its own), like «Статистика».

import * as ipc from './ipc.js';
import { byId } from './dom.js';

/**
 * Asks in #data-dialog; true when the resident pressed the confirming button.
 * @param {string} title
 * @param {string} text
 * @param {string} action the confirming button's label
 * @returns {Promise<boolean>}
 */
async function confirmed(title, text, action) {
  const dialog = byId('data-dialog', HTMLDialogElement);
  byId('data-dialog-title').textContent = title;
  byId('data-dialog-text').textContent = text;
  byId('data-dialog-confirm').textContent = action;
  dialog.returnValue = '';
  dialog.showModal();
  await new Promise((resolve) => dialog.addEventListener('close', resolve, { once: true }));
  return dialog.returnValue === 'confirm';
}

export function setUpDataSafety() {
  const status = byId('data-status');
  // Not `.map(byId)`: `map` passes the index as byId's second argument, the element type it
  // checks, and `instanceof 1` throws before any button is wired.
  const buttons = ['data-backup', 'data-restore', 'data-recover'].map((id) => byId(id, HTMLButtonElement));
  const [backupButton, restoreButton, recoverButton] = buttons;

  /**
   * Runs one action at a time, the buttons disabled meanwhile, the focus back where it was.
   * @param {HTMLButtonElement} button
   * @param {() => Promise<void>} action
   */
  async function run(button, action) {
    for (const each of buttons) each.disabled = true;
    try {
      await action();
    } catch (failure) {
      // Every command rejects with an IpcError, whose message is the resident's sentence.
      status.textContent = ipc.messageOf(failure);
    } finally {
      for (const each of buttons) each.disabled = false;
      button.focus();
    }
  }

  backupButton.addEventListener('click', () =>
    void run(backupButton, async () => {
      status.textContent = 'Выберите, куда сохранить резервную копию.';
      const written = await ipc.dataBackup();
      status.textContent = written ? written.message : '';
    }),
  );

  restoreButton.addEventListener('click', () =>
    void run(restoreButton, async () => {
      status.textContent = '';
      const file = await ipc.dataRestoreChoose();
      if (!file) return;
      const yes = await confirmed(
        'Восстановить черновики из резервной копии?',
        `Черновики будут взяты из файла ${file}; те, что появились после этой копии, останутся только в прежней базе. Нынешняя база черновиков не удаляется: она останется рядом под другим именем, и к ней можно будет вернуться.`,
        'Восстановить',
      );
      if (!yes) return;
      status.textContent = 'Восстанавливаем черновики…';
      status.textContent = (await ipc.dataRestore(file)).message;
    }),
  );

  recoverButton.addEventListener('click', () =>
    void run(recoverButton, async () => {
      status.textContent = '';
      const yes = await confirmed(
        'Восстановить повреждённую базу?',
        'Всё, что ещё читается в базе черновиков, будет перенесено в новую базу, и приложение начнёт работать с ней. Повреждённый файл не удаляется и не меняется: он останется рядом под другим именем. Если база в порядке, делать это не нужно.',
        'Восстановить',
      );
      if (!yes) return;
      status.textContent = 'Переносим черновики в новую базу…';
      status.textContent = (await ipc.dataRecover()).message;
    }),
  );
}

setUpDataSafety();
