// Small helpers for building DOM nodes. Text always goes in through `textContent` (via string
// children), never through HTML parsing, so nothing the resident, the model or a file typed can
// become markup — and the strict CSP needs no `innerHTML` exception.

/**
 * Creates an element. `attributes` sets attributes (booleans add or omit them), except
 * `on*` keys, which add event listeners, and `dataset`, which fills `data-*`. Children may be
 * nodes, strings (text nodes) or nested arrays; null and false are skipped.
 */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      element.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === 'dataset') {
      Object.assign(element.dataset, value);
    } else if (value === true) {
      element.setAttribute(key, '');
    } else {
      element.setAttribute(key, String(value));
    }
  }
  append(element, children);
  return element;
}

function append(parent, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else if (child instanceof Node) parent.append(child);
    else parent.append(document.createTextNode(String(child)));
  }
}

/** Replaces all children of `parent`. */
export function replace(parent, ...children) {
  parent.replaceChildren();
  append(parent, children);
}

/** Returns the element with this id, failing loudly if the page and the code disagree. */
export function byId(id) {
  const element = document.getElementById(id);
  if (!element) throw new Error(`missing element #${id}`);
  return element;
}

/** Calls `fn` once `delayMs` has passed without another call: typing pauses, not keystrokes. */
export function debounce(fn, delayMs) {
  let timer = null;
  const debounced = (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      fn(...args);
    }, delayMs);
  };
  debounced.flush = (...args) => {
    if (timer !== null) {
      clearTimeout(timer);
      timer = null;
      fn(...args);
    }
  };
  return debounced;
}

let idCounter = 0;

/** A fresh element id for linking labels, hints and errors. */
export function freshId(prefix) {
  idCounter += 1;
  return `${prefix}-${idCounter}`;
}

/** Counts characters the way the core does: Unicode scalar values, not UTF-16 units. */
export function characterCount(text) {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}
