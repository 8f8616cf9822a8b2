//! Named write points where the reliability suite (issue 19) stops the process for real.
//!
//! Every write transaction of the store passes named points: inside the transaction after each
//! statement that changes something, just before its commit (`<operation>.commit`) and just
//! after it (`<operation>.committed`). In a debug build two environment variables act on them:
//!
//! - `ZAYAVKA_CRASH_AT=<point>` (or `<point>#<n>` for the n-th time the point is reached) kills
//!   the process with a real `SIGKILL`, sent by `kill -9` from outside (on Windows with
//!   `__fastfail`, through `std::process::abort`), so that nothing — no destructor, no
//!   rollback, no flush — runs after it, exactly as when the power goes;
//! - `ZAYAVKA_PAUSE_AT=<point>@<milliseconds>` (or `<point>#<n>@<milliseconds>`) writes
//!   `zayavka: paused at <point>` to standard error and sleeps there, holding whatever the
//!   transaction holds, so that a test can meet a second program holding the write lock.
//!
//! A release build compiles none of this: [`point`] is an empty function there, and neither
//! variable is read.

/// The names of every write point, for the tests and the documentation to enumerate.
pub const WRITE_POINTS: &[&str] = &[
    "draft_insert.row",
    "draft_insert.index",
    "draft_create.commit",
    "draft_create.committed",
    "draft_finish.result",
    "draft_finish.record",
    "draft_finish.attempts",
    "draft_finish.indexed",
    "draft_finish.commit",
    "draft_finish.committed",
    "draft_edit.version",
    "draft_edit.index",
    "draft_edit.commit",
    "draft_edit.committed",
    "draft_retry.commit",
    "draft_retry.committed",
    "draft_delete.commit",
    "draft_delete.committed",
    "draft_attach.photo",
    "draft_attach.audit",
    "draft_attach.commit",
    "draft_attach.committed",
    "attachment_remove.commit",
    "attachment_remove.committed",
    "batch_create.rows",
    "batch_create.commit",
    "batch_create.committed",
    "batch_sync.commit",
    "batch_sync.committed",
    "batch_claim.commit",
    "batch_claim.committed",
    "batch_finish.commit",
    "batch_finish.committed",
    "batch_row.commit",
    "batch_row.committed",
    "case_file.row",
    "case_file.commit",
    "case_file.committed",
    "draft_bring_in.version",
    "draft_bring_in.index",
    "draft_bring_in.filed",
    "draft_bring_in.commit",
    "draft_bring_in.committed",
    "case_withdraw.row",
    "case_withdraw.commit",
    "case_withdraw.committed",
    "case_answer.row",
    "case_answer.commit",
    "case_answer.committed",
    "case_close.row",
    "case_close.commit",
    "case_close.committed",
    "follow_up_link.row",
    "follow_up_link.commit",
    "follow_up_link.committed",
    "draft_correct.row",
    "draft_correct.copy",
    "draft_correct.commit",
    "draft_correct.committed",
    "follow_up_create.row",
    "follow_up_create.commit",
    "follow_up_create.committed",
];

/// The variable that names the point where a debug build kills itself.
#[cfg(debug_assertions)]
const CRASH_VARIABLE: &str = "ZAYAVKA_CRASH_AT";

/// The variable that names the point where a debug build pauses, and for how long.
#[cfg(debug_assertions)]
const PAUSE_VARIABLE: &str = "ZAYAVKA_PAUSE_AT";

/// Marks the write point `operation.step`. Does nothing in a release build, or when no
/// variable names this point.
#[cfg(not(debug_assertions))]
#[inline(always)]
pub(crate) fn point(_operation: &str, _step: &str) {}

/// Marks the write point `operation.step`: kills or pauses the process when a variable names
/// it (see the module's documentation).
#[cfg(debug_assertions)]
pub(crate) fn point(operation: &str, step: &str) {
    debug_hooks::point(operation, step);
}

#[cfg(debug_assertions)]
mod debug_hooks {
    use std::sync::atomic::{AtomicU32, Ordering};
    use std::time::Duration;

