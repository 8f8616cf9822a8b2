// The Russian words the page shows that Rust decides. Generated from the Rust crates by
// the test `view::page_words` of zayavka-desktop (`cargo test -p zayavka-desktop
// page_words`), which rewrites this file when they change: do not edit it by hand.

/** @import { AnswerResult, FilingMethod, SubjectKind } from './ipc-contract.js' */

/**
 * The subject kinds: the core's short names and scopes (`SubjectKind::label_ru`, `scope_ru`).
 * @type {ReadonlyArray<{ kind: SubjectKind, label: string, hint: string }>}
 */
export const SUBJECTS = [
  {
    kind: "common_area_entrance_door",
    label: "Входная дверь или дверь общего помещения",
    hint: "Дверь подъезда или общего помещения, которым пользуются несколько квартир (подвал, колясочная, тамбур); не дверь квартиры.",
  },
  {
    kind: "common_area_premises_lighting",
    label: "Освещение в подъезде",
    hint: "Свет на лестницах, в коридорах и холлах дома; не в квартире, не во дворе и не на фасаде.",
  },
  {
    kind: "common_area_premises_cleaning",
    label: "Уборка подъезда",
    hint: "Уборка лестниц, коридоров и других общих помещений; не двор, не контейнерная площадка и не вывоз мусора.",
  },
  {
    kind: "common_area_roof",
    label: "Крыша",
    hint: "Неисправность крыши, о которой вы знаете точно; мокрый потолок или пятно без известной причины сюда не относятся.",
  },
  {
    kind: "common_area_ventilation",
    label: "Общая вентиляция",
    hint: "Вентиляция дома, общая для нескольких квартир, с решётками на кухне, в ванной и туалете; не вентилятор, поставленный вами, не дымоходы и не газ. Одной духоты или запаха мало.",
  },
  {
    kind: "common_area_elevator",
    label: "Лифт",
    hint: "Лифт, его шахта или оборудование — и когда лифт ездит, но дёргается или скрежещет; не лифтовый холл, не подъёмная платформа и не эскалатор.",
  },
];

/** The form's field labels (`InputField::label_ru`). */
export const FIELD_LABELS = {
  description: "Описание проблемы",
  location: "Место",
  consequences: "Последствия",
  desired_actions: "Что вы просите сделать",
  confirmed_subject: "К чему относится проблема",
};

/** The heading of a request's one item (`REQUEST_HEADING`). */
export const REQUEST_HEADING = "Прошу:";

/**
 * How a request was filed, in the order the filing form offers them (`method_ru`).
 * @type {ReadonlyArray<{ code: FilingMethod, label: string }>}
 */
export const FILING_METHODS = [
  { code: "in_person", label: "лично, с отметкой на втором экземпляре" },
  { code: "letter", label: "заказным письмом с уведомлением о вручении" },
  { code: "email", label: "по электронной почте" },
  { code: "gis", label: "через ГИС ЖКХ или Госуслуги.Дом" },
  { code: "site", label: "через сайт или приложение управляющей организации" },
  { code: "other", label: "другим способом" },
];

/**
 * What an answer did about the problem (`result_ru`).
 * @type {ReadonlyArray<{ code: AnswerResult, label: string }>}
 */
export const ANSWER_RESULTS = [
  { code: "solved", label: "проблема решена" },
  { code: "partly", label: "проблема решена частично" },
  { code: "refused", label: "отказ" },
  { code: "unaddressed", label: "ответ не по существу" },
];
