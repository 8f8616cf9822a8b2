// «Статистика» in «Настройки» (issue 17): how the model worked with this computer's drafts, in
// plain words — how many drafts, how many are ready, how often the model's answer did not pass
// the checks or the service failed, warnings about words the resident never wrote, the usual
// waiting time and the money spent. The numbers come from `stats_get`, the same engine call as
// `zayavka stats`; they are counted from the drafts on this computer and nothing is sent anywhere.
// A service that answers every time but whose answers rarely pass the checks is called out
// first, in its own box, so it cannot look healthy. Then the filed requests (issue 30): how many
// were answered on time, late or never, and how many solved, in all and by addressee.
//
// The module starts itself (a script tag of its own) and refreshes whenever «Настройки» is shown.

import * as ipc from './ipc.js';
import { byId, h, replace, unhandled } from './dom.js';
import { count, formatSeconds, plural } from './words.js';

/** @import { Attention, CaseStats, CaseTally, GroupStats, Money } from './ipc-contract.js' */

/** @type {[string, string, string]} */
const DRAFTS = ['черновик', 'черновика', 'черновиков'];

// Joins the parts of a number that must stay on one line («3 из 5», «60 %», «2 мин 5 с»).
const NBSP = '\u00a0';

/**
 * «3 из 5 (60 %)»: the count of drafts sent to a model, and its share.
 * @param {number} count
 * @param {number} sent
 * @param {number | null} share null when nothing was sent
 */
function outOf(count, sent, share) {
  const percent = share === null || share === undefined ? '' : ` (${Math.round(share * 100)}${NBSP}%)`;
  return `${count}${NBSP}из${NBSP}${sent}${percent}`;
}

/**
 * The waiting time in words: under a second, seconds, or minutes and seconds.
 * @param {number} milliseconds
 */
function waiting(milliseconds) {
  if (milliseconds < 1000) return 'меньше секунды';
  return formatSeconds(Math.round(milliseconds / 1000) * 1000).replaceAll(' ', NBSP);
}

/**
 * An amount in its currency, as a resident reads a price.
 * @param {Money} price
 * @returns {string}
 */
