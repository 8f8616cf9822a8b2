// The result of one draft: the document-like card for `ready`, a calm panel for every other
// outcome. Used by «Новая заявка», «Черновики» and «Пакет», so an opened draft looks exactly like
// a fresh one. This module owns the result's place on screen and puts the ready result together
// from its parts: the request's text (request-card.js), what the resident can do with it
// (request-actions.js, request-edit.js), the subject question (subject-confirmation.js), the
// photos (photos.js) and «Как получен результат» (explain.js); any other outcome is
// outcome-panel.js.

import { freshId, h, replace, unhandled } from './dom.js';
import { faithfulnessSummary } from './faithfulness.js';
import { legend, requestCard } from './request-card.js';
import { requestActions } from './request-actions.js';
import { showEditForm } from './request-edit.js';
import { subjectConfirmation } from './subject-confirmation.js';
import { photosSection } from './photos.js';
import { explainDisclosure } from './explain.js';
import { outcomePanel } from './outcome-panel.js';
import { casePanel } from './case-panel.js';

/**
 * @import { CaseDetail, DraftResult, Explain, JsonValue, RequestView } from './ipc-contract.js'
 * @import { CaseActions } from './case-panel.js'
 * @import { Child } from './dom.js'
 * @import { NextAction } from './outcome-panel.js'
 * @import { ShownText } from './request-actions.js'
 */

/**
 * What the owning screen gives the result; see `renderResult`.
 * @typedef {object} ResultOptions
 * @property {(action: NextAction, result: DraftResult) => void} [onNextStep]
 * @property {Node | null} [stale]
 * @property {Explain | null} [explain] the draft's record when known (null: no model was used)
 * @property {(result: DraftResult) => void} [onReplaced]
 * @property {CaseDetail | null} [case] null when the case could not be read
 * @property {CaseActions} [caseActions]
 */

/**
 * Renders `result` (a DraftResult) into `container`.
 *
 * `options.onNextStep(step)` handles the steps that belong to the owning screen (retry, drafting
 * without a model, focusing a field, opening settings); `options.stale` is a node shown above the
 * result when it belongs to an earlier text; `options.explain` is an already loaded `explain`
 * record (an opened draft has it), otherwise it is loaded when the disclosure opens;
 * `options.onReplaced(result)` hears of a result that replaced this one (re-assembled or edited).
 * `options.case` is the draft's `case_get` answer (an opened draft in «Черновики»): its
 * «Подача и ответ» panel shows under the actions, with `options.caseActions` (case-panel.js);
 * a filed draft's text and photos no longer change, so editing them is not offered.
 * @param {HTMLElement} container
 * @param {DraftResult} result
 * @param {ResultOptions} [options]
 * @returns {ResultView}
 */
export function renderResult(container, result, options = {}) {
  const view = new ResultView(container, options);
  view.show(result);
  return view;
}

class ResultView {
  /**
   * @param {HTMLElement} container
   * @param {ResultOptions} options
   */
  constructor(container, options) {
    this.container = container;
    this.options = options;
    this.headingId = freshId('result-heading');
    /** @type {ReturnType<typeof casePanel> | null} the «Подача и ответ» panel, when shown */
    this.casePanel = null;
  }

  /** @param {DraftResult} result */
  show(result) {
    /** @type {Child[]} */
    const parts = [];
    if (this.options.stale) parts.push(this.options.stale);
    if (result.outcome === 'ready' && result.request) {
      parts.push(this.readyView(result, result.request));
    } else {
      parts.push(outcomePanel(result, this.headingId, (step) => this.options.onNextStep?.(step, result)));
    }
    replace(this.container, ...parts);
  }

  /**
   * Says `message` in the «Подача и ответ» panel and moves focus there.
   * @param {string} message
   */
  announceCase(message) {
    if (this.casePanel) this.casePanel.announce(message);
    else this.focus();
  }

  /** Moves focus to the result's heading, so a keyboard or screen-reader user lands on it. */
  focus() {
    const heading = this.container.querySelector('.result-heading');
    if (!(heading instanceof HTMLElement)) return;
    // The result starts at the top of the window, not wherever the smallest scroll would leave it.
    heading.focus({ preventScroll: true });
    heading.scrollIntoView({ block: 'start' });
  }

  /**
   * Shows `next`, a result that replaced this one, and tells the owning screen.
   * @param {DraftResult} next
   */
  replaced(next) {
    this.show(next);
    this.options.onReplaced?.(next);
    this.focus();
  }

