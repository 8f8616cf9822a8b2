//! Printing a case (issue 30): what `drafts show` prints under a filed draft, the state line a
//! list prints under it, every case by draft for the lists, a case's deadline and the titles of
//! the cases' drafts. It sits below the command files (`drafts_cmd.rs`, `case_cmd.rs`) and calls
//! none of them.

use std::collections::BTreeMap;

use zayavka_engine::{
    AttachmentRole, CaseError, CaseView, DeadlineState, DraftId, Engine, date_ru, method_ru,
    result_ru, today,
};

use crate::wording::{capitalised, sentence};

/// A case's refusal, in Russian.
pub(crate) fn case_error(error: CaseError) -> anyhow::Error {
    anyhow::anyhow!(error.message_ru())
}

/// Today: the system's date, or `ZAYAVKA_TODAY`.
pub(crate) fn today_or_error() -> anyhow::Result<jiff::civil::Date> {
    today().map_err(case_error)
}

/// The deadline of a case, or why there is none, and what to do about it.
pub(crate) fn print_deadline(
    out: &mut dyn std::io::Write,
    view: &CaseView,
    today: jiff::civil::Date,
) -> anyhow::Result<()> {
    match &view.deadline {
        DeadlineState::Known(deadline) => {
            writeln!(
                out,
                "Ответ должен прийти не позднее {}: {}. Сейчас: {}",
                date_ru(deadline.due),
                view.term_ru,
                sentence(&view.state.phrase_ru(today))
            )?;
        }
        DeadlineState::AwaitingDelivery => writeln!(
            out,
            "Срок ответа начнётся со дня вручения письма. Когда узнаете дату из уведомления \
             о вручении или по трек-номеру, укажите её: zayavka drafts filed {} --delivered \
             ГГГГ-ММ-ДД.",
            view.case.draft_id
        )?,
        DeadlineState::Unknown { reason, .. } => writeln!(out, "{}.", capitalised(reason))?,
    }
    if let Some(provisional) = &view.provisional_ru {
        writeln!(out, "{}", sentence(&capitalised(provisional)))?;
    }
    if let Some(notice) = &view.notice_ru {
        writeln!(out, "{notice}")?;
    }
    Ok(())
}

/// The titles of the cases' drafts, for the lines under them.
pub(crate) fn titles(engine: &Engine, views: &[&CaseView]) -> BTreeMap<DraftId, String> {
    views
        .iter()
        .filter_map(|view| {
            let draft = engine.draft(view.case.draft_id).ok()?;
            Some((view.case.draft_id, draft.summary.title?))
        })
        .collect()
}

/// The case as `drafts show` prints it under the draft.
pub(crate) fn print_case(
    out: &mut dyn std::io::Write,
    engine: &Engine,
    id: DraftId,
) -> anyhow::Result<()> {
    let today = today_or_error()?;
    if let Some(link) = engine.follow_link(id).map_err(case_error)? {
        let kind = match link.kind {
            zayavka_engine::FollowKind::Correction => "исправление",
            zayavka_engine::FollowKind::Repeat => "повторная заявка",
            zayavka_engine::FollowKind::Complaint => "жалоба в жилищную инспекцию",
        };
        match link.draft_id {
            Some(first) => writeln!(out, "\nЭто {kind} по черновику № {first}.")?,
            None => writeln!(out, "\nЭто {kind} по черновику, который потом удалён.")?,
        }
    }
    let Some(view) = engine.case(id, today).map_err(case_error)? else {
        return Ok(());
    };
    let filing = &view.case.filing;
    writeln!(
        out,
        "\nПодана {} ({}){}{}.",
        date_ru(filing.filed_on),
        method_ru(filing.method),
        filing
            .number
            .as_deref()
            .map(|number| {
                let number = zayavka_engine::bare_number(number);
                format!(", входящий № {}", zayavka_engine::escape_invisible(number))
            })
            .unwrap_or_default(),
        filing
            .addressee
            .as_deref()
            .map(|to| format!(", адресат: {}", zayavka_engine::escape_invisible(to)))
            .unwrap_or_default()
    )?;
    if let Some(delivered) = filing.delivered_on {
        writeln!(out, "Письмо вручено {}", sentence(&date_ru(delivered)))?;
    }
    if let Some(answer) = view.case.answer {
        writeln!(
            out,
            "Ответ получен {}: {}.",
            date_ru(answer.answered_on),
            result_ru(answer.result)
        )?;
    }
    if view.case.answer.is_none() && view.case.closed_on.is_none() {
        print_deadline(out, &view, today)?;
    } else {
        writeln!(out, "Сейчас: {}", sentence(&view.state_ru))?;
    }
    for (role, label) in [
        (AttachmentRole::Filing, "Фотографии подачи"),
        (AttachmentRole::Answer, "Фотографии ответа"),
    ] {
        let photos = engine
            .case_photos(id, role)
            .map_err(|error| anyhow::anyhow!(error.message_ru()))?;
        if !photos.is_empty() {
            writeln!(out, "{label}: {}.", photos.len())?;
        }
    }
    Ok(())
}

/// The state line a list shows under a filed draft.
pub(crate) fn state_line(view: &CaseView) -> String {
    format!(
        "    Подана {} · {}",
        date_ru(view.case.filing.filed_on),
        view.state_ru
    )
}

/// Every case by draft, as of today, for the lists; empty when the cases cannot be read (the
/// list itself still shows).
pub(crate) fn cases_by_draft(engine: &Engine) -> BTreeMap<DraftId, CaseView> {
    let Ok(today) = today() else {
        return BTreeMap::new();
    };
    engine
        .due(today)
        .map(|views| {
            views
                .into_iter()
                .map(|view| (view.case.draft_id, view))
                .collect()
        })
        .unwrap_or_default()
}
