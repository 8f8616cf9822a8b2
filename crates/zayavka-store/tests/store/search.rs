//! Full-text search in Russian as people type it.

use zayavka_store::{DraftId, NewVersion, Store};

use crate::{Scratch, full_input, input, ready};

fn ids(store: &Store, query: &str) -> Vec<DraftId> {
    store
        .search_drafts(query, 50)
        .unwrap()
        .into_iter()
        .map(|d| d.id)
        .collect()
}

fn sorted(mut ids: Vec<DraftId>) -> Vec<DraftId> {
    ids.sort();
    ids
}

#[test]
fn case_does_not_matter() {
    let scratch = Scratch::new();
    let store = scratch.open();
    let id = store.create_draft(&input("В Подъезде ТЕМНО")).unwrap();
    for query in ["подъезде", "ПОДЪЕЗДЕ", "Темно", "тЕмНо"] {
        assert_eq!(ids(&store, query), [id], "{query}");
    }
}

#[test]
fn ye_finds_yo_and_back() {
    let scratch = Scratch::new();
    let store = scratch.open();
    let yo = store
        .create_draft(&input("Ёлка у подъезда упала, всё засыпано"))
        .unwrap();
    let ye = store
        .create_draft(&input("Елка во дворе, все ветки сломаны"))
        .unwrap();
    assert_eq!(sorted(ids(&store, "елка")), [yo, ye]);
    assert_eq!(sorted(ids(&store, "ЁЛКА")), [yo, ye]);
    assert_eq!(sorted(ids(&store, "всё")), [yo, ye]);
    // A decomposed «ё» (е and a combining diaeresis) is the same letter.
    assert_eq!(sorted(ids(&store, "е\u{0308}лка")), [yo, ye]);
    // «й» is not «и».
    let store_id = store.create_draft(&input("Сломан мойщик окон")).unwrap();
    assert_eq!(ids(&store, "мойщик"), [store_id]);
    assert!(ids(&store, "моищик").is_empty());
}

#[test]
fn a_word_beginning_finds_the_word() {
    let scratch = Scratch::new();
    let store = scratch.open();
    let id = store
        .create_draft(&input("Не горит свет в подъезде номер два"))
        .unwrap();
    for query in ["подъезд", "подъ", "гор свет", "номер дв"] {
        assert_eq!(ids(&store, query), [id], "{query}");
    }
    // Every word must occur.
    assert!(ids(&store, "подъезд лифт").is_empty());
    // A word's middle is not its beginning.
    assert!(ids(&store, "ъезд").is_empty());
}

#[test]
fn every_input_field_and_the_request_are_searched() {
    let scratch = Scratch::new();
    let store = scratch.open();
    let id = store
        .create_draft(&full_input(
            "Дует из окна",
            "Лестничная клетка седьмого этажа",
            "Сквозняк и холод",
            "Заменить уплотнитель",
        ))
        .unwrap();
    for query in ["дует", "седьмого", "сквозняк", "уплотнитель"] {
        assert_eq!(ids(&store, query), [id], "{query}");
    }
    store
        .finish_draft(
            id,
            &ready("Неисправно окно", "Окно в парадной не закрывается."),
            None,
            &[],
        )
        .unwrap();
    assert_eq!(ids(&store, "неисправно"), [id]);
    assert_eq!(ids(&store, "парадн"), [id]);
    // The resident's own version is found too.
    store
        .add_version(
            id,
            &NewVersion {
                author: "resident".into(),
                title: "Окно".into(),
                body: "Рама перекошена.".into(),
            },
        )
        .unwrap();
    assert_eq!(ids(&store, "перекош"), [id]);
    // Words of the model's earlier result leave the index when the draft is retried.
    store.begin_retry(id).unwrap();
    assert!(ids(&store, "неисправно").is_empty());
    assert_eq!(ids(&store, "перекош"), [id]);
}

#[test]
fn results_are_ranked_by_relevance() {
    let scratch = Scratch::new();
    let store = scratch.open();
    let once = store
        .create_draft(&input(
            "Во дворе много всего: скамейки, урны, качели, песочница и ещё протечка где-то у \
             гаражей, но главное другое, о чём будет отдельная заявка про освещение двора",
        ))
        .unwrap();
    let often = store
        .create_draft(&input("Протечка, протечка и снова протечка"))
        .unwrap();
    let middle = store
        .create_draft(&input("Протечка в подвале, вода стоит уже неделю"))
        .unwrap();
    assert_eq!(ids(&store, "протечка"), [often, middle, once]);
}

#[test]
fn hostile_query_syntax_is_plain_text() {
    let scratch = Scratch::new();
    let store = scratch.open();
    let id = store
        .create_draft(&input(
            "Кабель NEAR щитка, OR-провод \"оголён\" (опасно) - срочно*",
        ))
        .unwrap();
    let queries = [
        "\"",
        "\"\"",
        "*",
        "**",
        "(",
        ")",
        "()",
        "-",
        "- -",
        "NEAR",
        "NEAR(",
        "NEAR/3",
        "OR",
        "AND",
        "NOT",
        "OR OR",
        "^",
        ":",
        "{",
        "}",
        "[",
        "]",
        "+",
        "",
        "   ",
        ".,;!?",
        "—",
        "кабель\"",
        "\"кабель",
        "кабель*",
        "(кабель",
        "-кабель",
        "кабель OR",
        "title:кабель",
        "NEAR(кабель щитка)",
        "'; DROP TABLE drafts; --",
        "\0",
        "\u{202E}кабель",
    ];
    for query in queries {
        let result = store.search_drafts(query, 10);
        assert!(result.is_ok(), "{query:?}: {result:?}");
    }
    assert_eq!(ids(&store, "NEAR"), [id]);
    assert_eq!(ids(&store, "OR"), [id]);
    assert_eq!(ids(&store, "\"оголён\""), [id]);
    assert_eq!(ids(&store, "(опасно)"), [id]);
    assert_eq!(ids(&store, "-срочно*"), [id]);
    assert_eq!(ids(&store, "title:кабель"), []);
    assert!(ids(&store, "").is_empty());
    assert!(ids(&store, ".,;!?").is_empty());
    // The table is still there.
    assert_eq!(ids(&store, "кабель"), [id]);
}
