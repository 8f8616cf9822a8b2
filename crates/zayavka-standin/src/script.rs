//! The ordered list of replies a stand-in serves.

use std::collections::VecDeque;

use crate::reply::Reply;

/// A queue of replies served one per request, in order.
///
/// When the queue runs out, the last reply is served again if [`Script::repeat_last`] was
/// called; otherwise the stand-in answers `500` with a body that says the script is
/// exhausted, so that a client making more requests than the test expected fails loudly.
#[derive(Debug, Clone, Default)]
pub struct Script {
    replies: VecDeque<Reply>,
    repeat_last: bool,
}

impl Script {
    /// An empty script; add replies with [`Script::then`].
    pub fn new() -> Script {
        Script::default()
    }

    /// A script that serves `reply` to every request.
    pub fn always(reply: Reply) -> Script {
        Script::new().then(reply).repeat_last()
    }

    /// Appends `reply` to the queue.
    pub fn then(mut self, reply: Reply) -> Script {
        self.replies.push_back(reply);
        self
    }

    /// Makes the last reply repeat forever once the queue is down to it.
    pub fn repeat_last(mut self) -> Script {
        self.repeat_last = true;
        self
    }

    /// The next reply, or `None` once the queue is empty (the last reply repeating if
    /// [`Script::repeat_last`] was called).
    pub(crate) fn take_next(&mut self) -> Option<Reply> {
        if self.repeat_last && self.replies.len() == 1 {
            return Some(self.replies[0].clone());
        }
        self.replies.pop_front()
    }

    /// The reply for the next request.
    pub(crate) fn next_reply(&mut self) -> Reply {
        if self.repeat_last && self.replies.len() == 1 {
            return self.replies[0].clone();
        }
        self.replies.pop_front().unwrap_or_else(|| {
            Reply::json(
                500,
                serde_json::json!({
                    "error": {
                        "message": "zayavka-standin: the script has no reply left for this request",
                        "type": "standin_script_exhausted",
                    }
                }),
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_are_served_in_order_and_the_last_repeats() {
        let mut script = Script::new()
            .then(Reply::status(503, "busy"))
            .then(Reply::completion("ok"))
            .repeat_last();
        assert_eq!(script.next_reply(), Reply::status(503, "busy"));
        assert_eq!(script.next_reply(), Reply::completion("ok"));
        assert_eq!(script.next_reply(), Reply::completion("ok"));
    }

    #[test]
    fn take_next_runs_out_unless_the_last_repeats() {
        let mut once = Script::new().then(Reply::status(503, "busy"));
        assert_eq!(once.take_next(), Some(Reply::status(503, "busy")));
        assert_eq!(once.take_next(), None);
        let mut always = Script::always(Reply::status(500, "down"));
        assert_eq!(always.take_next(), Some(Reply::status(500, "down")));
        assert_eq!(always.take_next(), Some(Reply::status(500, "down")));
    }

    #[test]
    fn an_exhausted_script_answers_500() {
        let mut script = Script::new().then(Reply::completion("ok"));
        script.next_reply();
        let Reply::Http { status, .. } = script.next_reply() else {
            panic!("an exhausted script answers with an Http reply");
        };
        assert_eq!(status, 500);
    }
}
