//! `zayavka stats`: how the model behaves in real use, counted from the drafts database on this
//! computer — no network, no key, nothing sent anywhere (issue 17).
//!
//! The text output is a table of outcomes by period and profile, then the details of each
//! group; a group where most answers were rejected or failed is called out above the table, so
//! a service that answers every time but is rarely usable cannot pass unnoticed.

use std::fmt::Write as _;
use std::io::Write as _;
use std::process::ExitCode;

use zayavka_engine::group_digits;
use zayavka_engine::{
    Attention, Counts, Engine, GroupStats, Period, ProfileName, Stats, StatsError, StatsQuery,
    money_text,
};

/// `zayavka stats …`
#[derive(Debug, clap::Args)]
pub struct StatsArgs {
    /// Только черновики, созданные с этого дня (ГГГГ-ММ-ДД).
    #[arg(long, value_name = "ДАТА", value_parser = date)]
    since: Option<jiff::civil::Date>,
    /// Только черновики, созданные по этот день включительно (ГГГГ-ММ-ДД).
    #[arg(long, value_name = "ДАТА", value_parser = date)]
    until: Option<jiff::civil::Date>,
    /// Только черновики, последний запуск которых шёл через этот профиль.
    #[arg(long, value_name = "ИМЯ", value_parser = profile)]
    profile: Option<String>,
    /// Как делить по времени: day (по дням), week (по неделям), month (по месяцам, без этого
    /// флага) или all (весь период одной строкой на профиль).
    #[arg(
        long,
        value_name = "ПЕРИОД",
        value_parser = period,
        default_value = "month",
        hide_default_value = true
    )]
    period: Period,
    /// Вывести один объект JSON.
    #[arg(long)]
    json: bool,
}

fn date(text: &str) -> Result<jiff::civil::Date, String> {
    text.parse()
        .map_err(|_| "нужна дата в виде ГГГГ-ММ-ДД, например 2026-12-01".to_owned())
}

fn profile(text: &str) -> Result<String, String> {
    ProfileName::parse(text)
        .map(|name| name.as_str().to_owned())
        .map_err(|_| {
            "имя профиля — до 64 латинских букв, цифр, «-» и «_», например gigachat; профили \
             показывает zayavka config show"
                .to_owned()
        })
}

fn period(text: &str) -> Result<Period, String> {
    Period::from_code(text).ok_or_else(|| "допустимы day, week, month и all".to_owned())
}

