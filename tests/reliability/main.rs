//! The reliability suite (issue 19): real faults of the computer and of the network, each made
//! for real — a size-limited filesystem, a folder made read-only, a database another process
//! holds, a damaged database file, `kill -9` at the write points, a TCP proxy on loopback that
//! delays, resets and trickles — and the files a resident can hand in that are built to hurt.
//!
//! - `disk`: the data folder on a full filesystem, made read-only mid-session, and an
//!   unwritable configuration folder.
//! - `database`: the database locked by another process, and damaged database files.
//! - `kill`: `kill -9` at every write point of a draft, an edit, an attachment and a batch.
//! - `network`: network faults from a real TCP proxy between the client and the stand-in.
//! - `bad_files`: oversized, bomb and unreachable files everywhere a resident hands one in.
//! - `canary`: a canary key and access token looked for in every file the suite leaves.
//!
//! Every case runs in CI, none is left out, in about 40 s on two cores
//! (docs/testing.md, «Reliability»).

#[allow(dead_code)]
#[path = "../integration/support.rs"]
mod support;

#[path = "../shared/damage.rs"]
mod damage;

mod bad_files;
mod canary;
mod database;
mod disk;
mod kill;
mod network;