    /// How many times the armed crash point and pause point were reached so far.
    static CRASH_HITS: AtomicU32 = AtomicU32::new(0);
    static PAUSE_HITS: AtomicU32 = AtomicU32::new(0);

    pub(super) fn point(operation: &str, step: &str) {
        if let Ok(armed) = std::env::var(super::CRASH_VARIABLE)
            && matches(&armed, operation, step, &CRASH_HITS)
        {
            crash();
        }
        if let Ok(armed) = std::env::var(super::PAUSE_VARIABLE)
            && let Some((armed, millis)) = armed.rsplit_once('@')
            && let Ok(millis) = millis.parse::<u64>()
            && matches(armed, operation, step, &PAUSE_HITS)
        {
            eprintln!("zayavka: paused at {operation}.{step}");
            std::thread::sleep(Duration::from_millis(millis));
        }
    }

    /// Whether `armed` (`name` or `name#n`) names this point, counting the hits so that `#n`
    /// fires on the n-th one only.
    pub(super) fn matches(armed: &str, operation: &str, step: &str, hits: &AtomicU32) -> bool {
        let (name, nth) = match armed.split_once('#') {
            Some((name, nth)) => (name, nth.parse::<u32>().unwrap_or(1)),
            None => (armed, 1),
        };
        let same = name.len() == operation.len() + 1 + step.len()
            && name.starts_with(operation)
            && name[operation.len()..].starts_with('.')
            && name.ends_with(step);
        same && hits.fetch_add(1, Ordering::SeqCst) + 1 == nth
    }

    /// Has the process killed by `kill -9` from outside and waits for it: unsafe code is
    /// forbidden in the workspace, and a signal from another process is what a real crash
    /// looks like from inside anyway.
    #[cfg(unix)]
    fn crash() -> ! {
        let pid = std::process::id().to_string();
        let killed = std::process::Command::new("kill")
            .args(["-9", &pid])
            .status()
            .is_ok_and(|status| status.success());
        if !killed {
            // No `kill` to run: still stop at once with no cleanup, and say why the signal
            // is not the expected one.
            eprintln!("zayavka: `kill -9` could not be run; aborting at the crash point instead");
            std::process::abort();
        }
        // `kill` returns once the signal is queued; it is delivered at once, but the process
        // must not go on writing even for a moment if it is not.
        loop {
            std::thread::sleep(Duration::from_secs(1));
        }
    }

    /// Ends the process at once. On Windows `abort` is `__fastfail`: the kernel ends the
    /// process without running an exception handler, a destructor or a flush, as a power cut
    /// or Task Manager's «Снять задачу» would, and its exit code is `STATUS_STACK_BUFFER_OVERRUN`
    /// (0xC0000409), which the tests recognise.
    #[cfg(not(unix))]
    fn crash() -> ! {
        std::process::abort();
    }
}

#[cfg(all(test, debug_assertions))]
mod tests {
    use std::sync::atomic::AtomicU32;

    use super::debug_hooks::matches;

    #[test]
    fn every_listed_point_has_an_operation_and_a_step() {
        for name in super::WRITE_POINTS {
            let (operation, step) = name.split_once('.').expect("operation.step");
            assert!(!operation.is_empty() && !step.is_empty(), "{name}");
        }
    }

    #[test]
    fn a_point_matches_by_its_whole_name_and_its_nth_hit() {
        let hits = AtomicU32::new(0);
        assert!(!matches(
            "draft_create.commit",
            "draft_create",
            "committed",
            &hits
        ));
        assert!(!matches(
            "draft_create.commit",
            "draft",
            "create.commit",
            &hits
        ));
        assert!(matches(
            "draft_create.commit",
            "draft_create",
            "commit",
            &hits
        ));
        let hits = AtomicU32::new(0);
        assert!(!matches(
            "draft_attach.photo#2",
            "draft_attach",
            "photo",
            &hits
        ));
        assert!(matches(
            "draft_attach.photo#2",
            "draft_attach",
            "photo",
            &hits
        ));
        assert!(!matches(
            "draft_attach.photo#2",
            "draft_attach",
            "photo",
            &hits
        ));
    }
}
