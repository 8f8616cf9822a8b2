// «Как получен результат»: the draft's context record, closed until the resident opens it —
// the model, the service, the time, every attempt, the legal decision in Rust's own sentence,
// and every message sent to the model, exactly as sent.

import * as ipc from './ipc.js';
import { h, replace } from './dom.js';
import { formatDate, formatSeconds } from './words.js';

/** @import { DraftId, Explain } from './ipc-contract.js' */

/**
 * The disclosure for draft `draftId`. `loaded()` gives the draft's `explain` record when the
 * screen already holds it (an opened or edited draft), `undefined` otherwise: it is then read
 * with `draft_open` when the disclosure first opens.
 * @param {DraftId} draftId
 * @param {() => Explain | null | undefined} loaded
 * @returns {HTMLDetailsElement}
 */
export function explainDisclosure(draftId, loaded) {
  const body = h('div', { class: 'explain-body' });
  const details = h('details', { class: 'explain' }, h('summary', {}, 'Как получен результат'), body);
  details.addEventListener('toggle', async () => {
    if (!details.open || body.dataset.loaded) return;
    replace(body, h('p', { role: 'status' }, 'Загружаем запись о составлении…'));
    try {
      const known = loaded();
      const explain = known !== undefined ? known : (await ipc.draftOpen(draftId)).explain;
      replace(body, explainView(explain));
      body.dataset.loaded = 'yes';
    } catch (failure) {
      // ipc.js rejects with an IpcError, whose message is for the resident.
      replace(body, h('p', { role: 'alert' }, ipc.messageOf(failure)));
    }
  });
  return details;
}

/**
 * @param {Explain | null} explain null when no model was used
 * @returns {HTMLElement}
 */
function explainView(explain) {
  if (explain === null) {
    return h('p', {}, 'Модель не использовалась: заявка составлена только из вашего текста, на этом компьютере.');
  }
  const facts = [
    ['Модель', explain.model ?? 'не указана'],
    ['Сервис', explain.provider_host ?? 'не указан'],
    ['Начало', explain.started_at ? formatDate(explain.started_at) : 'не записано'],
    ['Длительность', explain.duration_ms === null ? 'не записана' : formatSeconds(explain.duration_ms)],
  ];
  const attempts = h(
    'table',
    { class: 'table' },
    h('caption', {}, 'Попытки обращения к модели'),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, '№'), h('th', { scope: 'col' }, 'Ответ сервера'), h('th', { scope: 'col' }, 'Что произошло'), h('th', { scope: 'col' }, 'Время'))),
    h(
      'tbody',
      {},
      explain.attempts.map((attempt) =>
        h(
          'tr',
          {},
          h('td', {}, String(attempt.number)),
          h('td', {}, attempt.status === null ? 'нет ответа' : `HTTP ${attempt.status}`),
          h('td', {}, [attempt.error_kind ?? 'успешно', attempt.retry_reason ? ` (повтор: ${attempt.retry_reason})` : ''].join('')),
          h('td', {}, formatSeconds(attempt.duration_ms)),
        ),
      ),
    ),
  );
  return h(
    'div',
    {},
    h('dl', { class: 'facts' }, facts.map(([term, value]) => [h('dt', {}, term), h('dd', {}, value)])),
    h('p', {}, explain.legal_decision),
    attempts,
    h('h3', {}, 'Что было отправлено модели'),
    h('p', { class: 'note' }, 'Ваши данные из профиля модели не отправляются.'),
    explain.messages.map((message) =>
      h('div', { class: 'message' }, h('p', { class: 'message-role' }, message.role === 'system' ? 'Инструкция приложения' : message.role === 'user' ? 'Ваш текст' : message.role), h('pre', {}, message.content)),
    ),
  );
}
