// Small helpers for building DOM nodes. Text always goes in through `textContent` (via string
// children), never through HTML parsing, so nothing the resident, the model or a file typed can
// become markup — and the strict CSP needs no `innerHTML` exception.

/**
 * What `h` and `replace` take as children: a node, text (a string or a number), nested lists,
 * and null, undefined or false for nothing.
 * @typedef {Node | string | number | null | undefined | false | Children} Child
 * @typedef {Array<Child>} Children
 */

/**
 * Creates an element. `attributes` sets attributes (booleans add or omit them), except
 * `on*` keys, which add event listeners, and `dataset`, which fills `data-*`. Children may be
 * nodes, strings (text nodes) or nested arrays; null and false are skipped.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, unknown>} [attributes]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      element.addEventListener(key.slice(2).toLowerCase(), /** @type {EventListener} */ (value));
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

/**
 * @param {ParentNode} parent
 * @param {Child[]} children
 */
function append(parent, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else if (child instanceof Node) parent.append(child);
    else parent.append(document.createTextNode(String(child)));
  }
}

/**
 * Replaces all children of `parent`.
 * @param {ParentNode} parent
 * @param {...Child} children
 */
export function replace(parent, ...children) {
  parent.replaceChildren();
  append(parent, children);
}

/**
 * Returns the element with this id, failing loudly if the page and the code disagree — about
 * the id, or, when `type` is given, about what kind of element it is.
 * @template {HTMLElement} [T=HTMLElement]
 * @param {string} id
 * @param {{ new (): T }} [type] such as `HTMLInputElement`
 * @returns {T}
 */
export function byId(id, type) {
  const element = document.getElementById(id);
  if (!element) throw new Error(`missing element #${id}`);
  if (type && !(element instanceof type)) throw new Error(`#${id} is not a ${type.name}`);
  return /** @type {T} */ (element);
}

/**
 * Calls `fn` once `delayMs` has passed without another call: typing pauses, not keystrokes.
 * `flush` calls a pending one at once.
 * @template {unknown[]} A
 * @param {(...args: A) => void} fn
 * @param {number} delayMs
 * @returns {((...args: A) => void) & { flush: (...args: A) => void }}
 */
export function debounce(fn, delayMs) {
  /** @type {ReturnType<typeof setTimeout> | null} */
  let timer = null;
  /** @param {A} args */
  const debounced = (...args) => {
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      fn(...args);
    }, delayMs);
  };
  /** @param {A} args */
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

/**
 * A fresh element id for linking labels, hints and errors.
 * @param {string} prefix
 */
export function freshId(prefix) {
  idCounter += 1;
  return `${prefix}-${idCounter}`;
}

/**
 * Counts characters the way the core does: Unicode scalar values, not UTF-16 units.
 * @param {string} text
 */
export function characterCount(text) {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

/**
 * The branch the types say cannot be reached, after every variant of a union from the Rust side
 * (ipc-contract.d.ts) was handled: a variant added there makes the call a type error, so the
 * page is changed before any test runs (ADR 39).
 * @param {never} value
 * @returns {never}
 */
export function unhandled(value) {
  throw new Error(`the page does not handle ${JSON.stringify(value)}`);
}

/**
 * `value` — a select's or a radio button's, built from `codes` — as the code it is, so the page
 * sends Rust only codes of its contract; a value that is none of them means the page and the
 * code disagree, and fails loudly.
 * @template {string} T
 * @param {string} value
 * @param {readonly T[]} codes
 * @returns {T}
 */
export function codeOf(value, codes) {
  const code = codes.find((candidate) => candidate === value);
  if (code === undefined) throw new Error(`${JSON.stringify(value)} is not one of ${codes.join(', ')}`);
  return code;
}
