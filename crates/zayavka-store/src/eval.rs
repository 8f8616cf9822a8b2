//! Evaluation runs and their cassettes (issue 17, ADR 28): every answer `zayavka eval --run`
//! received, stored as it arrives, so that `zayavka eval --replay RUN` checks the run again with
//! no network.
//!
//! A cassette keeps what the checks need and nothing they compute: the input as sent, the
//! model's replies as the adapter read them, and the outcome, usage, latency and cost of the
//! call. Verdicts are never stored; a replay computes them again from the cassettes and the
//! case files of the day.

use jiff::Timestamp;
use rusqlite::{OptionalExtension, Row, params};

use crate::columns::{now_text, parse_timestamp};
use crate::drafts::{check_code, check_json};
use crate::error::StoreError;
use crate::store::Store;

/// A new evaluation run, before its first cassette.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewEvalRun {
    /// The run's id: lower-case ASCII letters, digits and hyphens, at most 64.
    pub id: String,
    /// The system prompt's version (`system/v1`).
    pub prompt_version: String,
    /// The system prompt's SHA-256, lower-case hex.
    pub prompt_sha256: String,
    /// The response schema's id.
    pub schema_id: String,
    /// The response schema's version.
    pub schema_version: u32,
    /// The profiles' names, as a JSON array of strings.
    pub profiles_json: String,
    /// The plan as printed, a JSON object.
    pub plan_json: String,
}

/// A stored evaluation run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EvalRun {
    /// The run's id.
    pub id: String,
    /// When it was created.
    pub created_at: Timestamp,
    /// The system prompt's version.
    pub prompt_version: String,
    /// The system prompt's SHA-256.
    pub prompt_sha256: String,
    /// The response schema's id.
    pub schema_id: String,
    /// The response schema's version.
    pub schema_version: u32,
    /// The profiles' names, a JSON array of strings.
    pub profiles_json: String,
    /// The plan, a JSON object.
    pub plan_json: String,
    /// How many cassettes it holds.
    pub cassettes: u32,
}

/// One answer for one case, profile and repeat.
#[derive(Debug, Clone, PartialEq)]
pub struct EvalCassette {
    /// The case's id.
    pub case_id: String,
    /// The profile's name.
    pub profile: String,
    /// The repeat, from 1.
    pub repeat: u32,
    /// The input as sent, a JSON object.
    pub input_json: String,
    /// The model's replies in order, a JSON array; `None` when no answer came.
    pub replies_json: Option<String>,
    /// The outcome's kind (`ready`, `needs_user`, `rejected`, `failed`, `invalid_input`).
    pub outcome: String,
    /// The outcome's reason code, when it has one.
    pub reason: Option<String>,
    /// A technical failure's detail in Russian, as the run reported it.
    pub failure_detail: Option<String>,
    /// The model.
    pub model: Option<String>,
    /// The server's host.
    pub provider_host: Option<String>,
    /// Prompt tokens over every attempt.
    pub prompt_tokens: Option<u64>,
    /// Completion tokens over every attempt.
    pub completion_tokens: Option<u64>,
    /// From the first request to the last answer, in milliseconds.
    pub latency_ms: u64,
    /// The priced cost, when the profile has prices.
    pub cost: Option<f64>,
    /// The currency of `cost`.
    pub currency: Option<String>,
}

fn to_i64(field: &'static str, value: u64) -> Result<i64, StoreError> {
    i64::try_from(value).map_err(|_| StoreError::ValueTooLarge { field })
}

fn to_u64(value: Option<i64>) -> Option<u64> {
    value.and_then(|v| u64::try_from(v).ok())
}

const RUN_COLUMNS: &str = "r.id, r.created_at, r.prompt_version, r.prompt_sha256, r.schema_id, \
     r.schema_version, r.profiles_json, r.plan_json, \
     (SELECT count(*) FROM eval_cassettes AS c WHERE c.run_id = r.id)";

fn run_from_row(row: &Row<'_>) -> rusqlite::Result<EvalRun> {
    Ok(EvalRun {
        id: row.get(0)?,
        created_at: parse_timestamp(&row.get::<_, String>(1)?)?,
        prompt_version: row.get(2)?,
        prompt_sha256: row.get(3)?,
        schema_id: row.get(4)?,
        schema_version: row.get(5)?,
        profiles_json: row.get(6)?,
        plan_json: row.get(7)?,
        cassettes: row.get(8)?,
    })
}

