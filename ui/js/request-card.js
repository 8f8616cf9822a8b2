// The request's text as a document-like card, with who wrote each part: the typed sections,
// title and item with their provenance markers while the request is the program's, the
// resident's own title and body once they have edited it, and the legend of the markers. The
// card shows the typed parts; the copied text is Rust's `body`, never read back from here.

import { h } from './dom.js';
import { REQUEST_HEADING, SOURCE_LABELS, TITLE_SOURCE_LABELS } from './words.js';
import { faithfulnessNotes, findingsIn, markWords } from './faithfulness.js';

/** @import { Edited, RequestView } from './ipc-contract.js' */

/**
 * The card of a ready request: its typed parts, or the resident's edit when there is one.
 * @param {RequestView} request
 * @returns {HTMLDivElement}
 */
export function requestCard(request) {
  return request.edited ? editedCard(request.edited) : documentCard(request);
}

/** @param {RequestView} request */
function documentCard(request) {
  const sections = request.sections.map((section) => {
    const own = findingsIn(request, section.kind, section.source === 'model');
    return h(
      'div',
      { class: `doc-section source-${section.source}` },
      marker(SOURCE_LABELS[section.source] ?? section.source),
      h('p', {}, markWords(section.text, own)),
      faithfulnessNotes(own),
    );
  });
  const titleFindings = findingsIn(request, 'title', request.title_source === 'model');
  const itemSource = request.item.source;
  return h(
    'div',
    { class: 'document', 'aria-label': 'Текст заявки' },
    // Who wrote the title (issue 14): the resident's first words without a model. Rust always
    // sends it; the contract's null (a request stored before issue 14, which Rust fills in when
    // reading it) would get no marker rather than an empty one.
    h(
      'div',
      { class: 'doc-heading' },
      request.title_source === null ? null : marker(TITLE_SOURCE_LABELS[request.title_source] ?? request.title_source),
      h('p', { class: 'doc-title' }, markWords(request.title, titleFindings)),
      faithfulnessNotes(titleFindings),
    ),
    sections,
    h(
      'div',
      { class: `doc-section source-${itemSource}` },
      marker(SOURCE_LABELS[itemSource] ?? itemSource),
      h('p', {}, REQUEST_HEADING),
      h('p', {}, `1. ${request.item.text}`),
    ),
  );
}

/** @param {Edited} edited */
function editedCard(edited) {
  return h(
    'div',
    { class: 'document', 'aria-label': 'Текст заявки' },
    h('p', { class: 'doc-title' }, edited.title),
    h(
      'div',
      { class: 'doc-section source-edited' },
      marker(SOURCE_LABELS[edited.brought_in ? 'brought_in' : 'edited']),
      edited.body.split(/\n{2,}/).map((paragraph) => h('p', { class: 'keep-lines' }, paragraph)),
    ),
  );
}

/**
 * The legend of the markers the card shows: only the sources it has.
 * @param {RequestView} request
 * @returns {HTMLDivElement}
 */
export function legend(request) {
  /** @type {Array<keyof typeof SOURCE_LABELS>} */
  const sources = request.edited
    ? [request.edited.brought_in ? 'brought_in' : 'edited']
    : [...new Set([...request.sections.map((section) => section.source), request.item.source])];
  return h(
    'div',
    { class: 'legend' },
    h('p', { class: 'legend-title' }, 'Пометки над абзацами и цветные полосы слева показывают, откуда взят текст. При копировании их нет.'),
    h(
      'ul',
      {},
      sources.map((source) =>
        h('li', { class: `legend-item source-${source}` }, h('span', { class: 'swatch', 'aria-hidden': 'true' }), SOURCE_LABELS[source] ?? source),
      ),
    ),
  );
}

/**
 * A quiet provenance marker: visible and read aloud, but never selected or copied.
 * @param {string} label
 */
function marker(label) {
  return h('span', { class: 'marker' }, h('span', { class: 'visually-hidden' }, 'Источник: '), label);
}
