// «Фотографии к заявке»: a draft's photos, attached from the open dialog or by dropping files on
// the window, each removable. Each photo is named as Rust names it in the document; the files'
// paths never reach the page (the window's own drag and drop keeps them in Rust).

import * as ipc from './ipc.js';
import { freshId, h, replace, unhandled } from './dom.js';

/** @import { PhotoView } from './ipc-contract.js' */

/**
 * A photos section files dropped on the window may go to, and how to attach them there.
 * @typedef {{ section: HTMLElement, attach: () => Promise<void> }} DropTarget
 */

/**
 * The photos section of draft `draftId`. The list loads after the card is shown. A filed draft's
 * photos (`frozen`, issue 30) went to the addressee with it: they are listed, not changed.
 * @param {number} draftId
 * @param {{ frozen?: boolean }} [options]
 * @returns {HTMLElement}
 */
export function photosSection(draftId, { frozen = false } = {}) {
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
  /** @param {PhotoView[]} photos */
  const show = (photos) => {
    replace(
      list,
      photos.length === 0 ? h('li', { class: 'quiet' }, 'Фотографий пока нет.') : null,
      photos.map((photo) =>
        h(
          'li',
          {},
          h('span', {}, `${photo.label}, ${photo.width} × ${photo.height}`),
          frozen ? null : h('button', { type: 'button', class: 'link-button', 'aria-label': `Убрать ${photo.label}`, onclick: () => detach(photo) }, 'Убрать'),
        ),
      ),
    );
  };
  /**
   * Runs `work`, then lists the photos it answers and says `done` of them; a null answer (the
   * open dialog cancelled) changes nothing.
   * @param {() => Promise<PhotoView[] | null>} work
   * @param {(photos: PhotoView[]) => string} done
   */
  const attempt = async (work, done) => {
    try {
      const photos = await work();
      if (photos === null) return;
      show(photos);
      status.textContent = done(photos);
    } catch (failure) {
      // ipc.js rejects with an IpcError, whose message is for the resident.
      status.textContent = ipc.messageOf(failure);
    }
  };
  /** @param {PhotoView[]} photos */
  const attached = (photos) => `Фотографии приложены. Всего: ${photos.length}.`;
  /** @param {PhotoView} photo */
  const detach = (photo) =>
    attempt(() => ipc.draftDetach(draftId, photo.number), () => `${photo.name} убрано.`);
  const choose = h('button', { type: 'button', onclick: () => attempt(() => ipc.draftAttachChosen(draftId), attached) }, 'Приложить фотографии…');
  if (frozen) {
    section.append(h('p', { class: 'note' }, 'Заявка отмечена как поданная: фотографии ушли вместе с ней и больше не меняются.'), status);
  } else {
    section.append(h('div', { class: 'actions' }, choose, h('span', { class: 'quiet' }, 'или перетащите файлы в окно')), status);
    dropTargets.push({ section, attach: () => attempt(() => ipc.draftAttachDropped(draftId), attached) });
  }
  attempt(() => ipc.draftPhotos(draftId), () => '');
  return section;
}

// The photos sections files dropped on the window may go to: the one on screen (each screen may
// show a result; sections no longer in the page are forgotten).
/** @type {DropTarget[]} */
let dropTargets = [];

/** @returns {DropTarget | null} */
function visibleDropTarget() {
  dropTargets = dropTargets.filter((target) => target.section.isConnected);
  // The last one shown (`findLast` is past the checker's ES2022 library).
  return dropTargets.filter((target) => target.section.offsetParent !== null).at(-1) ?? null;
}

/**
 * Listens for files dragged onto the window. A drop attaches them to the draft whose result is
 * on screen; with none, the resident is told how to attach photos.
 * @param {(message: string) => void} onNoTarget
 */
export function watchPhotoDrops(onNoTarget) {
  return ipc.photosDropWatch((event) => {
    const target = visibleDropTarget();
    switch (event.kind) {
      case 'over':
        document.body.classList.toggle('files-over', target !== null);
        return;
      case 'left':
        document.body.classList.remove('files-over');
        return;
      case 'dropped':
        document.body.classList.remove('files-over');
        if (target !== null) {
          target.section.scrollIntoView({ block: 'nearest' });
          target.attach();
        } else {
          onNoTarget('Чтобы приложить фотографии, сначала составьте заявку или откройте черновик, затем перетащите файлы на окно ещё раз.');
        }
        return;
      default:
        return unhandled(event);
    }
  });
}
