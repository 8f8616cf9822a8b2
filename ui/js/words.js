// Every Russian word the page decides itself: subjects, outcomes, provenance, next steps. The
// Rust side sends typed codes and its own `message`; how a code reads on screen is decided here,
// in one place, so the wording stays consistent between screens.

/** The six subject kinds, their names and the one-line scope from LEGAL_FACTS.md. */
export const SUBJECTS = [
  {
    kind: 'common_area_entrance_door',
    label: 'Входная дверь или дверь общего помещения',
    hint: 'Дверь подъезда или общего помещения, которым пользуются несколько квартир.',
  },
  {
    kind: 'common_area_premises_lighting',
    label: 'Освещение в подъезде',
    hint: 'Свет на лестницах, в коридорах и холлах дома; не в квартире, не во дворе и не на фасаде.',
  },
  {
    kind: 'common_area_premises_cleaning',
    label: 'Уборка подъезда',
    hint: 'Уборка лестниц, коридоров и других общих помещений; не двор, не контейнерная площадка и не вывоз мусора.',
  },
  {
    kind: 'common_area_roof',
    label: 'Крыша',
    hint: 'Неисправность крыши, о которой вы знаете точно; мокрый потолок или пятно без известной причины сюда не относятся.',
  },
  {
    kind: 'common_area_ventilation',
    label: 'Общая вентиляция',
    hint: 'Вентиляция, которая служит нескольким квартирам; не вентиляция одной квартиры, не дымоходы и не газ. Одной духоты или запаха мало.',
  },
  {
    kind: 'common_area_elevator',
    label: 'Лифт',
    hint: 'Лифт, его шахта или оборудование; не лифтовый холл, не подъёмная платформа и не эскалатор.',
  },
];

export function subjectLabel(kind) {
  return SUBJECTS.find((subject) => subject.kind === kind)?.label ?? kind;
}

/** Status chips: short, and never a verdict on the resident's problem. */
export const OUTCOME_LABELS = {
  ready: 'Готова',
  needs_user: 'Нужно уточнить',
  rejected: 'Не составлена',
  failed: 'Техническая неудача',
  invalid_input: 'Нужно исправить поля',
  pending: 'Прервана',
};

/** The legend of provenance markers, keyed by section `source` and item `source`. */
export const SOURCE_LABELS = {
  resident: 'ваши слова',
  model: 'описание, составленное моделью',
  legal_catalogue: 'нормативный текст',
  resident_request: 'ваше требование',
  generic: 'общая формулировка',
  edited: 'изменено вами',
};

/** The marker over a request's title, keyed by its `title_source`. */
export const TITLE_SOURCE_LABELS = {
  resident: 'заголовок — ваши слова',
  model: 'заголовок составлен моделью',
  standard: 'стандартный заголовок',
};

export const FIELD_LABELS = {
  description: 'Описание проблемы',
  location: 'Место',
  consequences: 'Последствия',
  desired_actions: 'Что вы просите сделать',
  confirmed_subject: 'К чему относится проблема',
};

/** The legal paragraph's status in one plain sentence. */
export function legalStatusSentence(request, modelUsed) {
  if (request.subject_module) {
    return `Добавлен нормативный абзац о теме «${subjectLabel(request.subject_module)}»: ваш выбор подтверждён текстом.`;
  }
  switch (request.legal_omission) {
    case 'not_confirmed':
      return 'Абзац с нормой о виде проблемы не добавлен: вы не выбрали, к чему относится проблема.';
    case 'no_model_subject':
      return modelUsed
        ? 'Абзац с нормой о виде проблемы не добавлен: по тексту нельзя однозначно понять, к чему относится проблема.'
        : 'Заявка составлена без модели, поэтому абзац с нормой о виде проблемы не добавлен.';
    case 'subject_mismatch':
      return 'Абзац с нормой о виде проблемы не добавлен: ваш выбор не совпал с тем, что следует из текста. Проверьте выбор.';
    case 'evidence_not_verbatim':
      return 'Абзац с нормой о виде проблемы не добавлен: в вашем тексте не нашлось слов, которые прямо это подтверждают.';
    default:
      return 'В заявку добавлены только общие нормы о содержании дома.';
  }
}

/** Panel headings per outcome: what happened, calmly. */
export const PANEL_HEADINGS = {
  needs_user: 'Нужно уточнить описание',
  rejected: 'Черновик не показан',
  failed: 'Не удалось составить заявку',
  invalid_input: 'Проверьте поля формы',
  pending: 'Составление прервалось',
};

// Shown until the first progress message arrives; later lines come worded from Rust.
export const PROGRESS_FIRST = 'Модель составляет описание…';

export const CHECK_STATUS_LABELS = {
  ok: 'В порядке',
  warning: 'Обратите внимание',
  problem: 'Нужно исправить',
};

/** Russian plural: plural(5, ['заявка', 'заявки', 'заявок']) → 'заявок'. */
export function plural(count, [one, few, many]) {
  const tens = count % 100;
  const units = count % 10;
  if (tens >= 11 && tens <= 14) return many;
  if (units === 1) return one;
  if (units >= 2 && units <= 4) return few;
  return many;
}

const DATE_FORMAT = new Intl.DateTimeFormat('ru-RU', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

export function formatDate(rfc3339) {
  const date = new Date(rfc3339);
  return Number.isNaN(date.getTime()) ? rfc3339 : DATE_FORMAT.format(date);
}

export function formatSeconds(milliseconds) {
  const seconds = Math.floor(milliseconds / 1000);
  if (seconds < 60) return `${seconds} с`;
  return `${Math.floor(seconds / 60)} мин ${seconds % 60} с`;
}