/// Runs `zayavka stats`.
pub fn run(args: StatsArgs, engine: &Engine) -> anyhow::Result<ExitCode> {
    let query = StatsQuery {
        since: args.since,
        until: args.until,
        profile: args.profile,
        period: args.period,
        today: None,
    };
    let stats = engine.stats(&query).map_err(|error| {
        anyhow::anyhow!(match error {
            StatsError::EmptyPeriod { since, until } => format!(
                "--since {since} позже --until {until}: укажите начало периода не позже конца"
            ),
            other => other.message_ru(),
        })
    })?;
    let mut stdout = std::io::stdout().lock();
    if args.json {
        serde_json::to_writer_pretty(&mut stdout, &stats)?;
        writeln!(stdout)?;
    } else {
        stdout.write_all(render(&stats).as_bytes())?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The whole text output.
fn render(stats: &Stats) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", heading(stats));
    out.push_str(
        "Посчитано по базе черновиков на этом компьютере, без сети; ничего никуда не \
         отправлено.\n\n",
    );
    if stats.total.drafts == 0 {
        let filtered = stats.since.is_some() || stats.until.is_some() || stats.profile.is_some();
        out.push_str(if filtered {
            "За выбранный период и профиль черновиков нет. Уберите или измените --since, \
             --until и --profile, чтобы посчитать другие черновики.\n"
        } else {
            "Черновиков пока нет. Составьте заявку — zayavka draft --description ТЕКСТ (или \
             zayavka draft --offline без модели), — и здесь появится статистика.\n"
        });
        return out;
    }
    summary(&mut out, &stats.total);
    for group in &stats.groups {
        for attention in &group.attention {
            let _ = writeln!(out, "Внимание: {}", attention_ru(group, *attention));
        }
    }
    out.push('\n');
    table(&mut out, stats);
    for group in &stats.groups {
        out.push('\n');
        details(&mut out, group);
    }
    cases(&mut out, stats);
    out
}

/// The filed requests (issue 30): in all, by period of filing, by addressee.
fn cases(out: &mut String, stats: &Stats) {
    let cases = &stats.cases;
    if cases.total.filed == 0 {
        return;
    }
    out.push_str("\nПоданные заявки (по дню подачи; профиль к ним не относится)\n");
    let _ = writeln!(
        out,
        "{:<24} {:>7} {:>12} {:>8} {:>10} {:>8} {:>7}",
        "", "подано", "ответ в срок", "позже", "без ответа", "ждём", "решено"
    );
    let row = |out: &mut String, label: &str, tally: &zayavka_engine::CaseTally| {
        let label: String = label.chars().take(24).collect();
        let _ = writeln!(
            out,
            "{label:<24} {:>7} {:>12} {:>8} {:>10} {:>8} {:>7}",
            tally.filed,
            tally.answered_on_time,
            tally.answered_late + tally.answered_no_deadline,
            tally.never_answered,
            tally.waiting,
            tally.solved
        );
    };
    row(out, "Всего", &cases.total);
    if stats.period != zayavka_engine::Period::All {
        for tally in &cases.by_period {
            if let Some(period) = &tally.period {
                row(out, &period.label, tally);
            }
        }
    }
    for tally in &cases.by_addressee {
        let addressee = tally.addressee.as_deref().unwrap_or_default();
        let label = if addressee.is_empty() {
            "адресат не указан".to_owned()
        } else {
            zayavka_engine::escape_invisible(addressee)
        };
        row(out, &label, tally);
    }
    if cases.total.answered_no_deadline > 0 {
        let _ = writeln!(
            out,
            "«Позже» включает ответы, для которых срок не рассчитан: {}.",
            cases.total.answered_no_deadline
        );
    }
}

fn heading(stats: &Stats) -> String {
    let mut text = "Статистика черновиков".to_owned();
    match (stats.since, stats.until) {
        (Some(since), Some(until)) => {
            let _ = write!(text, " с {since} по {until}");
        }
        (Some(since), None) => {
            let _ = write!(text, " с {since}");
        }
        (None, Some(until)) => {
            let _ = write!(text, " по {until}");
        }
        (None, None) => text.push_str(" за всё время"),
    }
    if let Some(profile) = &stats.profile {
        let _ = write!(text, ", профиль «{profile}»");
    }
    text.push_str(match stats.period {
        Period::Day => ", по дням.",
        Period::Week => ", по неделям.",
        Period::Month => ", по месяцам.",
        Period::All => ".",
    });
    text
}

fn percent(share: Option<f64>) -> String {
    share.map_or_else(String::new, |share| format!(" ({:.0} %)", share * 100.0))
}

fn summary(out: &mut String, total: &GroupStats) {
    let _ = writeln!(
        out,
        "Всего черновиков: {}; отправлено модели: {}, из них ответ не принят: {}{}, \
         технический сбой: {}{}.",
        group_digits(total.drafts),
        group_digits(total.sent_to_model),
        group_digits(total.outcomes.rejected),
        percent(total.rejected_share),
        group_digits(total.outcomes.failed),
        percent(total.failed_share),
    );
}

fn group_name(group: &GroupStats) -> String {
    let profile = match &group.profile {
        Some(profile) => format!("профиль «{profile}»"),
        None => "без обращения к модели".to_owned(),
    };
    match &group.period {
        Some(bucket) => format!("{profile}, {}", bucket.label),
        None => profile,
    }
}

fn attention_ru(group: &GroupStats, attention: Attention) -> String {
    match attention {
        Attention::ManyRejected => format!(
            "{}: ответ модели не принят — {} из {} черновиков, отправленных модели{}. \
             Посмотрите причины ниже и отклонённые черновики: zayavka drafts list --outcome \
             rejected.",
            group_name(group),
            group.outcomes.rejected,
            group.sent_to_model,
            percent(group.rejected_share),
        ),
        Attention::ManyFailed => format!(
            "{}: технический сбой — {} из {} черновиков, отправленных модели{}. Проверьте \
             подключение: zayavka doctor.",
            group_name(group),
            group.outcomes.failed,
            group.sent_to_model,
            percent(group.failed_share),
        ),
    }
}

fn table(out: &mut String, stats: &Stats) {
    let headers = [
        "Период",
        "Профиль",
        "Всего",
        "Готово",
        "без модели",
        "Уточнить",
        "Не принято",
        "Сбой",
        "Ошибка в полях",
        "Не завершено",
    ];
    let mut rows: Vec<Vec<String>> = vec![headers.iter().map(|h| (*h).to_owned()).collect()];
    for group in &stats.groups {
        let outcomes = &group.outcomes;
        rows.push(vec![
            group
                .period
                .as_ref()
                .map_or_else(|| "весь период".to_owned(), |b| b.label.clone()),
            group.profile.clone().unwrap_or_else(|| "—".to_owned()),
            group_digits(group.drafts),
            group_digits(outcomes.ready),
            group_digits(group.ready_without_model),
            group_digits(outcomes.needs_user),
            format!(
                "{}{}",
                group_digits(outcomes.rejected),
                percent(group.rejected_share)
            ),
            format!(
                "{}{}",
                group_digits(outcomes.failed),
                percent(group.failed_share)
            ),
            group_digits(outcomes.invalid_input),
            group_digits(outcomes.pending),
        ]);
    }
    let widths: Vec<usize> = (0..headers.len())
        .map(|column| {
            rows.iter()
                .map(|row| row[column].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for row in &rows {
        let mut line = String::new();
        for (column, cell) in row.iter().enumerate() {
            let pad = widths[column] - cell.chars().count();
            if column < 2 {
                let _ = write!(line, "{cell}{}  ", " ".repeat(pad));
            } else {
                let _ = write!(line, "{}{cell}  ", " ".repeat(pad));
            }
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out.push_str(
        "«Не принято» и «Сбой» — доля от черновиков, отправленных модели. Черновики без \
         профиля составлены без модели или не дошли до неё.\n",
    );
}

fn codes(counts: &Counts) -> String {
    counts
        .iter()
        .map(|(code, count)| format!("{code} {count}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn seconds(ms: u64) -> String {
    format!("{:.1} с", ms as f64 / 1000.0).replace('.', ",")
}

fn details(out: &mut String, group: &GroupStats) {
    let _ = writeln!(out, "{}:", capitalised(&group_name(group)));
    let mut line = |label: &str, value: String| {
        if !value.is_empty() {
            let _ = writeln!(out, "  {label}: {value}");
        }
    };
    line("Ответ модели не принят", codes(&group.reasons.rejected));
    line("Нужно уточнить описание", codes(&group.reasons.needs_user));
    line("Технические сбои", codes(&group.reasons.failed));
    line("Правовой абзац не добавлен", codes(&group.legal_omissions));
    if group.reasks.total > 0 {
        line(
            "Модель переспрошена после негодного ответа",
            format!(
                "всего {}, черновиков с переспросом: {}",
                group.reasks.total, group.reasks.drafts
            ),
        );
    }
    let attempts = &group.attempts;
    if attempts.total > 0 {
        let mut text = format!("{}, повторных {}", attempts.total, attempts.retries);
        if !attempts.retry_causes.is_empty() {
            let _ = write!(text, " (причины: {})", codes(&attempts.retry_causes));
        }
        if !attempts.errors.is_empty() {
            let _ = write!(text, "; ошибки: {}", codes(&attempts.errors));
        }
        line("HTTP-попытки", text);
    }
    let faithfulness = &group.faithfulness;
    if faithfulness.found + faithfulness.unsure > 0 {
        let kinds: Vec<String> = faithfulness
            .by_kind
            .iter()
            .map(|(kind, count)| {
                if count.unsure > 0 {
                    format!("{kind} {} (+{} под вопросом)", count.found, count.unsure)
                } else {
                    format!("{kind} {}", count.found)
                }
            })
            .collect();
        line(
            "Предупреждения о точности пересказа",
            format!(
                "черновиков со словами, которых нет в тексте жителя: {}; находок {}, под \
                 вопросом {} ({})",
                faithfulness.drafts_with_found,
                faithfulness.found,
                faithfulness.unsure,
                kinds.join(", ")
            ),
        );
    }
    if let Some(latency) = &group.latency {
        line(
            "Ожидание ответа",
            format!(
                "медиана {}, у 90 % — не дольше {}, самое долгое {} (черновиков с попытками: \
                 {}; от начала первой попытки до конца последней, с паузами между повторами)",
                seconds(latency.median_ms),
                seconds(latency.p90_ms),
                seconds(latency.max_ms),
                latency.drafts
            ),
        );
    }
    if group.tokens.total > 0 {
        line(
            "Токены",
            format!(
                "{} (ввод {}, вывод {})",
                zayavka_engine::group_digits(group.tokens.total),
                zayavka_engine::group_digits(group.tokens.prompt),
                zayavka_engine::group_digits(group.tokens.completion)
            ),
        );
    }
    let cost: Vec<String> = group
        .cost
        .iter()
        .map(|money| money_text(money.amount, money.currency.as_deref(), 2))
        .collect();
    line("Стоимость по ценам профиля", cost.join(" и "));
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}
