// «Сроки» (issue 30): every filed request and where it stands — the overdue first, then the
// nearest deadlines, then the rest — each opening its draft in «Черновики». The answered and the
// closed are shown on request. And the notice when the app opens: what is overdue or due soon,
// said once, with a link here. Nothing runs in the background: the list is read when shown.

import * as ipc from './ipc.js';
import { byId, h, replace } from './dom.js';
import { capitalised, plural } from './words.js';

/** @import { CaseState, DueView } from './ipc-contract.js' */

/**
 * What «Сроки» needs of the page's navigation (main.js): `openDraft` opens a draft in «Черновики».
 * @typedef {{ openDraft(id: number): void }} Navigation
 */

// The states hidden until the resident asks for them: typed, so a state renamed on the Rust
// side is a type error here rather than a filter that silently stops hiding.
/** @type {ReadonlyArray<CaseState['state']>} */
const SETTLED = ['answered', 'closed'];

/** @param {number} count */
const requests = (count) => `${count} ${plural(count, ['заявке', 'заявкам', 'заявкам'])}`;

/**
 * The sentence of the notice when the app opens, or null when nothing needs attention.
 * @param {DueView} due
 * @returns {string | null}
 */
export function attentionSentence(due) {
  const parts = [];
  if (due.overdue > 0) parts.push(`Срок ответа истёк по ${requests(due.overdue)}.`);
  if (due.due_soon > 0) parts.push(`${due.overdue > 0 ? 'Ещё по' : 'По'} ${requests(due.due_soon)} срок ответа в ближайшие дни.`);
  return parts.length === 0 ? null : parts.join(' ');
}

/** @param {Navigation} navigation */
export function setUpDue(navigation) {
  const status = byId('due-status');
  const list = byId('due-list');
  const all = byId('due-all', HTMLInputElement);
  const notice = byId('due-notice');

  async function refresh() {
    try {
      render(await ipc.casesDue());
    } catch (failure) {
      // Every command rejects with an IpcError, whose message is the resident's sentence.
      status.textContent = ipc.messageOf(failure);
      replace(list);
    }
  }

  /** @param {DueView} due */
  function render(due) {
    const shown = due.cases.filter((item) => all.checked || !SETTLED.includes(item.state.state));
    if (due.cases.length === 0) {
      status.textContent = 'Поданных заявок пока нет. Когда подадите заявку, откройте её в «Черновиках» и нажмите «Отметить как поданное»: здесь появится срок ответа.';
    } else if (shown.length === 0) {
      status.textContent = 'Ответов ждать не от кого: по всем поданным заявкам ответ получен или дело закрыто.';
    } else {
      status.textContent = `На ${due.today_ru}: ${attentionSentence(due) ?? 'просроченных нет.'} Всего поданных: ${due.cases.length}.`;
    }
    replace(
      list,
      shown.map((item) => {
        const titleId = `due-title-${item.draft_id}`;
        const open = h('button', { type: 'button', 'aria-describedby': titleId }, 'Открыть');
        open.addEventListener('click', () => navigation.openDraft(item.draft_id));
        const state = item.state.state;
        return h(
          'li',
          { class: `due-item${item.needs_attention ? ' due-attention' : ''}`, dataset: { draftId: String(item.draft_id), state } },
          h(
            'div',
            { class: 'draft-main' },
            h('p', { id: titleId, class: 'draft-title' }, item.title ?? `Черновик № ${item.draft_id}`),
            h('p', { class: `due-state${state === 'overdue' ? ' case-overdue' : ''}` }, capitalised(item.state_ru)),
            h('p', { class: 'draft-meta' }, `${capitalised(item.filed_ru)}${item.follows ? ` · ${item.follows.label.toLowerCase()}` : ''}`),
          ),
          h('div', { class: 'draft-actions' }, open),
        );
      }),
    );
    byId('due-notice-review').hidden = due.notice === null;
    byId('due-notice-review').textContent = due.notice ?? '';
  }

  all.addEventListener('change', () => void refresh());

  /** The notice when the app opens: said once, until the resident opens «Сроки» or hides it. */
  async function announce() {
    try {
      const sentence = attentionSentence(await ipc.casesDue());
      if (sentence === null) return;
      byId('due-notice-text').textContent = sentence;
      notice.hidden = false;
    } catch {
      // The cases cannot be read now (a damaged database is said where the drafts are).
    }
  }
  byId('due-notice-hide').addEventListener('click', () => {
    notice.hidden = true;
  });

  return {
    enter() {
      notice.hidden = true;
      void refresh();
    },
    announce,
  };
}
