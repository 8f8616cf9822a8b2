//! Every exit code of `zayavka`, in one place. A draft's outcome maps onto 0 and 2–5
//! ([`outcome`]), and a ready draft that could not be stored onto 6; the other commands reuse
//! the same numbers for the same kind of result, so a script reads any command's status the
//! same way.

use zayavka_engine::Outcome;

/// Done: the request is ready, every check held, every row of a batch is finished.
pub const SUCCESS: u8 = 0;

/// The command ran, and what it checked is not in order: `doctor` or `config init` found a
/// problem, `key status` found no key where one is needed, an evaluation's hard check failed,
/// `drafts recover` could read nothing.
pub const PROBLEM: u8 = 1;

/// The command could not be used as given: invalid input, a usage error, an unreadable file,
/// a batch or an evaluation not confirmed.
pub const USAGE: u8 = 2;

/// The resident is asked to change the text.
pub const NEEDS_USER: u8 = 3;

/// The model's output was rejected.
pub const REJECTED: u8 = 4;

/// A technical failure, or work left to do: a batch's rows failed or are unfinished, an
/// evaluation stopped before every answer arrived. Running the same command again resumes.
pub const FAILED: u8 = 5;

/// The request was made and printed, but the draft could not be stored in the drafts
/// database (a full or read-only disk, a database held by another program, a damaged file):
/// the output is all there is of it. Only a draft that would otherwise have ended with
/// [`SUCCESS`] gets it; `--json` says `"stored": false` with the store's error code either way.
pub const NOT_STORED: u8 = 6;

/// Whoever read the output went away before it was all written (`zayavka drafts list |
/// head -1`): 141, which is what a shell reports for a program that SIGPIPE ended (128 + 13),
/// on every system (ADR 19).
pub const CLOSED_PIPE: u8 = 141;

/// The exit code for a draft's outcome.
pub fn outcome(outcome: &Outcome) -> u8 {
    match outcome {
        Outcome::Ready(_) => SUCCESS,
        Outcome::InvalidInput(_) => USAGE,
        Outcome::NeedsUser { .. } => NEEDS_USER,
        Outcome::Rejected(_) => REJECTED,
        Outcome::Failed(_) => FAILED,
    }
}
