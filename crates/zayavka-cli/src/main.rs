//! The `zayavka` command-line tool.

fn main() {}
