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
  new: { enter() {} },
  drafts: setUpDrafts(navigation),
  batch: setUpBatch(navigation),
  settings: setUpSettings(navigation),
};

let current = null;

function route() {
  const wanted = location.hash.slice(1);
  const screen = SCREENS.includes(wanted) ? wanted : 'new';
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

window.addEventListener('hashchange', route);
route();
void newRequest.restore();
document.documentElement.dataset.ready = 'yes';
