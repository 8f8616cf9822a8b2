// The filed document laid out for paper: the block of the page that only the printer shows,
// filled from `draft_document` — the same header, text, «Приложения», signatures table, date and
// signature line as the saved PDF, each line as Rust words it.

import { byId, h, replace } from './dom.js';

/** @import { CoSignersView, DocumentLine, DocumentView } from './ipc-contract.js' */

/**
 * Fills the print-only block with a filed document as `draft_document` gives it.
 * @param {DocumentView} filed
 */
export function renderPrintDocument(filed) {
  /** @param {DocumentLine[]} lines */
  const headerBlock = (lines) =>
    h('div', { class: 'print-block' }, lines.map((line) => h('p', {}, `${line.label}: ${line.value}`)));
  replace(
    byId('print-document'),
    h('div', { class: 'print-header' }, headerBlock(filed.recipient), headerBlock(filed.sender)),
    h('h1', {}, filed.title),
    h('div', { class: 'print-body' }, filed.paragraphs.map((paragraph) => h('p', {}, paragraph))),
    filed.appendix.length > 0 ? h('div', { class: 'print-appendix' }, filed.appendix.map((line) => h('p', {}, line))) : null,
    filed.co_signers ? coSignersTable(filed.co_signers) : null,
    h('p', { class: 'print-date' }, filed.date),
    h('p', { class: 'print-signature' }, filed.signature),
  );
}

/**
 * The signatures table of a collective request: heading, sentence, and empty numbered rows.
 * @param {CoSignersView} coSigners
 */
function coSignersTable(coSigners) {
  const rows = [];
  for (let number = 1; number <= coSigners.rows; number += 1) {
    rows.push(h('tr', {}, h('td', {}, String(number)), h('td'), h('td'), h('td')));
  }
  return h(
    'section',
    { class: 'print-co-signers' },
    h('h2', {}, coSigners.heading),
    h('p', {}, coSigners.sentence),
    h(
      'table',
      {},
      h('thead', {}, h('tr', {}, coSigners.columns.map((column) => h('th', { scope: 'col' }, column)))),
      h('tbody', {}, rows),
    ),
  );
}
