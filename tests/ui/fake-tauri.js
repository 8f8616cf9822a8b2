// A stand-in for Tauri's `window.__TAURI_INTERNALS__`, installed before the page loads
// (Playwright `addInitScript`), so the real page — with the real vendored `@tauri-apps/api` —
// runs in plain Chromium. It answers every command of docs/desktop-ipc.md with realistic data
// shaped exactly as the contract says. It is test code: it lives under tests/ui/, never in ui/.
//
// Tests steer it through `window.__fake`: `scenario` picks the next draft outcome, `calls` lists
// every invoke with its arguments, `state` holds the drafts, settings and key status.
//
// Everything it answers is typed by the declarations generated from the Rust types
// (ui/js/ipc-contract.d.ts, ADR 39) and checked with the page (tests/ui/tsconfig.json): each
// command's handler takes that command's arguments and answers its answer, and every fixture is
// built as the Rust type it stands for, so the fake cannot hand the page a shape Rust never
// sends. What tests pass in and read back is declared in globals.d.ts (`FakeTauri`).

(() => {
  // A classic script, not a module: the contract's types come in as import types, declared
  // inside this function so that none of them becomes a global type the page's modules could
  // pick up in place of their own imports.
  /**
   * @typedef {import('../../ui/js/ipc-contract.js').Answer} Answer
   * @typedef {import('../../ui/js/ipc-contract.js').AnswerResult} AnswerResult
   * @typedef {import('../../ui/js/ipc-contract.js').BackupView} BackupView
   * @typedef {import('../../ui/js/ipc-contract.js').BatchCasesView} BatchCasesView
   * @typedef {import('../../ui/js/ipc-contract.js').BatchExportView} BatchExportView
   * @typedef {import('../../ui/js/ipc-contract.js').BatchFilingView} BatchFilingView
   * @typedef {import('../../ui/js/ipc-contract.js').BatchFollowUpView} BatchFollowUpView
   * @typedef {import('../../ui/js/ipc-contract.js').BatchListView} BatchListView
   * @typedef {import('../../ui/js/ipc-contract.js').BatchPlanView} BatchPlanView
   * @typedef {import('../../ui/js/ipc-contract.js').BatchProgressView} BatchProgressView
   * @typedef {import('../../ui/js/ipc-contract.js').BatchRowView} BatchRowView
   * @typedef {import('../../ui/js/ipc-contract.js').BatchSummaryView} BatchSummaryView
   * @typedef {import('../../ui/js/ipc-contract.js').CaseDetail} CaseDetail
   * @typedef {import('../../ui/js/ipc-contract.js').CaseState} CaseState
   * @typedef {import('../../ui/js/ipc-contract.js').CaseStats} CaseStats
   * @typedef {import('../../ui/js/ipc-contract.js').CaseView} CaseView
   * @typedef {import('../../ui/js/ipc-contract.js').CheckView} CheckView
   * @typedef {import('../../ui/js/ipc-contract.js').CommandError} CommandError
   * @typedef {import('../../ui/js/ipc-contract.js').CommandName} CommandName
   * @typedef {import('../../ui/js/ipc-contract.js').Commands} Commands
   * @typedef {import('../../ui/js/ipc-contract.js').DeadlineState} DeadlineState
   * @typedef {import('../../ui/js/ipc-contract.js').DoctorReport} DoctorReport
   * @typedef {import('../../ui/js/ipc-contract.js').DocumentView} DocumentView
   * @typedef {import('../../ui/js/ipc-contract.js').DraftOutcome} DraftOutcome
   * @typedef {import('../../ui/js/ipc-contract.js').DraftResult} DraftResult
   * @typedef {import('../../ui/js/ipc-contract.js').DueItem} DueItem
   * @typedef {import('../../ui/js/ipc-contract.js').DueView} DueView
   * @typedef {import('../../ui/js/ipc-contract.js').ErrorKind} ErrorKind
   * @typedef {import('../../ui/js/ipc-contract.js').Explain} Explain
   * @typedef {import('../../ui/js/ipc-contract.js').FaithfulnessFinding} FaithfulnessFinding
   * @typedef {import('../../ui/js/ipc-contract.js').FaithfulnessKind} FaithfulnessKind
   * @typedef {import('../../ui/js/ipc-contract.js').FieldError} FieldError
   * @typedef {import('../../ui/js/ipc-contract.js').Filing} Filing
   * @typedef {import('../../ui/js/ipc-contract.js').FilingForm} FilingForm
   * @typedef {import('../../ui/js/ipc-contract.js').FilingMethod} FilingMethod
   * @typedef {import('../../ui/js/ipc-contract.js').FollowKind} FollowKind
   * @typedef {import('../../ui/js/ipc-contract.js').FollowLink} FollowLink
   * @typedef {import('../../ui/js/ipc-contract.js').GroupStats} GroupStats
   * @typedef {import('../../ui/js/ipc-contract.js').InvalidRow} InvalidRow
   * @typedef {import('../../ui/js/ipc-contract.js').KeyStatusView} KeyStatusView
   * @typedef {import('../../ui/js/ipc-contract.js').LinkView} LinkView
   * @typedef {import('../../ui/js/ipc-contract.js').OmissionReason} OmissionReason
   * @typedef {import('../../ui/js/ipc-contract.js').PhotoView} PhotoView
   * @typedef {import('../../ui/js/ipc-contract.js').PlanCost} PlanCost
   * @typedef {import('../../ui/js/ipc-contract.js').PresetView} PresetView
   * @typedef {import('../../ui/js/ipc-contract.js').Profile} Profile
   * @typedef {import('../../ui/js/ipc-contract.js').RawInput} RawInput
   * @typedef {import('../../ui/js/ipc-contract.js').RequestItem} RequestItem
   * @typedef {import('../../ui/js/ipc-contract.js').RequestView} RequestView
   * @typedef {import('../../ui/js/ipc-contract.js').ResidentNote} ResidentNote
   * @typedef {import('../../ui/js/ipc-contract.js').RestoredView} RestoredView
   * @typedef {import('../../ui/js/ipc-contract.js').RowError} RowError
   * @typedef {import('../../ui/js/ipc-contract.js').SchemaMode} SchemaMode
   * @typedef {import('../../ui/js/ipc-contract.js').Section} Section
   * @typedef {import('../../ui/js/ipc-contract.js').SettingsView} SettingsView
   * @typedef {import('../../ui/js/ipc-contract.js').SetupCheckView} SetupCheckView
   * @typedef {import('../../ui/js/ipc-contract.js').Stats} Stats
   * @typedef {import('../../ui/js/ipc-contract.js').SubjectKind} SubjectKind
   * @typedef {import('../../ui/js/ipc-contract.js').TitleSource} TitleSource
   */

  /**
   * A channel argument (`onProgress`, `onDrop`, `onClose`) as it reaches this fake: the page's
   * own `Channel` object. Inside the app Tauri's IPC serialises it to `"__CHANNEL__:<id>"` on the
   * way to Rust; here the vendored `invoke` hands the page's arguments to this fake's `invoke` as
   * they are, with nothing serialising in between, and only `calls` holds them as Rust would
   * receive them (through JSON, so there it is the string). The fake reads nothing of it but that
   * name, from `toJSON()`, to find the callback it registered; `T` is what Rust sends on it, so a
   * message the fake sends is held to that type.
   * @template T
   * @typedef {import('../../ui/vendor/tauri-api/core.js').Channel<T>} Channel
   */

  /**
   * A ready result: its request is there.
   * @typedef {DraftResult & { request: RequestView }} ReadyResult
   */

  /**
   * A result the store has kept, under its id.
   * @typedef {DraftResult & { draft_id: number }} StoredResult
   */

  /** @type {FakeTauri.Config} */
  const config = window.__FAKE_CONFIG__ ?? {};

  // The page reports CSP violations here; every test fails if any appear.
  /** @type {FakeTauri.CspViolation[]} */
  const cspViolations = [];
  window.__cspViolations = cspViolations;
  document.addEventListener('securitypolicyviolation', (event) => {
    cspViolations.push({ directive: event.violatedDirective, blocked: event.blockedURI, sample: event.sample });
  });

  const LIGHTING = 'common_area_premises_lighting';
  const COMMON_LEGAL = [
    'Согласно части 1 статьи 161 Жилищного кодекса РФ управление многоквартирным домом должно обеспечивать благоприятные и безопасные условия проживания граждан и надлежащее содержание общего имущества в доме. В соответствии с частью 2.3 той же статьи управляющая организация несёт ответственность перед собственниками помещений в доме за оказание всех услуг и (или) выполнение работ, которые обеспечивают надлежащее содержание общего имущества в этом доме.',
    'Согласно подпункту «з» пункта 4 Правил осуществления деятельности по управлению многоквартирными домами, утверждённых постановлением Правительства РФ от 15.05.2013 № 416, управление многоквартирным домом включает приём и рассмотрение заявок, предложений и обращений собственников и пользователей помещений.',
  ];
  const LIGHTING_LEGAL =
    'Согласно подпункту «а» пункта 2, пункту 7 и подпункту «б» пункта 11 Правил содержания общего имущества в многоквартирном доме, утверждённых постановлением Правительства РФ от 13.08.2006 № 491, помещения общего пользования и осветительные установки этих помещений входят в состав общего имущества, а его содержание включает освещение помещений общего пользования.';

  /** @typedef {'description' | 'location' | 'consequences' | 'desired_actions'} LimitedField */
  /** @type {readonly LimitedField[]} */
  const LIMITED_FIELDS = ['description', 'location', 'consequences', 'desired_actions'];
  /** @type {Record<LimitedField, [number, number]>} */
  const LIMITS = { description: [10, 2000], location: [1, 120], consequences: [1, 500], desired_actions: [1, 500] };
  /** @type {Record<LimitedField, string>} */
  const LABELS = {
    description: 'Описание проблемы',
    location: 'Место',
    consequences: 'Последствия',
    desired_actions: 'Что вы просите сделать',
  };

  /** @param {string} text */
  const length = (text) => [...text.trim()].length;

  /**
   * One refused field of the resident's input, as the engine words it.
   * @typedef {RowError & { field: LimitedField }} InputProblem
   */

  // The same rules and messages as zayavka-core's input contract, for the few cases tests need.
  /**
   * @param {RawInput} input
   * @returns {InputProblem[]}
   */
  function validate(input) {
    /** @type {InputProblem[]} */
    const errors = [];
    for (const field of LIMITED_FIELDS) {
      const [min, max] = LIMITS[field];
      const value = input[field];
      if (value === null || value === undefined) {
        if (field === 'description') {
          errors.push({ field, code: 'missing', message: 'Опишите проблему: поле «Описание проблемы» обязательно.' });
        }
        continue;
      }
      const actual = length(value);
      if (actual === 0) {
        errors.push({ field, code: 'blank', message: `В поле «${LABELS[field]}» только пробелы. Впишите текст или оставьте поле пустым.` });
      } else if (actual < min) {
        errors.push({
          field,
          code: 'too_short',
          message: `Поле «${LABELS[field]}» слишком короткое: нужно не меньше ${min} символов, сейчас ${actual}. Допишите, что именно происходит, где и как давно.`,
        });
      } else if (actual > max) {
        errors.push({
          field,
          code: 'too_long',
          message: `Поле «${LABELS[field]}» слишком длинное: можно не больше ${max} символов, сейчас ${actual}. Сократите его на ${actual - max} — текст не будет обрезан автоматически.`,
        });
      }
    }
    return errors;
  }

  // A draft's refused fields as the app sends them (view.rs `FieldError`): each with its label
  // on the form. A batch plan's invalid rows come from the engine without one.
  /**
   * @param {InputProblem[]} errors
   * @returns {DraftResult}
   */
  function invalidInput(errors) {
    const labelled = errors.map(/** @returns {FieldError} */ (error) => ({ ...error, label: LABELS[error.field] }));
    return base('invalid_input', { reason: 'invalid_input', message: 'Заявку нельзя составить, пока не исправлены поля.', next_steps: ['fix_input'], errors: labelled, model_used: false, attempts: 0 });
  }

  /**
   * @param {string | null} desired
   * @returns {RequestItem}
   */
  function presentItem(desired) {
    if (!desired || desired.trim() === '') return { text: 'Устранить наблюдаемую проблему.', source: 'generic' };
    let text = desired.trim().replace(/^прошу:?\s*/i, '').replace(/\s*\n\s*/g, ' ');
    text = text.charAt(0).toUpperCase() + text.slice(1);
    if (!/[.!?…]$/.test(text)) text += '.';
    return { text, source: 'resident_request' };
  }

  // As zayavka-core's `first_words`: one line, cut after the last whole word that fits, with «…»
  // (issue 14). The preview under each title in the drafts list, and the offline title.
  /**
   * @param {string | null} text
   * @param {number} max
   */
  function firstWords(text, max) {
    const words = (text ?? '').split(/\s+/).filter(Boolean);
    const whole = words.join(' ');
    if ([...whole].length <= max) return whole;
    let kept = '';
    for (const word of words) {
      const next = kept === '' ? word : `${kept} ${word}`;
      if ([...next].length > max - 1) break;
      kept = next;
    }
    kept = kept.replace(/[,;:.\-–—(«"']+$/, '').trimEnd();
    if (kept === '') kept = [...whole].slice(0, max - 1).join('');
    return `${kept}…`;
  }

  // Rust's `Request::legal_status_ru`, which the real commands send as `legal_status`.
  /** @type {Record<SubjectKind, string>} */
  const SUBJECT_LABELS = {
    common_area_entrance_door: 'Входная дверь или дверь общего помещения',
    common_area_premises_lighting: 'Освещение в подъезде',
    common_area_premises_cleaning: 'Уборка подъезда',
    common_area_roof: 'Крыша',
    common_area_ventilation: 'Общая вентиляция',
    common_area_elevator: 'Лифт',
  };
  /** @type {Record<OmissionReason, string>} */
  const OMISSION_SENTENCES = {
    not_confirmed: 'Абзац с нормой о виде проблемы не добавлен: вы не выбрали, к чему относится проблема.',
    no_model_subject: 'Абзац с нормой о виде проблемы не добавлен: по тексту нельзя однозначно понять, к чему относится проблема.',
    subject_mismatch: 'Абзац с нормой о виде проблемы не добавлен: ваш выбор не совпал с тем, что следует из текста. Проверьте выбор.',
    evidence_not_verbatim: 'Абзац с нормой о виде проблемы не добавлен: в вашем тексте не нашлось слов, которые прямо это подтверждают.',
  };
  /**
   * @param {Pick<RequestView, 'subject_module' | 'legal_omission' | 'sections'>} request
   * @returns {string}
   */
  function legalStatus(request) {
    if (request.subject_module) {
      return `Добавлен нормативный абзац о теме «${SUBJECT_LABELS[request.subject_module]}»: ваш выбор подтверждён текстом.`;
    }
    const byModel = request.sections.some((section) => section.source === 'model');
    if (request.legal_omission === 'no_model_subject' && !byModel) {
      return 'Заявка составлена без модели, поэтому абзац с нормой о виде проблемы не добавлен.';
    }
    // Neither a subject nor a reason for leaving it out: only the common paragraphs.
    if (request.legal_omission === null) return 'В заявку добавлены только общие нормы о содержании дома.';
    return OMISSION_SENTENCES[request.legal_omission];
  }

  // The program's own notes (zayavka-core notes.rs), for the words this fake's tests type: a
  // relative date and a text with no place. The real table is tested in Rust.
  const DRAFTED = '7 декабря 2026 г.';
  /**
   * @param {RawInput} input
   * @returns {ResidentNote[]}
   */
  function residentNotes(input) {
    /** @type {ResidentNote[]} */
    const notes = [];
    const text = [input.description, input.consequences, input.desired_actions].filter(Boolean).join(' ');
    const yesterday = /(^|[^а-яё])(вчера)(?![а-яё])/i.exec(text);
    if (yesterday) {
      notes.push({
        kind: 'relative_date',
        words: [yesterday[2]],
        message: `В тексте есть «${yesterday[2]}»: в день подачи это будет означать другое время. Черновик составлен ${DRAFTED}; если это было вчера, напишите «6 декабря 2026 г.».`,
      });
    }
    if (!input.location && !/подъезд|этаж|квартир|двор|лестниц|площадк|подвал|кв\./i.test(text)) {
      notes.push({
        kind: 'no_place',
        words: [],
        message: 'Не указано, где проблема. Добавьте место — подъезд, этаж, квартиру или двор: так управляющей организации будет проще её найти.',
      });
    }
    return notes;
  }

  /**
   * @param {string} title
   * @param {TitleSource} titleSource
   * @param {Section[]} descriptive
   * @param {RawInput} input
   * @param {SubjectKind | null} subjectModule
   * @param {OmissionReason | null} omission
   * @param {string[]} warnings
   * @returns {RequestView}
   */
  function buildRequest(title, titleSource, descriptive, input, subjectModule, omission, warnings) {
    const sections = [...descriptive];
    sections.push({ kind: 'legal', source: 'legal_catalogue', module: 'common', text: COMMON_LEGAL[0] });
    sections.push({ kind: 'legal', source: 'legal_catalogue', module: 'common', text: COMMON_LEGAL[1] });
    if (subjectModule) sections.push({ kind: 'legal', source: 'legal_catalogue', module: subjectModule, text: LIGHTING_LEGAL });
    const item = presentItem(input.desired_actions);
    const body = `${sections.map((section) => section.text).join('\n\n')}\n\nПрошу:\n1. ${item.text}`;
    const legal_status = legalStatus({ subject_module: subjectModule, legal_omission: omission, sections });
    return { title, title_source: titleSource, body, sections, item, items: [item.text], subject_module: subjectModule, legal_omission: omission, warnings, faithfulness: [], edited: null, notes: residentNotes(input), legal_status };
  }

  // What a capable model answers to prompt v3 (issue 36): the resident's facts, no risk or
  // cause they did not state, no advice as a warning.
  /** @type {Section[]} */
  const MODEL_SECTIONS = [
    { kind: 'problem', source: 'model', module: null, text: 'В подъезде 2 на лестнице между третьим и четвёртым этажами не горит свет.' },
    { kind: 'circumstances', source: 'model', module: null, text: 'Свет не горит неделю.' },
    { kind: 'impact', source: 'model', module: null, text: 'Мне страшно ходить по лестнице в темноте.' },
  ];
  const MODEL_TITLE = 'Не работает освещение на лестнице в подъезде 2';

  /**
   * @param {DraftOutcome} outcome
   * @param {Partial<DraftResult>} extra
   * @returns {DraftResult}
   */
  function base(outcome, extra) {
    return {
      draft_id: null,
      outcome,
      reason: null,
      message: '',
      next_steps: [],
      request: null,
      errors: [],
      hints: [],
      retryable: false,
      attempts: 1,
      model_used: true,
      ...extra,
    };
  }

  /**
   * @param {RawInput} input
   * @returns {ReadyResult}
   */
  function readyResult(input) {
    const confirmed = input.confirmed_subject;
    const omission = confirmed === LIGHTING ? null : confirmed ? 'subject_mismatch' : 'not_confirmed';
    /** @type {string[]} */
    const warnings = [];
    const request = buildRequest(MODEL_TITLE, 'model', MODEL_SECTIONS, input, omission ? null : LIGHTING, omission, warnings);
    return {
      ...base('ready', {
        message: 'Заявка готова. Проверьте текст перед отправкой.',
        next_steps: confirmed ? [] : ['confirm_subject'],
      }),
      request,
    };
  }

  // A model's sentence with a fact the resident never gave (issue 17): the request stays ready
  // and carries what the faithfulness checks found, as zayavka-core serialises it.
  /**
   * @param {RawInput} input
   * @returns {ReadyResult}
   */
  function unfaithfulResult(input) {
    const result = readyResult(input);
    const sentence = 'Соседка упала на лестнице';
    result.request.sections = result.request.sections.map(/** @returns {Section} */ (section) =>
      section.kind === 'impact' ? { ...section, text: `${sentence}.` } : section,
    );
    result.request.body = `${result.request.sections.map((section) => section.text).join('\n\n')}\n\nПрошу:\n1. ${result.request.item.text}`;
    /** @type {(kind: FaithfulnessKind, word: string, start: number) => FaithfulnessFinding} */
    const finding = (kind, word, start) => ({
      kind, certainty: 'found', field: 'impact', sentence_index: 0, sentence, words: [word],
      spans: [{ start, end: start + [...word].length }],
      message: `В описании есть «${word}», а в вашем тексте этого нет — проверьте.`,
    });
    result.request.faithfulness = [finding('new_group', 'Соседка', 0), finding('new_word', 'упала', 8)];
    return result;
  }

  const FAILED_MESSAGE =
    'Сервис модели сейчас недоступен. Проверьте подключение к интернету и адрес сервиса в настройках, затем попробуйте снова. Это техническая неудача, а не оценка вашей проблемы. Ваш текст сохранён.';

  /** @type {Record<Exclude<FakeTauri.Scenario, 'auto' | 'unfaithful' | 'slow' | 'busy'>, () => DraftResult>} */
  const OUTCOMES = {
    needs_user: () =>
      base('needs_user', {
        reason: 'multiple_problems',
        message: 'В тексте описано несколько разных проблем. Опишите, пожалуйста, одну проблему в одной заявке — для остальных можно составить отдельные заявки.',
        next_steps: ['describe_one_problem'],
        hints: ['Сломанные качели и брошенный диван — две разные заявки.'],
      }),
    rejected: () =>
      base('rejected', {
        reason: 'schema_violation',
        message: 'Ответ модели не прошёл проверку (ответ не в том формате), поэтому черновик не показан. Это не оценка вашей проблемы: попробуйте ещё раз или составьте заявку без модели.',
        next_steps: ['retry', 'draft_without_model'],
        retryable: true,
        attempts: 2,
      }),
    failed: () =>
      base('failed', {
        reason: 'unavailable',
        message: FAILED_MESSAGE,
        next_steps: ['retry', 'draft_without_model', 'check_provider_settings'],
        retryable: true,
        attempts: 3,
      }),
    failed_no_key: () =>
      base('failed', {
        reason: 'no_api_key',
        message: 'Ключ доступа к сервису модели не задан. Задайте его в настройках. Это техническая неудача, а не оценка вашей проблемы. Ваш текст сохранён.',
        next_steps: ['store_api_key', 'draft_without_model'],
        retryable: false,
        attempts: 0,
      }),
    no_provider: () =>
      base('failed', {
        reason: 'bad_config',
        message: 'Сервис модели не выбран: подключите его в мастере подключения (GigaChat, Yandex AI Studio или модель на этом компьютере) или укажите адрес сервера и модель. Это техническая неудача, а не оценка вашей проблемы. Ваш текст сохранён.',
        next_steps: ['configure_provider', 'draft_without_model'],
        retryable: false,
        attempts: 0,
      }),
    rate_limited: () =>
      base('failed', {
        reason: 'rate_limited',
        message: 'Сервис модели временно ограничил число запросов. Подождите минуту и попробуйте снова. Это техническая неудача, а не оценка вашей проблемы. Ваш текст сохранён.',
        next_steps: ['retry_later', 'draft_without_model'],
        retryable: true,
        attempts: 3,
      }),
  };

  const CANCELLED = () =>
    base('failed', {
      reason: 'cancelled',
      message: 'Запрос к сервису модели отменён. Ваш текст сохранён: заявку можно составить снова.',
      next_steps: ['retry', 'draft_without_model'],
      retryable: true,
    });

  // zayavka-core's NO_MODEL_WARNING: what assembly does to the resident's words, said truthfully.
  const NO_MODEL_WARNING =
    'Текст составлен без языковой модели: описание — ваши слова. Приложение лишь делает первую букву заглавной, ставит точку в конце и соединяет строки, если это нужно.';

  /**
   * @param {RawInput} input
   * @returns {ReadyResult}
   */
  function offlineResult(input) {
    // As the core assembles a section: lines joined, the first letter capitalised, a full stop.
    // (Input without a description was refused by `validate` before it came here.)
    const joined = (input.description ?? '').trim().split(/\s*\n\s*/).filter(Boolean).join(' ');
    const problem = (joined.charAt(0).toUpperCase() + joined.slice(1)).replace(/([^.!?…])$/, '$1.');
    /** @type {Section[]} */
    const sections = [{ kind: 'problem', source: 'resident', module: null, text: problem }];
    if (input.location) sections.push({ kind: 'circumstances', source: 'resident', module: null, text: `Место: ${input.location.trim()}.` });
    if (input.consequences) sections.push({ kind: 'impact', source: 'resident', module: null, text: input.consequences.trim().replace(/([^.!?…])$/, '$1.') });
    const words = firstWords(input.description, 60).replace(/\.$/, '');
    const title = words.charAt(0).toUpperCase() + words.slice(1);
    return {
      ...base('ready', {
        message: 'Заявка составлена без модели, из вашего текста. Проверьте его перед отправкой.',
        model_used: false,
        attempts: 0,
      }),
      request: buildRequest(title, 'resident', sections, input, null, 'no_model_subject', [NO_MODEL_WARNING]),
    };
  }

  // --- The store: drafts with their results, versions and context records. -------------------

  let nextDraftId = 1;
  /** @type {Map<number, FakeTauri.StoredDraft>} */
  const drafts = new Map();

  /**
   * @param {DraftResult} result
   * @param {RawInput} input
   * @returns {Explain | null}
   */
  function explainFor(result, input) {
    if (!result.model_used) return null;
    return {
      model: 'gpt-4o-mini',
      provider_host: 'api.openai.com',
      started_at: '2026-11-30T09:15:02Z',
      duration_ms: 4210,
      attempts: [
        { number: 1, status: 503, error_kind: 'unavailable', retry_reason: 'сервис недоступен', duration_ms: 1200 },
        { number: 2, status: 200, error_kind: null, retry_reason: null, duration_ms: 2980 },
      ],
      messages: [
        { role: 'system', content: 'Ты помогаешь жильцу многоквартирного дома описать бытовую проблему для управляющей организации…' },
        { role: 'user', content: JSON.stringify({ description: input.description, location: input.location, consequences: input.consequences }, null, 2) },
      ],
      legal_decision: result.request
        ? legalStatus(result.request)
        : 'Заявка не составлена, поэтому о нормативном абзаце решение не принималось.',
    };
  }

  // Refused input never comes here: draft_run and draft_offline answer it without storing it.
  /**
   * @param {DraftResult} result
   * @param {RawInput} input
   * @param {string | null} [createdAt]
   * @param {{ id: string, row: number } | null} [batchRow] the batch and the row the draft was made from
   * @returns {StoredResult}
   */
  function store(result, input, createdAt = null, batchRow = null) {
    const id = nextDraftId++;
    const stored = { ...result, draft_id: id };
    drafts.set(id, {
      summary: {
        id,
        created_at: createdAt ?? new Date(Date.UTC(2026, 11, 1, 8, 0, id)).toISOString(),
        outcome: stored.outcome,
        reason: stored.reason,
        title: stored.request?.title ?? null,
        preview: firstWords(input.description, 80) || null,
        subject_module: stored.request?.subject_module ?? null,
        batch_id: batchRow?.id ?? null,
        batch_row: batchRow?.row ?? null,
        input: { ...input },
      },
      result: stored,
      // The resident's versions only: the model's or the program's text is the result itself.
      versions: [],
      explain: explainFor(stored, input),
    });
    return stored;
  }

  // Each seed: the input, when it was made, and its title and subject (a ready draft), or what
  // became of it instead.
  /** @type {Array<{ input: RawInput, createdAt: string } & ({ title: string, subject: SubjectKind } | { outcome: 'needs_user' | 'failed' })>} */
  const SEED = [
    { input: { description: 'Уже третью неделю не работает лифт в первом подъезде, пожилым соседям с девятого этажа очень трудно.', location: 'Подъезд 1', consequences: null, desired_actions: 'Отремонтировать лифт', confirmed_subject: 'common_area_elevator' }, createdAt: '2026-11-20T10:00:00Z', title: 'Не работает лифт в подъезде 1', subject: 'common_area_elevator' },
    { input: { description: 'Во дворе сломаны качели, а у мусорных баков кто-то оставил старый диван.', location: null, consequences: null, desired_actions: null, confirmed_subject: null }, createdAt: '2026-11-25T18:30:00Z', outcome: 'needs_user' },
    { input: { description: 'В подъезде неделю не горит свет на лестнице между третьим и четвёртым этажами.', location: 'Подъезд 2, лестница между 3 и 4 этажами', consequences: null, desired_actions: 'Заменить лампы', confirmed_subject: LIGHTING }, createdAt: '2026-11-28T07:45:00Z', title: MODEL_TITLE, subject: LIGHTING },
    { input: { description: 'Входная дверь подъезда не закрывается, доводчик сломан, зимой дует.', location: 'Подъезд 3', consequences: null, desired_actions: null, confirmed_subject: null }, createdAt: '2026-11-10T12:00:00Z', outcome: 'failed' },
  ];
  for (const seed of SEED) {
    const { input, createdAt } = seed;
    let result;
    if ('outcome' in seed) result = OUTCOMES[seed.outcome]();
    else {
      const { title, subject } = seed;
      result = readyResult({ ...input, confirmed_subject: subject === LIGHTING ? LIGHTING : null });
      result.request.title = title;
      if (subject !== LIGHTING) {
        result.request.subject_module = subject;
        result.request.legal_omission = null;
        result.request.legal_status = legalStatus(result.request);
        result.next_steps = [];
      }
    }
    store(result, input, createdAt);
  }

  // `offlineDrafts`: ten more drafts made without a model, all about the same entrance, as an
  // activist saves them one after another (issue 14: they must not look alike).
  const OFFLINE_DESCRIPTIONS = [
    'В подъезде 2 на лестнице между третьим и четвёртым этажами неделю не горит свет, вечером ничего не видно.',
    'В подъезде 2 на пятом этаже разбито окно, дует и в подъезде холодно.',
    'В подъезде 2 не закрывается входная дверь, доводчик сломан и дверь стоит открытой всю ночь.',
    'В подъезде 2 не работает лифт, пожилые соседи с девятого этажа не могут выйти из дома.',
    'В подъезде 2 не убирают лестницу третью неделю, на ступенях мусор и грязь.',
    'В подъезде 2 протекает крыша над девятым этажом, после дождя на лестнице лужи.',
    'В подъезде 2 из вентиляции на кухнях пахнет гарью с прошлой пятницы.',
    'В подъезде 2 сломаны почтовые ящики, письма пропадают.',
    'В подъезде 2 в подвале стоит вода, пахнет сыростью.',
    'В подъезде 2 на первом этаже не горит лампа у входа, жильцы спотыкаются на ступеньках у двери.',
  ];
  if (config.offlineDrafts) {
    OFFLINE_DESCRIPTIONS.forEach((description, index) => {
      const input = { description, location: null, consequences: null, desired_actions: null, confirmed_subject: null };
      store(offlineResult(input), input, `2026-12-02T${String(9 + index).padStart(2, '0')}:05:00Z`);
    });
  }

  // --- Settings and the key. -----------------------------------------------------------------

  // Exactly as settings_get answers (ProviderKind::ALL with its title, preset and notes): a
  // Rust test (src-tauri/tests/setup.rs) holds this list to the engine's order and words.
  /** @type {PresetView[]} */
  const PRESETS = [
    { name: 'gigachat', label: 'GigaChat', base_url: 'https://gigachat.devices.sberbank.ru/api/v1', model: 'GigaChat-2', needs_api_key: true, local: false, privacy_note: 'Описание проблемы уходит на серверы Сбера (GigaChat) в России.', cost_note: 'Для физических лиц есть бесплатный объём токенов, сверх него — оплата в рублях; нужен ключ авторизации из личного кабинета.' },
    { name: 'yandex', label: 'Yandex AI Studio', base_url: 'https://ai.api.cloud.yandex.net/v1', model: 'yandexgpt/latest', needs_api_key: true, local: false, privacy_note: 'Описание проблемы уходит на серверы Яндекса (Yandex Cloud) в России.', cost_note: 'Платно, в рублях за объём текста (новым аккаунтам Yandex Cloud даётся стартовый грант); нужны API-ключ сервисного аккаунта и идентификатор каталога.' },
    { name: 'ollama', label: 'Ollama', base_url: 'http://127.0.0.1:11434/v1', model: 'qwen2.5:7b-instruct', needs_api_key: false, local: true, privacy_note: 'Модель работает на этом компьютере: текст никуда не уходит.', cost_note: 'Бесплатно, ключ не нужен; модель нужно установить самим, и нужен мощный компьютер.' },
    { name: 'lmstudio', label: 'LM Studio', base_url: 'http://127.0.0.1:1234/v1', model: 'qwen2.5-7b-instruct', needs_api_key: false, local: true, privacy_note: 'Модель работает на этом компьютере: текст никуда не уходит.', cost_note: 'Бесплатно, ключ не нужен; модель нужно установить самим, и нужен мощный компьютер.' },
    { name: 'llamacpp', label: 'llama.cpp', base_url: 'http://127.0.0.1:8080/v1', model: 'qwen2.5-7b-instruct', needs_api_key: false, local: true, privacy_note: 'Модель работает на этом компьютере: текст никуда не уходит.', cost_note: 'Бесплатно, ключ не нужен; модель нужно установить самим, и нужен мощный компьютер.' },
    { name: 'custom', label: 'Свой сервер', base_url: '', model: '', needs_api_key: false, local: false, privacy_note: 'Свой сервер, совместимый с OpenAI: текст уходит туда, куда укажете.', cost_note: 'Стоимость и нужен ли ключ, зависит от сервера.' },
    { name: 'openai', label: 'OpenAI', base_url: 'https://api.openai.com/v1', model: 'gpt-4o-mini', needs_api_key: true, local: false, privacy_note: 'Описание проблемы уходит на серверы OpenAI в США.', cost_note: 'Платно, в долларах за объём текста, картой не из России обычно не оплатить; нужен API-ключ.' },
    { name: 'openrouter', label: 'OpenRouter', base_url: 'https://openrouter.ai/api/v1', model: 'openai/gpt-4o-mini', needs_api_key: true, local: false, privacy_note: 'Описание уходит OpenRouter и владельцу выбранной модели, за пределы России.', cost_note: 'Платно, в долларах за объём текста, картой не из России обычно не оплатить; нужен API-ключ.' },
  ];
  /** @type {readonly SchemaMode[]} */
  const SCHEMA_MODES = ['json_schema', 'json_object', 'function_call'];
  // `noProvider`: the first start, no model service chosen yet.
  const OPENAI = presetNamed('openai');
  /** @type {FakeTauri.Settings} */
  const settings = { active_profile: config.noProvider ? null : 'openai', base_url: OPENAI.base_url, model: OPENAI.model, schema_mode: 'json_schema' };
  // The service fields each profile has written (issue 15), as the configuration file keeps
  // them per profile; `null` leaves the preset's default.
  /** @typedef {'folder_id' | 'scope' | 'protocol'} ServiceField */
  /** @type {Record<string, Record<ServiceField, string | null>>} */
  const serviceFields = {};
  /** @param {string} name */
  const written = (name) => (serviceFields[name] ??= { folder_id: null, scope: null, protocol: null });
  // Which kinds use which field, as the engine's ProviderKind::accepts says.
  /** @type {Record<ServiceField, string[]>} */
  const ACCEPTS = { folder_id: ['yandex'], scope: ['gigachat'], protocol: ['yandex', 'openai', 'custom'] };
  /**
   * @param {string} key
   * @returns {key is ServiceField}
   */
  const isServiceField = (key) => Object.hasOwn(ACCEPTS, key);
  /** @type {FakeTauri.KeyState} */
  const keyState = { stored: config.keyStored ?? false, environment: false };

  /**
   * The preset of that name; every profile the fake may choose is one.
   * @param {string} name
   * @returns {PresetView}
   */
  function presetNamed(name) {
    const preset = PRESETS.find((p) => p.name === name);
    if (!preset) throw new Error(`the fake has no preset «${name}»`);
    return preset;
  }

  /** @returns {KeyStatusView} */
  function keyStatus() {
    return { profile: settings.active_profile, stored: keyState.stored, source: keyState.stored ? 'keyring' : null, keyring_available: true };
  }

  /** @returns {SettingsView} */
  function overview() {
    const active = settings.active_profile;
    return {
      active_profile: active,
      presets: PRESETS,
      effective: active !== null && complete()
        ? { profile: active, base_url: settings.base_url, model: effectiveModel(), schema_mode: settings.schema_mode, timeout_secs: 60, attempts: 3 }
        : null,
      problem: settings.active_profile === 'yandex' && !complete()
        ? 'В профиле «yandex» не хватает поля «folder_id». Задайте его: zayavka config set profiles.yandex.folder_id ЗНАЧЕНИЕ.'
        : null,
      key: keyStatus(),
      service: settings.active_profile
        ? { kind: settings.active_profile, ...written(settings.active_profile) }
        : { kind: null, folder_id: null, scope: null, protocol: null },
      // As crate::setup::first_run: no service chosen, no ZAYAVKA_* override, not skipped.
      first_run: !settings.active_profile && !setupSkipped(),
    };
  }

  // «Пока без модели» is a file in the configuration folder for Rust; here it outlives a reload
  // of the page the way that file outlives a restart (the page itself keeps nothing).
  // `setupSkipped: true` starts as an installation whose resident skipped the setup before.
  const SKIP_KEY = '__fake_setup_skipped';
  const setupSkipped = () => Boolean(config.setupSkipped) || sessionStorage.getItem(SKIP_KEY) === 'yes';

  // What the engine's run_provider_checks says, for the cases the setup shows. `setupFailure`
  // ('key' or 'unreachable') makes the service refuse the key or not answer.
  /** @returns {CheckView[]} */
  function providerChecks() {
    const name = settings.active_profile;
    if (!name) {
      return [{ id: 'provider', status: 'warning', title: 'Сервис модели', message: 'Сервис модели не выбран: заявки составляются только без модели, из ваших слов. Чтобы описание составляла модель, выберите сервис модели.', next_step: 'configure_provider' }];
    }
    const preset = presetNamed(name);
    const host = (() => {
      try {
        return new URL(settings.base_url).hostname;
      } catch {
        return settings.base_url;
      }
    })();
    /** @type {CheckView} */
    const keyCheck = !preset.needs_api_key
      ? { id: 'api_key', status: 'ok', title: 'Ключ доступа', message: 'Ключ не обязателен: если он сохранён, он отправляется серверу. Сейчас ключа нет, и запросы идут без него.', next_step: null }
      : keyState.stored
        ? { id: 'api_key', status: 'ok', title: 'Ключ доступа', message: 'Ключ доступа сохранён в хранилище ключей (Secret Service).', next_step: null }
        : { id: 'api_key', status: 'problem', title: 'Ключ доступа', message: `Для профиля «${name}» не сохранён ключ доступа.`, next_step: 'store_api_key' };
    if (fake.setupFailure === 'unreachable') {
      return [
        { id: 'provider', status: 'problem', title: 'Сервис модели', message: `Сервис модели ${host} не отвечает как нужно. Не удалось подключиться к сервису модели. Проверьте, что он запущен и адрес в настройках верный.`, next_step: 'check_provider_settings' },
        keyCheck,
      ];
    }
    if (fake.setupFailure === 'key' || (preset.needs_api_key && !keyState.stored)) {
      return [{ id: 'provider', status: 'problem', title: 'Сервис модели', message: `Сервис модели ${host} отвечает, но не принимает ключ доступа.`, next_step: 'store_api_key' }, keyCheck];
    }
    return [
      { id: 'provider', status: 'ok', title: 'Сервис модели', message: `Сервис модели ${host} отвечает.`, next_step: null },
      keyCheck,
      { id: 'schema_mode', status: 'ok', title: 'Формат ответа модели', message: 'Сервис принимает выбранный формат ответа.', next_step: null },
    ];
  }

  // A Yandex profile without a folder is not complete; its model is expanded under the folder.
  function complete() {
    if (!settings.active_profile) return false;
    return settings.active_profile !== 'yandex' || written('yandex').folder_id !== null;
  }

  function effectiveModel() {
    if (settings.active_profile !== 'yandex' || settings.model.startsWith('gpt://')) return settings.model;
    return `gpt://${written('yandex').folder_id}/${settings.model}`;
  }

  // Every command rejects with the Rust side's `CommandError`, and nothing else.
  /**
   * @param {ErrorKind} kind
   * @param {string} message
   * @returns {Promise<never>}
   */
  const reject = (kind, message) => Promise.reject(/** @satisfies {CommandError} */ ({ kind, message }));

  // «Данные» (issue 31): the app's own words for a damaged database (src-tauri/src/error.rs).
  const DATA_FOLDER = '/home/resident/.local/share/zayavka';
  const BACKUP_FILE = '/media/resident/ФЛЕШКА/Заявка-резервная-копия-2026-11-20.sqlite3';
  const DAMAGED_DATABASE =
    'Файл базы черновиков повреждён: часть записей не читается. Заявка не меняла и не «исправляла» его. Откройте «Настройки» → «Данные» и нажмите «Восстановить повреждённую базу»: всё, что ещё читается, перейдёт в новую базу, а повреждённый файл останется рядом под другим именем. Если у вас есть резервная копия, там же можно «Восстановить из резервной копии».';

  /** @type {ReadonlyArray<keyof Profile>} */
  const PROFILE_FIELDS = ['full_name', 'address', 'apartment', 'phone', 'email', 'company_name', 'company_address'];
  /**
   * @param {string} field
   * @returns {field is keyof Profile}
   */
  const isProfileField = (field) => PROFILE_FIELDS.some((known) => known === field);
  /** @type {Profile} */
  const profile = { full_name: null, address: null, apartment: null, phone: null, email: null, company_name: null, company_address: null };
  /** @returns {Profile} */
  const profileCopy = () => ({ ...profile });

  // --- Batches. --------------------------------------------------------------------------------

  /** @type {RawInput[]} */
  const BATCH_ROWS = [
    { description: 'В подъезде 2 не горит свет на втором этаже уже три дня.', location: 'Подъезд 2, 2 этаж', consequences: null, desired_actions: null, confirmed_subject: LIGHTING },
    { description: 'Мусор на лестнице не убирают с понедельника, пахнет.', location: 'Подъезд 2', consequences: null, desired_actions: 'Провести уборку лестницы', confirmed_subject: 'common_area_premises_cleaning' },
    { description: 'Лифт', location: null, consequences: null, desired_actions: null, confirmed_subject: null },
    { description: 'Дверь подъезда не закрывается до конца, сломан доводчик.', location: 'Подъезд 2', consequences: null, desired_actions: null, confirmed_subject: 'common_area_entrance_door' },
    { description: 'На площадке пятого этажа мигает лампа, вечером почти темно.', location: 'Подъезд 2, 5 этаж', consequences: null, desired_actions: 'Заменить лампу', confirmed_subject: LIGHTING },
  ];
  // «ФИО» and «Квартира» of each row, as the file's columns give them.
  /** @type {Array<[string, string]>} */
  const BATCH_PEOPLE = [
    ['Иванова Анна Петровна', '12'],
    ['Петров Иван Сергеевич', '14'],
    ['Сидоров Олег Николаевич', '15'],
    ['Кузнецова Мария Ивановна', '21'],
    ['Смирнов Павел Андреевич', '23'],
  ];
  const BATCH_FILE = '/home/resident/Документы/подъезд-2.csv';
  // The rows a run has drafted: index → {draftId, outcome}.
  /** @type {Map<number, { draftId: number, outcome: 'ready' | 'needs_user' }>} */
  const batchDone = new Map();
  /** @typedef {{ number: number, created_at: string, updated_at: string }} FakeBatch */
  // The one batch of this fake, once run.
  /** @type {FakeBatch | null} */
  let batch = null;
  // Its id as the store keeps it (a batch's drafts carry it as `batch_id`).
  const BATCH_ID = 'a1b2c3d4e5f6';
  let nextCheck = 1;
  // What each check planned, by its token, for batch_run to hold the run to.
  /** @type {Map<string, { offline: boolean, needsConfirmation: boolean }>} */
  const checks = new Map();
  /** @type {Set<string>} */
  const cancelledTasks = new Set();
  // Photos by draft id; a fake photo is a JPEG of 1,2 MB.
  /** @type {Map<number, PhotoView[]>} */
  const photos = new Map();
  /** @type {(number: number) => PhotoView} */
  const fakePhoto = (number) => ({ number, format: 'jpeg', width: 4000, height: 3000, byte_size: 1_200_000, sha256: '0'.repeat(64), label: `Фото ${number} (JPEG, 1,2 МБ)`, name: `Фото ${number}` });

  /** @param {number} index */
  const batchRowNumber = (index) => index + 2; // the header is row 1
  // The rows the check refuses: index → what is wrong.
  /** @returns {Map<number, InputProblem[]>} */
  const batchInvalid = () => new Map(
    BATCH_ROWS.map(/** @returns {[number, InputProblem[]]} */ (row, index) => [index, validate(row)]).filter(([, errors]) => errors.length > 0),
  );

  /** @returns {BatchPlanView} */
  function batchPlan() {
    const invalid = batchInvalid();
    const noModel = Boolean(config.batchNoModel);
    /** @type {Pick<BatchPlanView, 'new' | 'changed' | 'unfinished' | 'done_before'>} */
    const plan = { new: [], changed: [], unfinished: [], done_before: [] };
    BATCH_ROWS.forEach((row, index) => {
      if (invalid.has(index)) return;
      const number = batchRowNumber(index);
      if (batchDone.has(index)) plan.done_before.push(number);
      else if (batch === null) plan.new.push(number);
      else plan.unfinished.push(number);
    });
    const toDraft = plan.new.length + plan.unfinished.length;
    const toSend = noModel ? 0 : toDraft;
    /** @type {PlanCost} */
    let cost = { kind: 'nothing' };
    if (toSend > 0) cost = config.batchPrices ? { kind: 'at_most', amount: 0.0123 * toSend, currency: 'USD' } : { kind: 'unknown' };
    const checkToken = `check-${nextCheck++}`;
    checks.set(checkToken, { offline: noModel, needsConfirmation: toSend > 0 });
    return {
      check_token: checkToken,
      batch_number: batch?.number ?? null,
      file_name: 'подъезд-2.csv',
      rows: BATCH_ROWS.length,
      offline: noModel,
      model_problem: noModel ? 'Провайдер модели не выбран: выберите его в настройках.' : null,
      ...plan,
      invalid: [...invalid].map(/** @returns {InvalidRow} */ ([index, errors]) => ({ row: batchRowNumber(index), errors })),
      no_longer_in_file: 0,
      to_draft: toDraft,
      to_send: toSend,
      cost,
    };
  }

  /** @returns {BatchRowView[]} */
  function batchRowsAnswer() {
    const invalid = batchInvalid();
    return BATCH_ROWS.map(/** @returns {BatchRowView} */ (row, index) => {
      const [fullName, apartment] = BATCH_PEOPLE[index];
      /** @type {Omit<BatchRowView, 'status' | 'status_label'>} */
      const base = { row: batchRowNumber(index), full_name: fullName, apartment, title: null, reason: null, reason_ru: null, retryable: null, draft_id: null };
      const errors = invalid.get(index);
      if (errors) {
        return { ...base, status: 'invalid', status_label: 'ошибка в строке', reason: 'invalid_input', reason_ru: errors.map((error) => error.message).join(' ') };
      }
      const done = batchDone.get(index);
      if (!done) return { ...base, status: 'waiting', status_label: 'ещё не составлена' };
      const draft = drafts.get(done.draftId);
      if (done.outcome === 'needs_user') {
        return {
          ...base,
          status: 'needs_user',
          status_label: 'нужно уточнить описание',
          reason: 'insufficient_information',
          reason_ru: 'Из описания не понятно, в чём проблема: допишите, что случилось, где и как давно.',
          draft_id: done.draftId,
        };
      }
      return { ...base, status: 'ready', status_label: 'готова', title: draft?.result.request?.title ?? null, draft_id: done.draftId };
    });
  }

  /**
   * @param {FakeBatch} batch
   * @returns {BatchListView}
   */
  function batchListItem(batch) {
    const rows = batchRowsAnswer();
    /** @param {BatchRowView['status']} status */
    const count = (status) => rows.filter((row) => row.status === status).length;
    const unfinished = count('waiting');
    return {
      number: batch.number,
      file_name: 'подъезд-2.csv',
      source_path: BATCH_FILE,
      file_found: !config.batchFileMissing,
      created_at: batch.created_at,
      updated_at: batch.updated_at,
      rows: rows.length,
      ready: count('ready'),
      needs_attention: count('needs_user'),
      failed: 0,
      unfinished,
      invalid: count('invalid'),
      complete: unfinished === 0,
    };
  }

  /**
   * @param {number} index
   * @param {'ready' | 'needs_user'} outcome
   */
  function draftBatchRow(index, outcome) {
    const input = BATCH_ROWS[index];
    let result;
    if (outcome === 'needs_user') result = OUTCOMES.needs_user();
    else {
      const ready = readyResult(input);
      ready.request.title = (input.description ?? '').replace(/[.!?…]$/, '');
      result = ready;
    }
    const stored = store(result, input, null, { id: BATCH_ID, row: batchRowNumber(index) });
    batchDone.set(index, { draftId: stored.draft_id, outcome });
  }

  // `earlierBatch`: a batch run before a restart — two rows ready, one needing the resident,
  // one never drafted (the app was closed), one refused by the check.
  if (config.earlierBatch) {
    batch = { number: 3, created_at: '2026-11-30T18:20:00Z', updated_at: '2026-11-30T18:24:00Z' };
    draftBatchRow(0, 'ready');
    draftBatchRow(1, 'ready');
    draftBatchRow(3, 'needs_user');
  }

  // «Статистика» (issue 17): what `stats_get` answers unless a test gives `config.stats`, shaped
  // as the engine's `Stats` with `period: "all"` — a service that mostly works.
  /**
   * @param {string | null} profile
   * @param {Partial<GroupStats>} [fields]
   * @returns {GroupStats}
   */
  function statsGroup(profile, fields = {}) {
    return {
      period: null,
      profile,
      drafts: 0,
      outcomes: { pending: 0, ready: 0, needs_user: 0, rejected: 0, failed: 0, invalid_input: 0 },
      ready_without_model: 0,
      sent_to_model: 0,
      rejected_share: null,
      failed_share: null,
      attention: [],
      reasons: { needs_user: {}, rejected: {}, failed: {} },
      legal_omissions: {},
      reasks: { total: 0, drafts: 0 },
      attempts: { total: 0, retries: 0, retry_causes: {}, errors: {} },
      faithfulness: { drafts_with_found: 0, drafts_unsure_only: 0, found: 0, unsure: 0, by_kind: {} },
      latency: null,
      tokens: { prompt: 0, completion: 0, total: 0 },
      cost: [],
      ...fields,
    };
  }
  // No request filed: what the engine counts over an empty table of cases.
  /** @returns {CaseStats} */
  const noCases = () => ({
    total: { period: null, addressee: null, filed: 0, answered_on_time: 0, answered_late: 0, answered_no_deadline: 0, never_answered: 0, waiting: 0, solved: 0 },
    by_period: [],
    by_addressee: [],
  });
  // A test gives only what differs from an empty group; the rest is filled in here.
  /**
   * @param {FakeTauri.StatsGiven} stats
   * @returns {Stats}
   */
  const completeStats = (stats) => ({
    since: null,
    until: null,
    profile: null,
    period: 'all',
    cases: noCases(),
    ...stats,
    total: statsGroup(null, stats.total),
    groups: (stats.groups ?? []).map((group) => statsGroup(group.profile ?? null, group)),
  });
  const gigachatStats = statsGroup('gigachat', {
    drafts: 10,
    outcomes: { pending: 0, ready: 8, needs_user: 1, rejected: 1, failed: 0, invalid_input: 0 },
    sent_to_model: 10,
    rejected_share: 0.1,
    failed_share: 0,
    reasons: { needs_user: { multiple_problems: 1 }, rejected: { schema_violation: 1 }, failed: {} },
    legal_omissions: { not_confirmed: 3 },
    reasks: { total: 1, drafts: 1 },
    attempts: { total: 12, retries: 1, retry_causes: { http_503: 1 }, errors: { unavailable: 1 } },
    faithfulness: { drafts_with_found: 2, drafts_unsure_only: 0, found: 3, unsure: 0, by_kind: { new_word: { found: 2, unsure: 0 }, new_cause: { found: 1, unsure: 0 } } },
    latency: { drafts: 10, median_ms: 4200, p90_ms: 9800, max_ms: 15100 },
    tokens: { prompt: 21000, completion: 4200, total: 25200 },
    cost: [{ amount: 12.6, currency: 'RUB' }],
  });
  const offlineStats = statsGroup(null, {
    drafts: 2,
    outcomes: { pending: 0, ready: 2, needs_user: 0, rejected: 0, failed: 0, invalid_input: 0 },
    ready_without_model: 2,
    legal_omissions: { no_model_subject: 2 },
  });
  /** @type {Stats} */
  const DEFAULT_STATS = {
    since: null,
    until: null,
    profile: null,
    period: 'all',
    total: statsGroup(null, {
      drafts: 12,
      outcomes: { pending: 0, ready: 10, needs_user: 1, rejected: 1, failed: 0, invalid_input: 0 },
      ready_without_model: 2,
      sent_to_model: 10,
      rejected_share: 0.1,
      failed_share: 0,
      reasons: gigachatStats.reasons,
      legal_omissions: { not_confirmed: 3, no_model_subject: 2 },
      reasks: gigachatStats.reasks,
      attempts: gigachatStats.attempts,
      faithfulness: gigachatStats.faithfulness,
      latency: gigachatStats.latency,
      tokens: gigachatStats.tokens,
      cost: gigachatStats.cost,
    }),
    groups: [gigachatStats, offlineStats],
    cases: noCases(),
  };

  // --- IPC plumbing: callbacks for channels, and the calls log. -------------------------------

  // What the page registered through `transformCallback`, by id: a channel's callback hears
  // `{index, message}` for each message and `{index, end: true}` when Rust drops the channel.
  /** @type {Map<number, (data: unknown) => void>} */
  const callbacks = new Map();
  let nextCallbackId = 1;
  /** @type {FakeTauri.Call[]} */
  const calls = [];
  // The draft runs waiting for draft_cancel, by task id.
  /** @type {Map<string, () => void>} */
  const slowTasks = new Map();

  // The callback id a channel names itself by: `__CHANNEL__:<id>`.
  /**
   * @template T
   * @param {Channel<T>} channel
   */
  const channelId = (channel) => Number(channel.toJSON().replace('__CHANNEL__:', ''));
  /**
   * Sends one message on a channel, as Rust does: only what that channel carries.
   * @template T
   * @param {Channel<T>} channel
   * @param {number} index
   * @param {NoInfer<T>} message
   */
  function send(channel, index, message) {
    callbacks.get(channelId(channel))?.({ index, message });
  }
  /**
   * @template T
   * @param {Channel<T>} channel
   * @param {number} index
   */
  function end(channel, index) {
    callbacks.get(channelId(channel))?.({ index, end: true });
  }

  /**
   * A channel the page has handed over. A test that sends on one before the page listens is
   * itself wrong, and says so.
   * @template T
   * @param {Channel<T> | null} channel
   * @returns {Channel<T>}
   */
  function listening(channel) {
    if (channel === null) throw new Error('the page does not listen on this channel yet');
    return channel;
  }

  /** @type {(ms: number) => Promise<void>} */
  const tick = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  /** @type {FakeTauri.Backend} */
  const fake = {
    // Which result the next draft_run gives (`FakeTauri.Scenario` in globals.d.ts): 'auto'
    // (ready; unconfirmed asks to confirm), 'unfaithful', 'needs_user', 'rejected', 'failed',
    // 'failed_no_key', 'no_provider', 'rate_limited', 'slow' or 'busy' (both wait for
    // draft_cancel). Tests set it with page.evaluate.
    scenario: config.scenario ?? 'auto',
    // What stats_get answers; a test may set it, or `statsFailure` to make it fail.
    stats: config.stats ? completeStats(config.stats) : DEFAULT_STATS,
    statsFailure: config.statsFailure ?? null,
    // A batch run steps through its rows only when a test lets it: `releaseBatchRow()`.
    batchGate: null,
    calls,
    drafts,
    settings,
    keyState,
    restored: config.restored ?? null,
    // The drafts database does not read (issue 31) until «Данные» restores or recovers it.
    damagedDatabase: config.damagedDatabase ?? false,
    // How the next setup_check ends: null (as the state says), 'key' or 'unreachable'.
    setupFailure: config.setupFailure ?? null,
    autosaved: null,
    // What the last batch_file received.
    batchFiled: null,
    releaseBatchRow() {
      const gate = fake.batchGate;
      fake.batchGate = null;
      gate?.();
    },
    callsOf(name) {
      return calls.filter((call) => call.cmd === name);
    },
    // The window's drag and drop, as Rust reports it: `drop(2)` drops two files.
    dropChannel: null,
    droppedFiles: 0,
    dropIndex: 0,
    nextPhotoRefusal: null,
    dragOver() {
      send(listening(fake.dropChannel), fake.dropIndex++, { kind: 'over' });
    },
    drop(files) {
      fake.droppedFiles = files;
      send(listening(fake.dropChannel), fake.dropIndex++, { kind: 'dropped', files });
    },
    // Closing the window, as Rust decides it: with the page's last word «unsaved» and a page that
    // listens, the window stays open and the page is told; otherwise it closes at once.
    // `requestClose({ tell: true })` tells the page even so (a word the page has not sent yet).
    closeChannel: null,
    closeIndex: 0,
    unsaved: false,
    windowClosed: null,
    requestClose({ tell = false } = {}) {
      if ((fake.unsaved || tell) && fake.closeChannel !== null) {
        send(fake.closeChannel, fake.closeIndex++, { kind: 'requested' });
        return 'asked';
      }
      fake.windowClosed = 'at once';
      return 'closed';
    },
  };
  window.__fake = fake;

  // --- After filing (issue 30): cases by draft id, as case_get and cases_due shape them. -----
  // `config.filed` seeds cases: [{id, overdue?: true, method?, number?}]. Today is fixed.
  const TODAY = config.today ?? '2026-12-04';
  /** @type {Record<FilingMethod, string>} */
  const METHOD_LABELS = {
    in_person: 'лично, с отметкой на втором экземпляре',
    letter: 'заказным письмом с уведомлением о вручении',
    email: 'по электронной почте',
    gis: 'через ГИС ЖКХ или Госуслуги.Дом',
    site: 'через сайт или приложение управляющей организации',
    other: 'другим способом',
  };
  /** @type {Record<AnswerResult, string>} */
  const RESULT_LABELS = { solved: 'проблема решена', partly: 'проблема решена частично', refused: 'отказ', unaddressed: 'ответ не по существу' };
  /**
   * A case as the fake keeps it: what the page recorded, whether its deadline is to be taken as
   * past, and the photos of the filing.
   * @typedef {{ filing: Filing, overdue: boolean, answer?: Answer, closed_on?: string | null, filingPhotos?: PhotoView[], created_at: string, updated_at: string }} FakeCase
   */
  /** @type {Map<number, FakeCase>} */
  const cases = new Map();
  // The letters written after another draft: the letter's id → the draft it follows.
  /** @type {Map<number, FollowLink>} */
  const follows = new Map();
  const caseCalls = { letters: 0 };
  /** @type {Pick<CaseView, 'term' | 'term_ru' | 'term_sources' | 'term_review'>} */
  const TERM = {
    term: 'management_company',
    term_ru: '10 рабочих дней со дня получения обращения',
    term_sources: ['Правила осуществления деятельности по управлению многоквартирными домами, утверждённые постановлением Правительства РФ от 15.05.2013 № 416, пункт 34'],
    term_review: 'awaiting_verification',
  };
  /**
   * @param {number} id
   * @returns {CaseView | null}
   */
  function caseView(id) {
    const c = cases.get(id);
    if (!c) return null;
    /** @type {CaseState} */
    let state;
    let state_ru;
    const due = c.overdue ? '2026-12-01' : '2026-12-18';
    // The term runs from the day the addressee received the request: for a letter, the day it
    // was delivered, unknown until the resident enters it.
    const received = c.filing.method === 'letter' ? c.filing.delivered_on || null : c.filing.filed_on;
    /** @type {DeadlineState} */
    const deadline = received === null
      ? { state: 'awaiting_delivery' }
      : { state: 'known', term: TERM.term, received, due, calendar_years: [2026], verified: false, provisional_years: [] };
    if (c.closed_on) {
      state = { state: 'closed', closed_on: c.closed_on };
      state_ru = 'закрыто 4 декабря';
    } else if (c.answer) {
      state = { state: 'answered', result: c.answer.result, on_time: true };
      state_ru = c.answer.result === 'solved' ? 'решено' : `ответ получен: ${RESULT_LABELS[c.answer.result]}`;
    } else if (deadline.state === 'awaiting_delivery') {
      state = { state: 'awaiting_delivery' };
      state_ru = 'письмо ещё не вручено: срок ответа начнётся со дня вручения';
    } else if (c.overdue) {
      state = { state: 'overdue', due: '2026-12-01', days_over: 3 };
      state_ru = 'срок ответа истёк 3 дня назад';
    } else {
      state = { state: 'waiting', due: '2026-12-18', days_left: 14 };
      state_ru = 'ждём ответа до 18 декабря';
    }
    return {
      case: { draft_id: id, filing: c.filing, answer: c.answer ?? null, closed_on: c.closed_on ?? null, follows: follows.get(id) ?? null, created_at: c.created_at, updated_at: c.updated_at },
      ...TERM,
      received_on: received,
      deadline,
      state,
      state_ru,
      notice_ru: deadline.state === 'known' ? 'Срок посчитан по сроку ответа и производственному календарю, которые ещё не сверены с официальными текстами: перед тем как ссылаться на него, проверьте дату по документам.' : null,
      // 2026's calendar is in the data: no date here is provisional (issue 38).
      provisional_ru: null,
    };
  }
  /** @type {Record<FollowKind, string>} */
  const FOLLOW_LABELS = { correction: 'Исправленный черновик', repeat: 'Повторная заявка', complaint: 'Жалоба в жилищную инспекцию' };
  /** @type {(draftId: number | null, kind: FollowKind) => LinkView} */
  const linkOf = (draftId, kind) => ({ draft_id: draftId, kind, label: FOLLOW_LABELS[kind] });
  // As the store words a draft that is not there.
  /** @param {number} id */
  const draftNotFound = (id) => reject('not_found', `Черновика с номером ${id} нет: проверьте номер в списке черновиков.`);
  /**
   * @param {number} id
   * @returns {CaseDetail | Promise<never>}
   */
  function caseDetail(id) {
    const draft = drafts.get(id);
    if (!draft) return draftNotFound(id);
    const view = caseView(id);
    const c = cases.get(id);
    const facts = [];
    if (c) {
      // Worded as cases.rs's `facts`: dates in words, a no-break space after «№».
      facts.push(`Подана ${dateRu(c.filing.filed_on)} (${METHOD_LABELS[c.filing.method]})${c.filing.number ? `, входящий №\u00a0${bareNumber(c.filing.number)}` : ''}.`);
      if (c.answer) facts.push(`Ответ получен ${dateRu(c.answer.answered_on)}: ${RESULT_LABELS[c.answer.result]}.`);
      if (c.closed_on) facts.push('Дело закрыто 4 декабря 2026 г.');
    }
    let deadlineLine = null;
    if (view && c && !c.answer && !c.closed_on) {
      deadlineLine = view.deadline.state === 'known'
        ? `Ответ должен прийти не позднее ${c.overdue ? '1 декабря 2026 г.' : '18 декабря 2026 г.'}: ${TERM.term_ru}.`
        : 'Срок ответа начнётся со дня вручения письма. Когда узнаете дату из уведомления о вручении или по трек-номеру, впишите её в сведения о подаче.';
    }
    const follow = follows.get(id);
    return {
      draft_id: id,
      can_file: !c && draft.result.outcome === 'ready',
      case: view,
      facts,
      deadline_line: deadlineLine,
      can_follow_up: Boolean(view && c && !c.closed_on && (view.state.state === 'overdue' || (c.answer && c.answer.result !== 'solved'))),
      follows: follow ? linkOf(follow.draft_id, follow.kind) : null,
      follow_ups: [...follows.entries()].filter(([, link]) => link.draft_id === id).map(([letter, link]) => linkOf(letter, link.kind)),
      filing_photos: structuredClone(c?.filingPhotos ?? []),
      answer_photos: [],
      profile_company: profile.company_name,
      today: TODAY,
    };
  }
  // Dates in words, as the engine's date_ru writes them in these messages.
  const MONTHS = ['января', 'февраля', 'марта', 'апреля', 'мая', 'июня', 'июля', 'августа', 'сентября', 'октября', 'ноября', 'декабря'];
  /**
   * An incoming number without the «Вх.» and «№» the resident may have typed from the stamp, as
   * the engine's `bare_number` shows it (the cases of its unit test that the tests use).
   * @param {string} number
   */
  function bareNumber(number) {
    const bare = number.trim().replace(/^(входящий|вх\.?)\s*/i, '').replace(/^(№|No\.?|N)(?=[\s\d.])[\s.]*/, '');
    return bare === '' ? number.trim() : bare;
  }

  /** @param {string} iso */
  function dateRu(iso) {
    const [year, month, day] = iso.split('-').map(Number);
    return `${day} ${MONTHS[month - 1]} ${year} г.`;
  }
  /**
   * Rust's refusal of a date to come, or of a date before the filing; `null` when both stand.
   * @param {string} filedOn
   * @param {string | null} other
   * @param {string} what
   */
  function checkDates(filedOn, other, what) {
    if (filedOn > TODAY) return reject('invalid_setting', `Дата подачи ${dateRu(filedOn)} ещё не наступила (сегодня ${dateRu(TODAY)}). Ничего не изменено. Проверьте дату: отметить можно только то, что уже произошло.`);
    if (other && other < filedOn) return reject('invalid_setting', `${what} ${dateRu(other)} раньше дня подачи (${dateRu(filedOn)}). Ничего не изменено. Проверьте даты.`);
    return null;
  }
  /**
   * A letter written after the draft `from`, on its request: the new draft's id.
   * @param {number} from
   * @param {FollowKind} kind
   * @param {string} [title] the letter's title; the request's own when not given
   * @returns {number | Promise<never>}
   */
  function newLetter(from, kind, title) {
    const draft = drafts.get(from);
    if (!draft) return draftNotFound(from);
    const { request } = draft.result;
    // The page offers a letter only on a filed request, which is a ready one.
    if (!request) throw new Error(`the fake writes letters only after a ready request, not draft ${from}`);
    /** @type {ReadyResult} */
    const result = { ...structuredClone(draft.result), request: { ...structuredClone(request), title: title ?? request.title, edited: null } };
    const stored = store(result, draft.summary.input);
    follows.set(stored.draft_id, { draft_id: from, kind });
    return stored.draft_id;
  }
  /**
   * A case as recorded on the day `on` (today unless given).
   * @param {Filing} filing
   * @param {boolean} overdue
   * @param {string} [on]
   * @returns {FakeCase}
   */
  const newCase = (filing, overdue, on = TODAY) => ({ filing, overdue, created_at: `${on}T09:00:00Z`, updated_at: `${on}T09:00:00Z` });
  /**
   * The case of a filed draft. The page asks about an answer, a closing or a photo only on one.
   * @param {number} id
   * @returns {FakeCase}
   */
  function filedCase(id) {
    const c = cases.get(id);
    if (!c) throw new Error(`the fake has no case for draft ${id}`);
    return c;
  }
  // Rust's refusal of an argument outside the contract (`CommandError::invalid_argument`).
  /** @param {string} what */
  const invalidArgument = (what) => reject('invalid_argument', `Приложение передало неверное значение (${what}). Ваш текст сохранён. Перезапустите приложение и попробуйте снова.`);
  /**
   * @param {string} code
   * @returns {code is FilingMethod}
   */
  const isFilingMethod = (code) => Object.hasOwn(METHOD_LABELS, code);
  /**
   * @param {string} code
   * @returns {code is AnswerResult}
   */
  const isAnswerResult = (code) => Object.hasOwn(RESULT_LABELS, code);
  /**
   * The filing form as Rust reads it: `null` for a method it does not know.
   * @param {FilingForm} form
   * @returns {Filing | null}
   */
  function filingOf(form) {
    const method = form.method.trim();
    if (!isFilingMethod(method)) return null;
    return { filed_on: form.filed_on, method, number: form.number ?? null, addressee: form.addressee ?? null, delivered_on: form.delivered_on ?? null };
  }
  for (const seed of config.filed ?? []) {
    cases.set(seed.id, newCase({ filed_on: '2026-11-17', method: seed.method ?? 'in_person', number: seed.number ?? null, addressee: null, delivered_on: null }, Boolean(seed.overdue), '2026-11-17'));
  }

  // Every command of the contract and no other, each taking that command's arguments and
  // answering its answer, or rejecting with a `CommandError` (`reject`). Object literals a
  // handler returns are marked `@satisfies` with their type, so that a field Rust does not send
  // is an error there too (a return is otherwise only checked for what it lacks).
  /** @type {{ [K in CommandName]: (args: Commands[K]['args']) => Commands[K]['answer'] | Promise<Commands[K]['answer']> }} */
  const handlers = {
    async draft_run({ input, taskId, onProgress }) {
      const errors = validate(input);
      if (errors.length > 0) return invalidInput(errors);
      send(onProgress, 0, {
        attempt: 1, elapsed_ms: 0, state: 'sending', wait_ms: null, message: 'Модель составляет описание…',
      });
      const scenario = fake.scenario;
      if (scenario === 'slow') {
        await new Promise((resolve) => slowTasks.set(taskId, () => resolve(undefined)));
        end(onProgress, 1);
        return store(CANCELLED(), input);
      }
      if (scenario === 'busy') {
        // The service answered 503: the next attempt follows in three seconds.
        send(onProgress, 1, {
          attempt: 2, elapsed_ms: 400, state: 'waiting_retry', wait_ms: 3000,
          message: 'Сервис модели занят (HTTP 503), пробуем ещё раз через 3 с…',
        });
        await new Promise((resolve) => slowTasks.set(taskId, () => resolve(undefined)));
        end(onProgress, 2);
        return store(CANCELLED(), input);
      }
      let result;
      if (scenario === 'auto') result = readyResult(input);
      else if (scenario === 'unfaithful') result = unfaithfulResult(input);
      else result = OUTCOMES[scenario]();
      send(onProgress, 1, {
        attempt: 2, elapsed_ms: 1200, state: 'waiting_retry', wait_ms: 1000,
        message: 'Сервис модели занят (HTTP 503), пробуем ещё раз через 1 с…',
      });
      end(onProgress, 2);
      return store(result, input);
    },
    async draft_cancel({ taskId }) {
      slowTasks.get(taskId)?.();
      slowTasks.delete(taskId);
      return null;
    },
    async draft_offline({ input }) {
      const errors = validate(input);
      if (errors.length > 0) return invalidInput(errors);
      return store(offlineResult(input), input);
    },
    async draft_reassemble({ draftId, subject }) {
      const draft = drafts.get(draftId);
      if (!draft) return draftNotFound(draftId);
      const input = { ...draft.summary.input, confirmed_subject: subject };
      /** @type {ReadyResult & StoredResult} */
      const result = { ...readyResult(input), draft_id: draftId };
      draft.result = result;
      draft.summary.subject_module = result.request.subject_module;
      draft.summary.input = input;
      return result;
    },
    async input_autosave({ input }) {
      fake.autosaved = input;
      return null;
    },
    async input_restore() {
      return fake.restored;
    },
    async drafts_list({ filter }) {
      if (fake.damagedDatabase) return reject('store', DAMAGED_DATABASE);
      return [...drafts.values()]
        .map((draft) => draft.summary)
        .filter((summary) => !filter.outcome || summary.outcome === filter.outcome)
        .filter((summary) => !filter.subject || summary.subject_module === filter.subject)
        .filter((summary) => !filter.batch_id || summary.batch_id === filter.batch_id)
        .sort((a, b) => (a.created_at < b.created_at ? 1 : -1))
        .slice(0, filter.limit ?? 100);
    },
    async drafts_search({ text }) {
      const needle = text.toLowerCase();
      return [...drafts.values()]
        .map((draft) => draft.summary)
        .filter((summary) => `${summary.title ?? ''} ${summary.input.description ?? ''} ${summary.input.location ?? ''}`.toLowerCase().includes(needle))
        .sort((a, b) => (a.created_at < b.created_at ? 1 : -1));
    },
    async draft_open({ id }) {
      const draft = drafts.get(id);
      if (!draft) return draftNotFound(id);
      return structuredClone(draft);
    },
    async draft_edit({ id, title, body }) {
      const draft = drafts.get(id);
      // The page edits only a ready draft, the one kind with a request to edit.
      if (!draft?.result.request) return draftNotFound(id);
      if (title.trim() === '' || body.trim() === '') return reject('empty_edit', 'Правка пустая: в ней должны быть заголовок (первая строка) и текст заявки.');
      draft.result.request.edited = { title, body, brought_in: false };
      draft.versions.push({ version: draft.versions.length + 1, author: 'resident', title, body, created_at: '2026-12-01T09:00:00Z' });
      draft.summary.title = title;
      return structuredClone(draft);
    },
    async draft_delete({ id }) {
      drafts.delete(id);
      return null;
    },
    async draft_save_as({ format }) {
      return `/home/resident/Документы/заявка.${format}`;
    },
    async draft_document({ id, collective }) {
      const draft = drafts.get(id);
      const request = draft?.result.request;
      if (!request) return reject('not_reassemblable', 'У этого черновика нет готовой заявки: сохранять и печатать нечего.');
      const shown = request.edited ?? request;
      const blank = '________________';
      const attached = photos.get(id) ?? [];
      return /** @satisfies {DocumentView} */ ({
        recipient: [
          { label: 'Кому', value: `${blank} (название управляющей организации)`, blank: true },
          { label: 'Адрес', value: blank, blank: true },
        ],
        sender: [
          { label: 'От', value: 'Иванова Мария Петровна', blank: false },
          { label: 'Квартира', value: '12', blank: false },
        ],
        title: shown.title,
        paragraphs: shown.body.split('\n\n'),
        appendix: attached.length === 0 ? [] : ['Приложения:', ...attached.map((photo) => `${photo.number}. ${photo.label}`)],
        co_signers: collective ? { heading: 'Подписи жителей', sentence: 'Заявку поддерживают жители дома:', columns: ['№', 'ФИО', 'Квартира', 'Подпись'], rows: 20 } : null,
        date: '1 декабря 2026 г.',
        signature: `Подпись: ${blank} / Иванова Мария Петровна`,
      });
    },
    async print_page() {
      return null;
    },
    async draft_photos({ id }) {
      return structuredClone(photos.get(id) ?? []);
    },
    async draft_attach_chosen({ id }) {
      if (fake.nextPhotoRefusal) {
        const message = fake.nextPhotoRefusal;
        fake.nextPhotoRefusal = null;
        return reject('photo', message);
      }
      const list = photos.get(id) ?? [];
      list.push(fakePhoto(list.length + 1));
      photos.set(id, list);
      return structuredClone(list);
    },
    async draft_attach_dropped({ id }) {
      const list = photos.get(id) ?? [];
      for (let i = 0; i < fake.droppedFiles; i += 1) list.push(fakePhoto(list.length + 1));
      photos.set(id, list);
      return structuredClone(list);
    },
    async draft_detach({ id, number }) {
      const list = (photos.get(id) ?? []).filter((photo) => photo.number !== number).map(/** @returns {PhotoView} */ (photo, index) => ({ ...fakePhoto(index + 1), width: photo.width }));
      photos.set(id, list);
      return structuredClone(list);
    },
    async photos_drop_watch({ onDrop }) {
      fake.dropChannel = onDrop;
      return null;
    },
    async window_close_watch({ onClose }) {
      fake.closeChannel = onClose;
      fake.unsaved = false;
      return null;
    },
    async window_unsaved({ unsaved }) {
      fake.unsaved = unsaved;
      return null;
    },
    async window_close() {
      fake.unsaved = false;
      fake.windowClosed = 'by the page';
      return null;
    },
    async clipboard_write() {
      return null;
    },
    async settings_get() {
      return overview();
    },
    async settings_set({ key, value }) {
      if (key === 'active_profile') {
        const preset = PRESETS.find((p) => p.name === value);
        if (!preset) return reject('invalid_setting', 'Такого сервиса нет в списке. Выберите сервис из списка.');
        Object.assign(settings, { active_profile: value, base_url: preset.base_url, model: preset.model, schema_mode: value === 'ollama' || value === 'llamacpp' || value === 'custom' ? 'json_object' : 'json_schema' });
      } else if (key === 'base_url') {
        if (!/^https?:\/\/\S+$/.test(value)) return reject('invalid_setting', 'Адрес сервера должен начинаться с http:// или https://. Проверьте адрес и сохраните снова.');
        settings.base_url = value;
      } else if (key === 'model') {
        if (value.trim() === '') return reject('invalid_setting', 'Впишите название модели, например gpt-4o-mini.');
        settings.model = value;
      } else if (key === 'schema_mode') {
        // The engine's checked value and words (config set), under the chosen profile's key.
        const mode = SCHEMA_MODES.find((code) => code === value);
        if (mode === undefined) {
          return reject('invalid_setting', `Неверное значение для «profiles.${settings.active_profile}.schema_mode»: ожидается json_schema, json_object или function_call.`);
        }
        settings.schema_mode = mode;
      } else if (isServiceField(key)) {
        // The engine's own checked values and words (config set).
        const profileName = settings.active_profile;
        if (!profileName) return reject('invalid_setting', 'Сначала выберите сервис модели в списке выше.');
        if (!ACCEPTS[key].includes(profileName)) return reject('invalid_setting', 'Эта настройка не относится к выбранному сервису модели.');
        /** @param {string} expected */
        const wrong = (expected) => reject('invalid_setting', `Ожидается ${expected}.`);
        if (key === 'folder_id' && !/^[a-z0-9]{20}$/.test(value)) {
          return wrong('идентификатор каталога Yandex Cloud: 20 строчных латинских букв и цифр, обычно начинается с b1g. Его видно в консоли Yandex Cloud (console.yandex.cloud) рядом с именем каталога, где создан сервисный аккаунт');
        }
        if (key === 'scope' && !['GIGACHAT_API_PERS', 'GIGACHAT_API_B2B', 'GIGACHAT_API_CORP'].includes(value)) {
          return wrong('GIGACHAT_API_PERS (физическое лицо), GIGACHAT_API_B2B или GIGACHAT_API_CORP (юридическое лицо или ИП) — как указано в личном кабинете GigaChat API');
        }
        if (key === 'protocol' && !['chat_completions', 'responses'].includes(value)) return wrong('chat_completions или responses');
        written(profileName)[key] = value;
      } else {
        return reject('invalid_setting', 'Такой настройки нет.');
      }
      return overview();
    },
    async key_status() {
      return keyStatus();
    },
    async key_set({ secret }) {
      // As the engine's ApiKey::new refuses an empty key (kind `key`, secrets.rs).
      if (secret.trim() === '') return reject('key', 'Ключ пустой. Вставьте ключ целиком и повторите.');
      keyState.stored = true;
      return keyStatus();
    },
    async key_delete() {
      keyState.stored = false;
      return keyStatus();
    },
    async profile_get() {
      return profileCopy();
    },
    async profile_set({ field, value }) {
      if (!isProfileField(field)) return reject('invalid_argument', 'Приложение передало неверное значение.');
      const text = value.trim();
      if (field === 'email' && text !== '' && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(text)) {
        return reject('invalid_setting', 'Адрес электронной почты записан с ошибкой: в нём должен быть знак @ и имя почтового сервера, например anna@example.ru.');
      }
      profile[field] = text === '' ? null : text;
      return profileCopy();
    },
    async stats_get({ request }) {
      if (request === undefined || !('days' in request)) return reject('invalid_argument', 'Приложение передало неверное значение.');
      if (fake.statsFailure) return reject('store', fake.statsFailure);
      return fake.stats;
    },
    async profile_clear() {
      for (const field of PROFILE_FIELDS) profile[field] = null;
      return profileCopy();
    },
    // «Данные» in «Настройки» (issue 31), in Rust's words (src-tauri/src/backup.rs).
    async data_backup() {
      await tick(5);
      if (config.noFile) return null;
      if (fake.damagedDatabase) return reject('store', DAMAGED_DATABASE);
      const file = '/home/resident/Документы/Заявка-резервная-копия-2026-12-04.sqlite3';
      return /** @satisfies {BackupView} */ ({
        file,
        message: `Резервная копия черновиков записана в файл ${file}. Храните её отдельно от компьютера, например на флешке: если база черновиков повредится, её можно будет вернуть кнопкой «Восстановить из резервной копии».`,
      });
    },
    async data_restore_choose() {
      return config.noFile ? null : BACKUP_FILE;
    },
    async data_restore({ path }) {
      await tick(5);
      if (path !== BACKUP_FILE) return reject('invalid_argument', 'Приложение передало неверное значение (файл резервной копии). Ваш текст сохранён. Перезапустите приложение и попробуйте снова.');
      fake.damagedDatabase = false;
      const aside = `${DATA_FOLDER}/zayavka.sqlite3.before-restore-20261204-101500`;
      return /** @satisfies {RestoredView} */ ({
        drafts: drafts.size,
        set_aside: aside,
        recovered: null,
        damage_found: false,
        message: `Черновики восстановлены из файла ${path}: ${drafts.size} черновика. Прежняя база черновиков не удалена: она сохранена рядом как ${aside}.`,
      });
    },
    async data_recover() {
      await tick(5);
      if (config.nothingReadable) {
        return reject('store', 'Ни одного черновика из повреждённой базы прочитать не удалось, поэтому она не заменена и не изменена. Если у вас есть резервная копия, нажмите «Восстановить из резервной копии».');
      }
      fake.damagedDatabase = false;
      const aside = `${DATA_FOLDER}/zayavka.sqlite3.before-restore-20261204-101700`;
      return /** @satisfies {RestoredView} */ ({
        drafts: drafts.size,
        set_aside: aside,
        recovered: `${DATA_FOLDER}/zayavka-recovered-20261204-101700.sqlite3`,
        damage_found: true,
        message: `Спасено черновиков: ${drafts.size}. Теперь приложение работает с ними. Повреждённая база не удалена и не изменена: она сохранена рядом как ${aside}. В базе нашлись повреждённые места: записи, которые в них были, прочитать не удалось. Если у вас есть резервная копия, сравните с ней.`,
      });
    },
    async setup_check() {
      await tick(config.slowSetupCheck ? 400 : 5);
      const checks = providerChecks();
      const ready = checks.some((check) => check.id === 'provider' && check.status === 'ok') && checks.every((check) => check.status !== 'problem');
      return /** @satisfies {SetupCheckView} */ ({ ready, checks });
    },
    async setup_skip() {
      sessionStorage.setItem(SKIP_KEY, 'yes');
      return null;
    },
    async connection_check() {
      return /** @satisfies {DoctorReport} */ ({
        checks: [
          { id: 'config', status: 'ok', title: 'Настройки', message: 'Настройки читаются.', next_step: null },
          { id: 'data_folder', status: 'ok', title: 'Папка данных', message: 'Папка данных доступна.', next_step: null },
          keyState.stored
            ? { id: 'api_key', status: 'ok', title: 'Ключ доступа', message: 'Ключ доступа сохранён в хранилище ключей.', next_step: null }
            : { id: 'api_key', status: 'problem', title: 'Ключ доступа', message: 'Для сервиса OpenAI не сохранён ключ доступа. Сохраните его в поле «Ключ доступа».', next_step: 'store_api_key' },
          { id: 'provider', status: 'warning', title: 'Сервис модели', message: 'Сервис OpenAI не ответил: нет подключения к интернету. Без модели заявку можно составить кнопкой «Составить без модели».', next_step: 'draft_without_model' },
          { id: 'legal_modules_review', status: 'warning', title: 'Сверка нормативных абзацев', message: 'Не все нормативные абзацы приложения пока сверены с официальным текстом законов: перед отправкой перечитайте абзац с пометкой «нормативный текст».', next_step: null },
        ],
      });
    },
    async batch_choose_file() {
      return config.noFile ? null : '/home/resident/Документы/подъезд-2.csv';
    },
    async batch_check({ options }) {
      // `config.batchRows` makes the file that long: over 5000 it is refused unless the page
      // raised the limit (issue 31).
      const rows = config.batchRows ?? BATCH_ROWS.length;
      if (rows > (options?.max_rows ?? 5000)) {
        return reject('batch_too_large', `В файле ${rows} строк с данными, а в одном пакете может быть не больше 5000. Проверьте, тот ли это файл; большой файл разделите на части.`);
      }
      const plan = batchPlan();
      if (options?.new_batch) {
        plan.new = [...plan.new, ...plan.done_before].sort((a, b) => a - b);
        plan.done_before = [];
        plan.batch_number = null;
        plan.to_send = plan.new.length;
        plan.to_draft = plan.new.length;
      }
      return plan;
    },
    async batch_list() {
      return batch === null ? [] : [batchListItem(batch)];
    },
    async batch_continue({ number }) {
      if (batch === null || batch.number !== number) return reject('not_found', `Пакета «${number}» нет: проверьте номер в списке пакетов.`);
      if (config.batchFileMissing) {
        return reject(
          'batch_file_missing',
          `Файла «подъезд-2.csv» больше нет там, откуда запускали пакет ${number}. Если вы его переместили или переименовали, выберите его кнопкой «Выбрать файл…»: составленные строки повторно не отправятся.`,
        );
      }
      return batchPlan();
    },
    async batch_rows({ number }) {
      if (batch === null || batch.number !== number) return reject('not_found', `Пакета «${number}» нет: проверьте номер в списке пакетов.`);
      return batchRowsAnswer();
    },
    async batch_run({ checkToken, offline, confirmed, taskId, onProgress }) {
      const check = checks.get(checkToken);
      if (!check) return reject('batch_not_checked', 'Выберите файл пакета снова или продолжите пакет из списка: перед отправкой приложение заново проверяет строки.');
      if (!offline && check.offline) return reject('batch_not_checked', 'Сервис модели не был настроен, когда файл проверяли.');
      if (!offline && check.needsConfirmation && !confirmed) return reject('batch_not_confirmed', 'Ничего не отправлено: подтвердите отправку кнопкой под планом пакета.');
      if (batch === null) batch = { number: 1, created_at: '2026-12-01T09:00:00Z', updated_at: '2026-12-01T09:00:00Z' };
      else batch.updated_at = '2026-12-01T10:00:00Z';
      const current = batch;
      const invalid = batchInvalid();
      const todo = BATCH_ROWS.map((row, index) => index).filter((index) => !invalid.has(index) && !batchDone.has(index));
      /** @type {BatchProgressView} */
      const progress = { done: 0, total: todo.length, ready: 0, needs_user: 0, rejected: 0, failed: 0 };
      let index = 0;
      let cancelled = false;
      for (const row of todo) {
        if (config.gatedBatch) await new Promise((resolve) => (fake.batchGate = () => resolve(undefined)));
        else await tick(10);
        if (cancelledTasks.has(taskId)) {
          cancelled = true;
          break;
        }
        draftBatchRow(row, 'ready');
        progress.done += 1;
        progress.ready += 1;
        send(onProgress, index++, { ...progress });
      }
      end(onProgress, index);
      const unfinished = batchListItem(current).unfinished;
      const sent = offline ? 0 : progress.done;
      const priced = sent > 0 && Boolean(config.batchPrices);
      return /** @satisfies {BatchSummaryView} */ ({
        ...progress,
        batch_number: current.number,
        sent,
        tokens: sent * 900,
        cost: priced ? sent * 0.0004 : null,
        // In the currency of the prices, as the plan's cost names it.
        currency: priced ? 'USD' : null,
        stopped: cancelled ? 'cancelled' : null,
        unfinished,
        complete: unfinished === 0,
        // As BatchSummary::rows_ru words it: every row of the file, the refused ones too.
        rows_ru:
          `В файле ${BATCH_ROWS.length} строк: с ошибками и не отправлены — ${invalid.size} (строка ${[...invalid.keys()].map((i) => i + 2).join(', ')}); ` +
          `составлены в этот раз — ${progress.done}` +
          (batchDone.size > progress.done ? `; составлены раньше и не отправлялись снова — ${batchDone.size - progress.done}` : '') +
          (unfinished > 0 ? `; ещё не составлены — ${unfinished}` : '') +
          `. Итог по пакету: готовы ${batchDone.size}, нужно уточнить описание 0, ответ модели не подошёл 0, технический сбой 0.`,
      });
    },
    async batch_cancel({ taskId }) {
      cancelledTasks.add(taskId);
      // A gated run is waiting for its next row; let it notice the cancel.
      fake.releaseBatchRow();
      return null;
    },
    async case_get({ id }) {
      return caseDetail(id);
    },
    async case_file({ id, filing }) {
      const recorded = filingOf(filing);
      if (!recorded) return invalidArgument('способ подачи');
      if (!filing.filed_on) return reject('invalid_setting', 'Укажите дату подачи. Ничего не изменено.');
      const refused = checkDates(recorded.filed_on, recorded.delivered_on, 'Дата вручения');
      if (refused) return refused;
      const old = cases.get(id);
      cases.set(id, old ? { ...old, filing: recorded, updated_at: `${TODAY}T09:00:00Z` } : newCase(recorded, false));
      return caseDetail(id);
    },
    async case_bring_in({ text, filing }) {
      if (text.trim().length < 10) {
        return reject('invalid_setting', 'Текст заявки не записан: Описание проблемы: слишком короткое — нужно от 10 до 2000 знаков. Ничего не записано; поправьте текст и повторите.');
      }
      const recorded = filingOf(filing);
      if (!recorded) return invalidArgument('способ подачи');
      if (!filing.filed_on) return reject('invalid_setting', 'Укажите дату подачи. Ничего не изменено.');
      const refused = checkDates(recorded.filed_on, recorded.delivered_on, 'Дата вручения');
      if (refused) return refused;
      /** @type {RawInput} */
      const input = { description: text, location: null, consequences: null, desired_actions: null, confirmed_subject: null };
      const title = firstWords(text, 60);
      const request = buildRequest(title, 'resident', [{ kind: 'problem', source: 'resident', module: null, text }], input, null, 'no_model_subject', []);
      request.edited = { title, body: text, brought_in: true };
      /** @type {ReadyResult} */
      const result = { ...base('ready', { message: 'Заявка составлена без модели, из ваших слов.', model_used: false }), request };
      const stored = store(result, input, `${filing.filed_on}T09:00:00Z`);
      // Its text as it was filed is its one version (issue 38).
      drafts.get(stored.draft_id)?.versions.push({ version: 1, author: 'brought_in', title, body: text, created_at: `${TODAY}T09:00:00Z` });
      cases.set(stored.draft_id, newCase(recorded, recorded.filed_on < '2026-11-20'));
      return caseDetail(stored.draft_id);
    },
    async case_unfile({ id }) {
      cases.delete(id);
      return caseDetail(id);
    },
    async case_answer({ id, answer }) {
      const c = filedCase(id);
      const result = answer.result.trim();
      if (!isAnswerResult(result)) return invalidArgument('итог ответа');
      const refused = checkDates(c.filing.filed_on, answer.answered_on, 'Дата ответа');
      if (refused) return refused;
      c.answer = { answered_on: answer.answered_on, result };
      c.updated_at = `${TODAY}T09:00:00Z`;
      return caseDetail(id);
    },
    async case_close({ id, close }) {
      const c = filedCase(id);
      c.closed_on = close ? TODAY : null;
      c.updated_at = `${TODAY}T09:00:00Z`;
      return caseDetail(id);
    },
    async case_attach_chosen({ id, role }) {
      const c = filedCase(id);
      if (role === 'filing') c.filingPhotos = [...(c.filingPhotos ?? []), fakePhoto((c.filingPhotos?.length ?? 0) + 1)];
      return caseDetail(id);
    },
    async draft_correct({ id }) {
      return newLetter(id, 'correction');
    },
    async follow_up_write({ id, kind, addressee }) {
      if (kind !== 'repeat' && kind !== 'complaint') return invalidArgument('вид письма');
      const view = caseView(id);
      // The page offers a letter only on a filed request.
      if (!view) throw new Error(`the fake has no case for draft ${id}`);
      if (view.state.state === 'waiting') return reject('invalid_argument', 'Срок ответа на эту заявку ещё не истёк: ответ должен прийти не позднее 18 декабря 2026 г. Повторную заявку или жалобу пишут, когда ответа нет после срока или ответ не решил проблему. Ничего не создано.');
      if (kind === 'complaint' && (addressee ?? '').trim() === '') {
        return reject('invalid_setting', 'Впишите, в какую инспекцию жалоба: например, «Государственная жилищная инспекция Московской области». Название и адрес есть на сайте инспекции вашего региона или на Госуслугах. Ничего не создано.');
      }
      caseCalls.letters += 1;
      return newLetter(id, kind, kind === 'complaint' ? 'Жалоба на непредоставление ответа на обращение' : 'Повторная заявка');
    },
    async cases_due() {
      const views = [...cases.keys()].map(caseView).filter((view) => view !== null);
      /** @type {Record<CaseState['state'], number>} */
      const rank = { overdue: 0, waiting: 1, awaiting_delivery: 2, no_deadline: 2, answered: 3, closed: 4 };
      views.sort((a, b) => rank[a.state.state] - rank[b.state.state]);
      return /** @satisfies {DueView} */ ({
        today: TODAY,
        today_ru: '4 декабря 2026 г.',
        overdue: views.filter((v) => v.state.state === 'overdue').length,
        due_soon: 0,
        cases: views.map(/** @returns {DueItem} */ (v) => ({
          draft_id: v.case.draft_id,
          title: drafts.get(v.case.draft_id)?.summary.title ?? null,
          state: v.state,
          state_ru: v.state_ru,
          needs_attention: v.state.state === 'overdue',
          filed_ru: `подана ${dateRu(v.case.filing.filed_on)}${v.case.filing.number ? `, вх. №\u00a0${bareNumber(v.case.filing.number)}` : ''}`,
          follows: v.case.follows ? linkOf(v.case.follows.draft_id, v.case.follows.kind) : null,
        })),
        notice: views.some((v) => v.notice_ru) ? 'Срок посчитан по сроку ответа и производственному календарю, которые ещё не сверены с официальными текстами: перед тем как ссылаться на него, проверьте дату по документам.' : null,
      });
    },
    async case_calendar({ id }) {
      return `/home/resident/Документы/Срок-ответа-${id}.ics`;
    },
    async batch_file({ rows, filing }) {
      if (!filing.filed_on) return reject('invalid_setting', 'Укажите дату подачи. Ничего не изменено.');
      fake.batchFiled = { rows, filing };
      return /** @satisfies {BatchFilingView} */ ({ filed: 2, message: 'Отмечено поданными 4 декабря 2026 г. (лично, с отметкой на втором экземпляре): 2. Строки 3: без готовой заявки, не отмечены.', cases: { filed: 2, answered: 0, overdue: 0, solved: 0 } });
    },
    async batch_cases() {
      return /** @satisfies {BatchCasesView} */ ({ filed: 0, answered: 0, overdue: 0, solved: 0, today: TODAY });
    },
    async batch_follow_up() {
      return /** @satisfies {BatchFollowUpView} */ ({ folder: '/home/resident/Документы/письма', written: 0, message: 'Писать пока некому: ни по одной поданной строке срок ответа не истёк без ответа, и ни один ответ не оставил проблему нерешённой.' });
    },
    async batch_export({ format }) {
      // The page names a batch by its number: «Пакет 3».
      const documents = ['pdf', 'docx', 'txt'].includes(format);
      return /** @satisfies {BatchExportView} */ ({
        folder: '/home/resident/Документы/подъезд-2',
        written: documents ? 3 : 1,
        skipped: documents ? [{ row: 4, reason: 'в строке есть ошибки, её заявка не составлялась' }] : [],
      });
    },
  };

  /**
   * @param {string} cmd
   * @returns {cmd is CommandName}
   */
  const isCommand = (cmd) => Object.hasOwn(handlers, cmd);
  /**
   * A command's answer from its own handler, with that command's arguments.
   * @template {CommandName} K
   * @param {K} cmd
   * @param {Commands[K]['args']} args
   */
  const answerOf = (cmd, args) => handlers[cmd](args);

  // The part of Tauri's internals that the vendored `@tauri-apps/api` calls.
  window.__TAURI_INTERNALS__ = {
    metadata: { currentWindow: { label: 'main' }, currentWebview: { windowLabel: 'main', label: 'main' } },
    /**
     * @param {(data: unknown) => void} callback
     * @param {boolean} [once]
     */
    transformCallback(callback, once = false) {
      const id = nextCallbackId++;
      callbacks.set(id, (data) => {
        if (once) callbacks.delete(id);
        callback(data);
      });
      return id;
    },
    /** @param {number} id */
    unregisterCallback(id) {
      callbacks.delete(id);
    },
    /** @param {string} path */
    convertFileSrc(path) {
      return path;
    },
    /**
     * @param {string} cmd
     * @param {unknown} [args]
     */
    async invoke(cmd, args = {}) {
      // What Rust would receive: the arguments as JSON (a Channel becomes "__CHANNEL__:id").
      calls.push({ cmd, args: JSON.parse(JSON.stringify(args)) });
      // Tauri's own refusal of a command it does not know: a bare string, not a CommandError.
      if (!isCommand(cmd)) throw `command ${cmd} not found`;
      // The arguments are the page's, built by ipc.js, which the checker holds to the same
      // contract; like Rust's deserialiser, the fake takes them as that command's.
      const answer = await answerOf(cmd, /** @type {Commands[typeof cmd]['args']} */ (args));
      return answer === undefined ? null : structuredClone(answer);
    },
  };
})();
