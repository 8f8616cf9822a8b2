// What the faithfulness checks found in the model's sentences (issue 17), shown where it
// concerns the resident: a note above the card, the words marked in their paragraph and the
// checks' messages under it. Everything comes from the request's `faithfulness` findings; none
// of it is part of the copied or printed text, and none of it changes the outcome.

import { h } from './dom.js';

/**
 * @import { DraftField, FaithfulnessFinding, RequestView, SectionKind } from './ipc-contract.js'
 * @import { Child } from './dom.js'
 */

/**
 * The note above the card when the checks found something; null when they found nothing or the
 * resident has edited the request (the findings concern the model's sentences, not the edit).
 * @param {RequestView} request
 * @returns {HTMLDivElement | null}
 */
export function faithfulnessSummary(request) {
  const unfaithful = request.edited ? [] : (request.faithfulness ?? []);
  if (unfaithful.length === 0) return null;
  return h(
    'div',
    { class: 'warnings faithfulness-summary', role: 'note', 'aria-label': 'Сверьте с вашим текстом' },
    h('p', { class: 'warnings-title' }, 'Сверьте описание со своим текстом.'),
    h(
      'p',
      {},
      'Модель могла добавить то, чего вы не писали. Такие слова выделены в тексте заявки, а под абзацем сказано, что проверить. ' +
        'Если всё верно, ничего делать не нужно; если нет — нажмите «Редактировать» и исправьте.',
    ),
  );
}

/**
 * The findings about one field of the request: none unless the model wrote that field. A
 * section's kind names its field (a legal section is never the model's, so it has none).
 * @param {RequestView} request
 * @param {DraftField | SectionKind} field
 * @param {boolean} writtenByModel
 * @returns {FaithfulnessFinding[]}
 */
export function findingsIn(request, field, writtenByModel) {
  return writtenByModel ? (request.faithfulness ?? []).filter((finding) => finding.field === field) : [];
}

/**
 * The text with the words the faithfulness checks found marked. Spans count Unicode
 * characters, as the Rust side does; a span outside the text or overlapping an earlier one is
 * left unmarked rather than misplaced.
 * @param {string} text
 * @param {FaithfulnessFinding[]} findings
 * @returns {Child}
 */
export function markWords(text, findings) {
  const spans = findings
    .flatMap((finding) => finding.spans.map((span) => ({ ...span, certainty: finding.certainty })))
    .sort((a, b) => a.start - b.start);
  if (spans.length === 0) return text;
  const chars = Array.from(text);
  /** @type {Child[]} */
  const parts = [];
  let at = 0;
  for (const span of spans) {
    if (span.start < at || span.end > chars.length || span.end <= span.start) continue;
    parts.push(chars.slice(at, span.start).join(''));
    parts.push(h('mark', { class: `unfaithful ${span.certainty}` }, chars.slice(span.start, span.end).join('')));
    at = span.end;
  }
  parts.push(chars.slice(at).join(''));
  return parts;
}

/**
 * The checks' messages under the paragraph they concern, one per finding.
 * @param {FaithfulnessFinding[]} findings
 * @returns {HTMLUListElement | null}
 */
export function faithfulnessNotes(findings) {
  if (findings.length === 0) return null;
  return h(
    'ul',
    { class: 'faithfulness-notes', 'aria-label': 'Что проверить в этом абзаце' },
    findings.map((finding) => h('li', {}, finding.message)),
  );
}
