// The page's entry point: the navigation between the four screens and their start-up. Screens
// are sections of one document, switched by the address's fragment, so the browser's own back
// and forward keys work and every screen is reachable by a link.

import { byId } from './dom.js';
import { setUpNewRequest } from './new-request.js';
import { setUpDrafts } from './drafts.js';
import { setUpBatch } from './batch.js';
import { setUpSettings } from './settings.js';
import { watchPhotoDrops } from './result.js';

const SCREENS = ['new', 'drafts', 'batch', 'settings'];

// Where focus goes after a screen switch asked for a particular control (e.g. «Задать ключ»).
let pendingFocus = null;

const navigation = {
  show(screen, focusId = null) {
    pendingFocus = focusId;
    if (location.hash === `#${screen}`) route();
    else location.hash = screen;
  },
  editInForm(input) {
    newRequest.load(input);
    navigation.show('new', 'description');
  },
};

const newRequest = setUpNewRequest(navigation);
const screens = {
  new: newRequest,
  drafts: setUpDrafts(navigation),
  batch: setUpBatch(navigation),
  settings: setUpSettings(navigation),
};

let current = null;

const screenOf = (hash) => (SCREENS.includes(hash.slice(1)) ? hash.slice(1) : 'new');

/**
 * Leaving a screen with unsaved changes («Настройки») asks first, in a dialog of the page: the
 * address goes back to the screen at once, and only «Уйти без сохранения» goes on, with the
 * changes put back as they are saved (issue 14).
 */
function guardedRoute() {
  const screen = screenOf(location.hash);
  const parts = current !== null && current !== screen ? (screens[current].unsavedParts?.() ?? []) : [];
  if (parts.length === 0) {
    route();
    return;
  }
  const leaving = current;
  const target = location.hash;
  const focus = pendingFocus;
  pendingFocus = null;
  history.replaceState(null, '', `#${leaving}`);
  askToLeave(parts, (leave) => {
    if (!leave) {
      screens[leaving].focusSave?.();
      return;
    }
    screens[leaving].discard();
    pendingFocus = focus;
    location.hash = target;
  });
}

function askToLeave(parts, answer) {
  const dialog = byId('leave-dialog');
  const list = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} и ${parts.at(-1)}`;
  byId('leave-dialog-text').textContent = `Вы изменили ${list}, но не сохранили. Если уйти, изменения пропадут.`;
  dialog.returnValue = '';
  dialog.addEventListener('close', () => answer(dialog.returnValue === 'leave'), { once: true });
  dialog.showModal();
}

// Closing or reloading the window with unsaved changes: the webview's own question, where it has one.
window.addEventListener('beforeunload', (event) => {
  if (current !== null && (screens[current].unsavedParts?.() ?? []).length > 0) event.preventDefault();
});

function route() {
  const screen = screenOf(location.hash);
  for (const name of SCREENS) {
    byId(`screen-${name}`).hidden = name !== screen;
  }
  for (const link of document.querySelectorAll('.app-nav a')) {
    if (link.dataset.screen === screen) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  const switched = current !== null && current !== screen;
  current = screen;
  document.title = `${byId(`${screen}-heading`).textContent} — Заявка`;
  screens[screen].enter();
  if (pendingFocus) {
    const target = document.getElementById(pendingFocus);
    pendingFocus = null;
    target?.focus();
  } else if (switched) {
    // After a switch, focus lands on the new screen's heading so a screen reader announces it.
    byId(`${screen}-heading`).focus();
  }
}

// A message for the whole window (a drop with no draft on screen); it goes with the next screen.
const appAlert = byId('app-alert');
window.addEventListener('hashchange', () => {
  appAlert.hidden = true;
});
watchPhotoDrops((message) => {
  appAlert.textContent = message;
  appAlert.hidden = false;
}).catch(() => {
  // Without the Rust side (the page opened in a browser) there is nothing to drop onto.
});

window.addEventListener('hashchange', guardedRoute);
route();
void newRequest.restore();
document.documentElement.dataset.ready = 'yes';