  /**
   * The card and everything around it of a ready `result`, whose request is `request`.
   * @param {DraftResult} result
   * @param {RequestView} request
   */
  readyView(result, request) {
    /** @type {ShownText} */
    const shown = request.edited ?? { title: request.title, body: request.body };

    /** @type {Child[]} */
    const parts = [h('h2', { id: this.headingId, class: 'result-heading', tabindex: '-1' }, 'Ваша заявка')];
    parts.push(h('p', {}, result.message));
    if (request.warnings.length > 0) {
      parts.push(
        h(
          'div',
          { class: 'warnings', role: 'note', 'aria-label': 'Предупреждения' },
          h('p', { class: 'warnings-title' }, 'Проверьте перед отправкой:'),
          h('ul', {}, request.warnings.map((warning) => h('li', {}, warning))),
        ),
      );
    }
    parts.push(faithfulnessSummary(request));
    // The program's own notes on the resident's text: what code sees the same way every time
    // (a relative date, no place), apart from the model's warnings and never blocking.
    if ((request.notes ?? []).length > 0) {
      parts.push(
        h(
          'div',
          { class: 'program-notes', role: 'note', 'aria-label': 'Заметки программы' },
          h('p', { class: 'warnings-title' }, 'Заметки программы — учтите их, если нужно:'),
          h('ul', {}, request.notes.map((note) => h('li', { 'data-note': note.kind }, note.message))),
        ),
      );
    }
    const draftId = result.draft_id;
    const offerSubject = result.next_steps.includes('confirm_subject') && draftId !== null;
    parts.push(
      h(
        'p',
        { class: 'legal-status' },
        request.legal_status,
        offerSubject ? ' Выбрать вид проблемы можно под текстом заявки.' : null,
      ),
    );
    if (!result.model_used) {
      parts.push(h('p', { class: 'note' }, 'Модель не использовалась: заявка составлена из вашего текста.'));
    }

    const filed = Boolean(this.options.case?.case);
    parts.push(requestCard(request), legend(request));
    parts.push(requestActions(result, shown, filed ? null : (id) => this.edit(result, id, shown)));
    // The panel's actions come with the case (drafts.js passes both).
    if (this.options.case && this.options.caseActions) {
      this.casePanel = casePanel(this.options.case, this.options.caseActions);
      parts.push(this.casePanel.element);
    }
    // The selector comes after the text: the resident reads the request first, then decides.
    if (offerSubject && !filed) {
      parts.push(subjectConfirmation(draftId, (next) => this.replaced(next)));
    }
    // Photos come after the question: confirming the subject changes the text, photos do not.
    if (draftId !== null) {
      parts.push(photosSection(draftId, { frozen: filed }), explainDisclosure(draftId, () => this.options.explain));
    }
    return h('article', { class: 'result', 'aria-labelledby': this.headingId }, parts);
  }

  /**
   * Shows the edit form of `result`'s stored draft `draftId` in place of the result; «Отмена»
   * brings `result` back.
   * @param {DraftResult} result
   * @param {number} draftId
   * @param {ShownText} shown
   */
  edit(result, draftId, shown) {
    showEditForm(this.container, draftId, shown, {
      onSaved: (detail) => {
        // The edited draft's record is at hand: «Как получен результат» needs no second read.
        this.options.explain = detail.explain;
        this.replaced(detail.result);
      },
      onCancel: () => {
        this.show(result);
        this.focus();
      },
    });
  }
}

/**
 * A stored draft's next step, from «Черновики» or «Пакет»: the screen the step leads to, or the
 * draft's input back in «Новая заявка», to be tried again, drafted without a model or corrected
 * there. Every action of outcome-panel.js is handled, so a new one is a type error here.
 * @param {{ show(screen: 'settings' | 'setup', focusId?: string): void,
 *   editInForm(input: JsonValue): void }} navigation
 * @param {NextAction} action
 * @param {JsonValue} input the stored draft's input
 */
export function openNextStep(navigation, action, input) {
  switch (action) {
    case 'open_settings':
      navigation.show('settings');
      break;
    case 'open_setup':
      navigation.show('setup');
      break;
    case 'store_api_key':
      navigation.show('settings', 'api-key');
      break;
    case 'retry':
    case 'draft_without_model':
    case 'focus_description':
      navigation.editInForm(input);
      break;
    default:
      unhandled(action);
  }
}
