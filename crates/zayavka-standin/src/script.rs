//! The ordered list of replies a stand-in serves.

use std::collections::{BTreeMap, VecDeque};

use crate::reply::Reply;
use crate::request::RecordedRequest;

/// A queue of replies served one per request, in order.
///
/// When the queue runs out, the last reply is served again if [`Script::repeat_last`] was
/// called; otherwise the stand-in answers `500` with a body that says the script is
/// exhausted, so that a client making more requests than the test expected fails loudly.
///
/// A script can also hold an *answer book* ([`Script::answer`]): replies filed under the text of
/// a request's first user message, served in order to the requests that carry that message,
/// whatever order they arrive in. A chat request whose first user message has no reply left in
/// the book is answered from the queue as usual. The evaluation corpus of recorded answers is
/// served this way (issue 36): each case's message gets its own answers, one per repeat.
#[derive(Debug, Clone, Default)]
pub struct Script {
    replies: VecDeque<Reply>,
    repeat_last: bool,
    book: BTreeMap<String, VecDeque<Reply>>,
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

    /// Files `reply` in the answer book under `user_message`, after the replies already filed
    /// there: the n-th request whose first user message is exactly that text gets the n-th.
    pub fn answer(mut self, user_message: &str, reply: Reply) -> Script {
        self.book
            .entry(user_message.to_owned())
            .or_default()
            .push_back(reply);
        self
    }

    /// The reply for `request`: from the answer book when it holds one for the request's first
    /// user message, otherwise the queue's next.
    pub(crate) fn reply_for(&mut self, request: &RecordedRequest) -> Reply {
        if !self.book.is_empty()
            && let Some(message) = first_user_message(request)
            && let Some(reply) = self.book.get_mut(&message).and_then(VecDeque::pop_front)
        {
            return reply;
        }
        self.next_reply()
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

/// The text of the first `user` message of a chat-completions request body, if any.
fn first_user_message(request: &RecordedRequest) -> Option<String> {
    let body = request.json();
    body.get("messages")?
        .as_array()?
        .iter()
        .find(|message| message.get("role").and_then(|role| role.as_str()) == Some("user"))?
        .get("content")?
        .as_str()
        .map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chat(user: &str) -> RecordedRequest {
        RecordedRequest {
            method: "POST".to_owned(),
            path: "/v1/chat/completions".to_owned(),
            headers: Vec::new(),
            body: serde_json::json!({"messages": [
                {"role": "system", "content": "instructions"},
                {"role": "user", "content": user},
            ]})
            .to_string(),
        }
    }

    #[test]
    fn the_answer_book_serves_each_message_its_own_replies_in_order() {
        let mut script = Script::new()
            .answer("first", Reply::completion("first, 1"))
            .answer("second", Reply::completion("second, 1"))
            .answer("first", Reply::completion("first, 2"))
            .then(Reply::status(500, "no recorded answer"));
        assert_eq!(
            script.reply_for(&chat("second")),
            Reply::completion("second, 1")
        );
        assert_eq!(
            script.reply_for(&chat("first")),
            Reply::completion("first, 1")
        );
        assert_eq!(
            script.reply_for(&chat("first")),
            Reply::completion("first, 2")
        );
        // The book has nothing left for «first»: the queue answers.
        assert_eq!(
            script.reply_for(&chat("first")),
            Reply::status(500, "no recorded answer")
        );
    }

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