function money({ amount, currency }) {
  if (amount > 0 && amount < 0.01) {
    return currency ? `меньше ${money({ amount: 0.01, currency })}` : 'меньше 0,01 (в валюте цен сервиса)';
  }
  if (currency) {
    try {
      return new Intl.NumberFormat('ru-RU', { style: 'currency', currency }).format(amount);
    } catch {
      // A code the browser does not know is shown as it is written.
    }
  }
  const number = amount.toLocaleString('ru-RU', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return currency ? `${number} ${currency}` : `${number} (в валюте цен сервиса)`;
}

/**
 * What a group that needs a look says, calmly, with the next step.
 * @param {GroupStats} group
 * @param {Attention} attention
 * @returns {string}
 */
function attentionText(group, attention) {
  const service = group.profile ? `Сервис «${group.profile}»` : 'Сервис модели';
  switch (attention) {
    case 'many_rejected':
      return `${service} часто отвечает так, что ответ не проходит проверку приложения: ${outOf(group.outcomes.rejected, group.sent_to_model, group.rejected_share)}. Ваши тексты тут ни при чём. Попробуйте другую модель или другой сервис выше; заявку всегда можно составить и без модели.`;
    case 'many_failed':
      return `${service} часто не отвечает или отвечает с ошибкой: ${outOf(group.outcomes.failed, group.sent_to_model, group.failed_share)}. Нажмите «Проверить подключение» выше.`;
    default:
      return unhandled(attention);
  }
}

/**
 * One row of the list: a label and its value.
 * @param {string} label
 * @param {string} value
 * @param {Record<string, unknown>} [extra] the value's attributes
 */
function row(label, value, extra = {}) {
  return [h('dt', {}, label), h('dd', extra, value)];
}

/** @param {GroupStats} total */
function rows(total) {
  /** @type {HTMLElement[][]} */
  const out = [];
  const outcomes = total.outcomes;
  out.push(row('Черновиков', count(total.drafts)));
  const ready = total.ready_without_model > 0 ? `${count(outcomes.ready)}, из них без модели — ${count(total.ready_without_model)}` : count(outcomes.ready);
  out.push(row('Готовых заявок', ready));
  if (total.sent_to_model > 0) {
    out.push(row('Составлялись с моделью', count(total.sent_to_model)));
    out.push(row('Ответ модели не прошёл проверку', outOf(outcomes.rejected, total.sent_to_model, total.rejected_share), { 'data-stat': 'rejected' }));
    out.push(row('Сервис не ответил или ответил с ошибкой', outOf(outcomes.failed, total.sent_to_model, total.failed_share), { 'data-stat': 'failed' }));
  }
  if (outcomes.needs_user > 0) out.push(row('Нужно было уточнить описание', count(outcomes.needs_user)));
  if (total.sent_to_model > 0) {
    out.push(row('Заявки с предупреждением о словах, которых не было в вашем тексте', count(total.faithfulness.drafts_with_found), { 'data-stat': 'warnings' }));
  }
  if (total.latency) {
    const { median_ms: median, p90_ms: p90 } = total.latency;
    const usual = p90 > median ? `обычно ${waiting(median)}, почти всегда не дольше ${waiting(p90)}` : `обычно ${waiting(median)}`;
    out.push(row('Ожидание ответа модели', usual, { 'data-stat': 'waiting' }));
  }
  if (total.cost.length > 0) {
    out.push(row('Потрачено на сервис модели', total.cost.map(money).join(' и '), { 'data-stat': 'cost' }));
  } else if (total.sent_to_model > 0) {
    out.push(row('Потрачено на сервис модели', 'не подсчитано: в настройках сервиса не указаны цены', { 'data-stat': 'cost' }));
  }
  return out;
}

/**
 * One line per service when drafts went to more than one.
 * @param {GroupStats[]} groups
 */
function services(groups) {
  const served = groups.filter((group) => group.profile !== null && group.sent_to_model > 0);
  if (served.length < 2) return [];
  return [
    h('h3', {}, 'По сервисам'),
    h(
      'ul',
      { class: 'stats-services' },
      served.map((group) =>
        h(
          'li',
          {},
          `«${group.profile}»: ${group.drafts} ${plural(group.drafts, DRAFTS)}, готово ${group.outcomes.ready}, не прошли проверку ${outOf(group.outcomes.rejected, group.sent_to_model, group.rejected_share)}, ошибок сервиса ${group.outcomes.failed}`,
        ),
      ),
    ),
  ];
}

/**
 * The filed requests: what became of them, in all and, with more than one, by addressee.
 * @param {CaseStats} cases
 */
function casesPart(cases) {
  const total = cases.total;
  if (total.filed === 0) return [];
  /** @param {CaseTally} t */
  const tally = (t) => {
    const parts = [`подано ${t.filed}`, `ответ в срок ${t.answered_on_time}`, `с опозданием ${t.answered_late}`, `без ответа после срока ${t.never_answered}`];
    if (t.answered_no_deadline > 0) parts.push(`ответ без рассчитанного срока ${t.answered_no_deadline}`);
    if (t.waiting > 0) parts.push(`ждут ответа ${t.waiting}`);
    parts.push(`решено ${t.solved}`);
    return parts.join(', ');
  };
  const out = [
    h('h3', {}, 'Поданные заявки'),
    h(
      'dl',
      { class: 'stats-list' },
      row('Подано', count(total.filed), { 'data-stat': 'filed' }),
      row('Ответ пришёл в срок', count(total.answered_on_time), { 'data-stat': 'on_time' }),
      row('Ответ пришёл с опозданием', count(total.answered_late), { 'data-stat': 'late' }),
      row('Ответа нет, срок истёк', count(total.never_answered), { 'data-stat': 'never' }),
      total.answered_no_deadline > 0 ? row('Ответ пришёл, срок не рассчитан', count(total.answered_no_deadline)) : null,
      row('Ждут ответа', count(total.waiting)),
      row('Проблема решена', count(total.solved), { 'data-stat': 'solved' }),
    ),
  ];
  if (cases.by_addressee.length > 1) {
    out.push(
      h('h4', {}, 'По адресатам'),
      h(
        'ul',
        { class: 'stats-services' },
        cases.by_addressee.map((t) => h('li', {}, `${t.addressee || 'Адресат не указан'}: ${tally(t)}`)),
      ),
    );
  }
  return out;
}

export function setUpStats() {
  const screen = byId('screen-settings');
  const period = byId('stats-period', HTMLSelectElement);
  const status = byId('stats-status');
  const attention = byId('stats-attention');
  const list = byId('stats-list');
  const perService = byId('stats-services');
  const filed = byId('stats-cases');
  let asked = 0;

  function clear() {
    attention.hidden = true;
    replace(attention);
    replace(list);
    replace(perService);
    replace(filed);
  }

  async function load() {
    asked += 1;
    const mine = asked;
    const days = period.value === '' ? null : Number(period.value);
    status.textContent = 'Считаем…';
    let stats;
    try {
      stats = await ipc.statsGet({ days });
    } catch (failure) {
      if (mine !== asked) return;
      clear();
      // Every command rejects with an IpcError, whose message is the resident's sentence.
      status.textContent = ipc.messageOf(failure);
      return;
    }
    // Only the latest answer is shown when the period changes quickly.
    if (mine !== asked) return;
    clear();
    if (stats.total.drafts === 0) {
      status.textContent =
        days === null
          ? 'Черновиков пока нет. Когда вы составите заявку, здесь будет видно, как работала модель.'
          : 'За это время черновиков нет. Выберите период побольше.';
      return;
    }
    status.textContent = '';
    const notes = stats.groups.flatMap((group) => group.attention.map((kind) => h('p', {}, attentionText(group, kind))));
    if (notes.length > 0) {
      replace(attention, h('p', { class: 'stats-attention-title' }, 'Обратите внимание'), notes);
      attention.hidden = false;
    }
    replace(list, rows(stats.total));
    replace(perService, services(stats.groups));
    if (stats.cases) replace(filed, casesPart(stats.cases));
  }

  period.addEventListener('change', () => void load());
  // «Настройки» is shown by taking away its `hidden`: the numbers are counted again each time.
  new MutationObserver(() => {
    if (!screen.hidden) void load();
  }).observe(screen, { attributes: true, attributeFilter: ['hidden'] });
  if (!screen.hidden) void load();
}

setUpStats();