fn cassette_from_row(row: &Row<'_>) -> rusqlite::Result<EvalCassette> {
    Ok(EvalCassette {
        case_id: row.get(0)?,
        profile: row.get(1)?,
        repeat: row.get(2)?,
        input_json: row.get(3)?,
        replies_json: row.get(4)?,
        outcome: row.get(5)?,
        reason: row.get(6)?,
        failure_detail: row.get(7)?,
        model: row.get(8)?,
        provider_host: row.get(9)?,
        prompt_tokens: to_u64(row.get(10)?),
        completion_tokens: to_u64(row.get(11)?),
        latency_ms: to_u64(row.get(12)?).unwrap_or(0),
        cost: row.get(13)?,
        currency: row.get(14)?,
    })
}

impl Store {
    /// Stores a new evaluation run with no cassette yet.
    pub fn create_eval_run(&self, run: &NewEvalRun) -> Result<(), StoreError> {
        check_json("profiles_json", &run.profiles_json)?;
        check_json("plan_json", &run.plan_json)?;
        let tx = self.write()?;
        tx.execute(
            "INSERT INTO eval_runs (id, created_at, prompt_version, prompt_sha256, schema_id,
                 schema_version, profiles_json, plan_json)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            params![
                run.id,
                now_text(),
                run.prompt_version,
                run.prompt_sha256,
                run.schema_id,
                run.schema_version,
                run.profiles_json,
                run.plan_json
            ],
        )?;
        tx.commit()?;
        Ok(())
    }

    /// Stores one cassette of a run, in a transaction of its own, so that a run stopped at any
    /// moment keeps every answer that arrived before. A cassette for the same case, profile
    /// and repeat replaces the earlier one.
    pub fn add_eval_cassette(
        &self,
        run_id: &str,
        cassette: &EvalCassette,
    ) -> Result<(), StoreError> {
        check_json("input_json", &cassette.input_json)?;
        if let Some(replies) = &cassette.replies_json {
            check_json("replies_json", replies)?;
        }
        check_code("outcome", &cassette.outcome)?;
        if let Some(reason) = &cassette.reason {
            check_code("reason", reason)?;
        }
        let prompt_tokens = cassette
            .prompt_tokens
            .map(|t| to_i64("prompt_tokens", t))
            .transpose()?;
        let completion_tokens = cassette
            .completion_tokens
            .map(|t| to_i64("completion_tokens", t))
            .transpose()?;
        let latency = to_i64("latency_ms", cassette.latency_ms)?;
        let tx = self.write()?;
        tx.execute(
            "INSERT OR REPLACE INTO eval_cassettes (run_id, case_id, profile, repeat, created_at,
                 input_json, replies_json, outcome, reason, failure_detail, model, provider_host,
                 prompt_tokens, completion_tokens, latency_ms, cost, currency)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)",
            params![
                run_id,
                cassette.case_id,
                cassette.profile,
                cassette.repeat,
                now_text(),
                cassette.input_json,
                cassette.replies_json,
                cassette.outcome,
                cassette.reason,
                cassette.failure_detail,
                cassette.model,
                cassette.provider_host,
                prompt_tokens,
                completion_tokens,
                latency,
                cassette.cost,
                cassette.currency
            ],
        )?;
        tx.commit()?;
        Ok(())
    }

    /// The evaluation run with this id, if there is one.
    pub fn eval_run(&self, id: &str) -> Result<Option<EvalRun>, StoreError> {
        let tx = self.read()?;
        let run = tx
            .query_row(
                &format!("SELECT {RUN_COLUMNS} FROM eval_runs AS r WHERE r.id = ?1"),
                [id],
                run_from_row,
            )
            .optional()?;
        tx.commit()?;
        Ok(run)
    }

    /// The latest evaluation runs, newest first.
    pub fn eval_runs(&self, limit: u32) -> Result<Vec<EvalRun>, StoreError> {
        let tx = self.read()?;
        let runs = {
            let mut statement = tx.prepare(&format!(
                "SELECT {RUN_COLUMNS} FROM eval_runs AS r
                 ORDER BY r.created_at DESC, r.id DESC LIMIT ?1"
            ))?;
            statement
                .query_map([limit], run_from_row)?
                .collect::<rusqlite::Result<Vec<_>>>()?
        };
        tx.commit()?;
        Ok(runs)
    }

    /// Every cassette of a run, by case, profile and repeat.
    pub fn eval_cassettes(&self, run_id: &str) -> Result<Vec<EvalCassette>, StoreError> {
        let tx = self.read()?;
        let cassettes = {
            let mut statement = tx.prepare(
                "SELECT case_id, profile, repeat, input_json, replies_json, outcome, reason,
                     failure_detail, model, provider_host, prompt_tokens, completion_tokens,
                     latency_ms, cost, currency
                 FROM eval_cassettes WHERE run_id = ?1
                 ORDER BY case_id, profile, repeat",
            )?;
            statement
                .query_map([run_id], cassette_from_row)?
                .collect::<rusqlite::Result<Vec<_>>>()?
        };
        tx.commit()?;
        Ok(cassettes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store() -> (tempfile::TempDir, Store) {
        let folder = tempfile::tempdir().unwrap();
        let store = Store::open(&folder.path().join("z.sqlite3")).unwrap();
        (folder, store)
    }

    fn run(id: &str) -> NewEvalRun {
        NewEvalRun {
            id: id.to_owned(),
            prompt_version: "system/v1".to_owned(),
            prompt_sha256: "a".repeat(64),
            schema_id: "request_draft".to_owned(),
            schema_version: 1,
            profiles_json: r#"["local"]"#.to_owned(),
            plan_json: r#"{"cases":2}"#.to_owned(),
        }
    }

    fn cassette(case_id: &str, repeat: u32) -> EvalCassette {
        EvalCassette {
            case_id: case_id.to_owned(),
            profile: "local".to_owned(),
            repeat,
            input_json: r#"{"description":"В подъезде не горит свет"}"#.to_owned(),
            replies_json: Some(
                r#"[{"content":"{}","refusal":null,"finish_reason":"stop"}]"#.to_owned(),
            ),
            outcome: "rejected".to_owned(),
            reason: Some("schema_violation".to_owned()),
            failure_detail: None,
            model: Some("m".to_owned()),
            provider_host: Some("127.0.0.1".to_owned()),
            prompt_tokens: Some(100),
            completion_tokens: Some(50),
            latency_ms: 12,
            cost: Some(0.25),
            currency: Some("RUB".to_owned()),
        }
    }

    #[test]
    fn a_run_keeps_its_cassettes_byte_for_byte_in_case_order() {
        let (_folder, store) = store();
        store.create_eval_run(&run("20261202-071500-001")).unwrap();
        let second = cassette("b-case", 1);
        let first = cassette("a-case", 2);
        store
            .add_eval_cassette("20261202-071500-001", &second)
            .unwrap();
        store
            .add_eval_cassette("20261202-071500-001", &first)
            .unwrap();
        let stored = store.eval_cassettes("20261202-071500-001").unwrap();
        assert_eq!(stored, [first, second]);
        let found = store.eval_run("20261202-071500-001").unwrap().unwrap();
        assert_eq!(found.cassettes, 2);
        assert_eq!(found.prompt_version, "system/v1");
        assert_eq!(found.plan_json, r#"{"cases":2}"#);
        assert!(store.eval_run("nothing").unwrap().is_none());
        assert_eq!(store.eval_runs(10).unwrap().len(), 1);
    }

    #[test]
    fn a_failed_answer_has_no_reply_and_a_second_store_replaces_the_first() {
        let (_folder, store) = store();
        store.create_eval_run(&run("r1")).unwrap();
        let mut failed = cassette("a-case", 1);
        failed.replies_json = None;
        failed.outcome = "failed".to_owned();
        failed.reason = Some("timeout".to_owned());
        failed.failure_detail = Some("сервер модели не ответил".to_owned());
        store.add_eval_cassette("r1", &failed).unwrap();
        let again = cassette("a-case", 1);
        store.add_eval_cassette("r1", &again).unwrap();
        assert_eq!(store.eval_cassettes("r1").unwrap(), [again]);
    }

    #[test]
    fn bad_documents_ids_and_codes_are_refused() {
        let (_folder, store) = store();
        let mut bad = run("Run 1");
        assert!(store.create_eval_run(&bad).is_err(), "an id with capitals");
        bad = run("r2");
        bad.plan_json = "{".to_owned();
        assert!(matches!(
            store.create_eval_run(&bad),
            Err(StoreError::InvalidJson { field: "plan_json" })
        ));
        store.create_eval_run(&run("r3")).unwrap();
        let mut wrong = cassette("a", 1);
        wrong.outcome = "Ready!".to_owned();
        assert!(store.add_eval_cassette("r3", &wrong).is_err());
        assert!(
            store
                .add_eval_cassette("no-run", &cassette("a", 1))
                .is_err(),
            "a cassette belongs to a stored run"
        );
    }
}
