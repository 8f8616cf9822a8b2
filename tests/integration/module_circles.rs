//! No crate has an import circle between its modules (issue 18).
//!
//! A circle — `assemble` uses `policy`, which uses `reply`, which uses `input`, which uses
//! `assemble` — means none of those modules can be read, tested or moved alone. The check reads
//! every `.rs` file under each crate's `src/`, finds each path that names something of the same
//! crate (`crate::…`, `super::…`, `self::…`, and a `use` that starts with a child module), and
//! resolves it to the module that defines the thing, following `use` and `pub use` through the
//! modules in between, so that a re-export cannot hide a circle. A dependency between two
//! modules counts between their ancestors that are siblings: `config::set` using
//! `config::load::Thing` is `set → load` inside `config`; `document::pdf` using
//! `draft::Draft` is `document → draft` at the crate's root. A parent using its child, or a
//! child its parent, is the tree itself and not a circle.
//!
//! What it does not read: macros that build paths, and `#[path]` attributes (the workspace has
//! none). Comments, doc links, strings and character literals are blanked first.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::support::files_under;

/// A module's path from its crate's root: `[]` is the root, `["config", "load"]` is
/// `config::load`.
type ModulePath = Vec<String>;

/// One dependency between two sibling modules, with where it was read.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Edge {
    parent: ModulePath,
    from: String,
    to: String,
    /// `file:line` of the first path that makes this edge.
    at: String,
}

/// One source file as the checker sees it.
struct Source {
    module: ModulePath,
    /// Relative to the workspace root, for messages.
    name: String,
    text: String,
}

/// The text with comments, strings and character literals replaced by spaces, newlines kept,
/// so that offsets and line numbers still match the file.
fn blank_comments_and_literals(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let blank = |out: &mut String, c: char| out.push(if c == '\n' { '\n' } else { ' ' });
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    blank(&mut out, chars[i]);
                    i += 1;
                }
            }
        } else if c == 'r' && (next == Some('"') || next == Some('#')) && starts_literal(&chars, i)
        {
            // A raw string: r"…", r#"…"#, with as many hashes closing as opening.
            let mut j = i + 1;
            while chars.get(j) == Some(&'#') {
                j += 1;
            }
            if chars.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            let hashes = j - i - 1;
            let mut k = j + 1;
            while k < chars.len() {
                if chars[k] == '"' && (1..=hashes).all(|h| chars.get(k + h) == Some(&'#')) {
                    k += 1 + hashes;
                    break;
                }
                k += 1;
            }
            for &skipped in &chars[i..k.min(chars.len())] {
                blank(&mut out, skipped);
            }
            i = k;
        } else if c == '"' {
            i = blank_quoted(&chars, i, '"', &mut out);
        } else if c == '\'' && (next == Some('\\') || chars.get(i + 2) == Some(&'\'')) {
            // A character literal ('x', '\n', '\u{…}'); a lifetime ('a) has no closing quote.
            i = blank_quoted(&chars, i, '\'', &mut out);
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// Blanks a string or character literal that opens with `quote` at `start`, escapes included,
/// and gives the index after its closing quote.
fn blank_quoted(chars: &[char], start: usize, quote: char, out: &mut String) -> usize {
    out.push(' ');
    let mut i = start + 1;
    while i < chars.len() && chars[i] != quote {
        if chars[i] == '\\' {
            out.push(' ');
            i += 1;
        }
        if let Some(&skipped) = chars.get(i) {
            out.push(if skipped == '\n' { '\n' } else { ' ' });
        }
        i += 1;
    }
    out.push(' ');
    i + 1
}

/// Whether the `r` at `i` starts a raw string (`r"`, `br"`) rather than ending a word.
fn starts_literal(chars: &[char], i: usize) -> bool {
    let word_char = |c: &char| c.is_alphanumeric() || *c == '_';
    match i.checked_sub(1).map(|p| chars[p]) {
        None => true,
        Some('b') => i.checked_sub(2).is_none_or(|p| !word_char(&chars[p])),
        Some(previous) => !word_char(&previous),
    }
}

/// The blanked text with every `#[cfg(test)]` item blanked too — a test module may use any
/// sibling without making the product's modules depend on each other — and the names of the
/// file modules declared that way (`#[cfg(test)] mod tests;`), whose files are test code too.
fn without_test_items(blanked: &str) -> (String, Vec<String>) {
    const ATTRIBUTE: &str = "#[cfg(test)]";
    let mut text = blanked.to_owned();
    let mut test_modules = Vec::new();
    let mut from = 0;
    while let Some(found) = text[from..].find(ATTRIBUTE) {
        let start = from + found;
        let bytes = text.as_bytes();
        let mut at = start + ATTRIBUTE.len();
        let mut depth = 0usize;
        // The item ends at its first `;` outside brackets, or at the `}` closing its body.
        while at < bytes.len() {
            match bytes[at] {
                b'{' | b'(' | b'[' => depth += 1,
                b'}' | b')' | b']' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 && bytes[at] == b'}' {
                        at += 1;
                        break;
                    }
                }
                b';' if depth == 0 => {
                    at += 1;
                    break;
                }
                _ => {}
            }
            at += 1;
        }
        let item = &text[start..at];
        let words: Vec<&str> = item[ATTRIBUTE.len()..]
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .collect();
        if item.ends_with(';')
            && let Some(position) = words.iter().position(|w| *w == "mod")
            && let Some(name) = words.get(position + 1)
        {
            test_modules.push((*name).to_owned());
        }
        let blank: String = item
            .chars()
            .map(|c| if c == '\n' { '\n' } else { ' ' })
            .collect();
        text.replace_range(start..at, &blank);
        from = start + blank.len();
    }
    (text, test_modules)
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Ident(String),
    PathSep,
    Open,
    Close,
    Comma,
    Star,
    Other,
}

/// The tokens of blanked text, each with its line.
fn tokens(text: &str) -> Vec<(Token, usize)> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push((Token::Ident(chars[start..i].iter().collect()), line));
        } else if c == ':' && chars.get(i + 1) == Some(&':') {
            out.push((Token::PathSep, line));
            i += 2;
        } else {
            let token = match c {
                '{' => Token::Open,
                '}' => Token::Close,
                ',' => Token::Comma,
                '*' => Token::Star,
                _ => Token::Other,
            };
            out.push((token, line));
            i += 1;
        }
    }
    out
}

/// One path read from the source: its segments as written and the name it brings into scope
/// (for a `use`), with the line it starts on.
#[derive(Debug, Clone, PartialEq, Eq)]
struct WrittenPath {
    segments: Vec<String>,
    /// The name a `use` binds (`as` or the last segment); `None` for a glob and outside `use`.
    binds: Option<String>,
    line: usize,
}

/// Reads a path or a `use` tree starting at `tokens[at]`, after the `prefix` already read,
/// pushing each leaf onto `out`; returns the index after it.
fn read_tree(
    tokens: &[(Token, usize)],
    mut at: usize,
    prefix: &[String],
    in_use: bool,
    out: &mut Vec<WrittenPath>,
) -> usize {
    let line = tokens.get(at).map_or(0, |(_, line)| *line);
    let mut segments = prefix.to_vec();
    loop {
        match tokens.get(at) {
            Some((Token::Ident(word), _)) => {
                segments.push(word.clone());
                at += 1;
                if tokens.get(at).map(|(t, _)| t) == Some(&Token::PathSep) {
                    at += 1;
                    continue;
                }
                let mut binds = segments.last().cloned();
                if in_use
                    && let Some((Token::Ident(word), _)) = tokens.get(at)
                    && word == "as"
                {
                    binds = match tokens.get(at + 1) {
                        Some((Token::Ident(alias), _)) => Some(alias.clone()),
                        _ => None,
                    };
                    at += 2;
                }
                if segments.last().is_some_and(|s| s == "self") {
                    segments.pop();
                    if binds.as_deref() == Some("self") {
                        binds = segments.last().cloned();
                    }
                }
                out.push(WrittenPath {
                    segments,
                    binds: binds.filter(|_| in_use),
                    line,
                });
                return at;
            }
            Some((Token::Open, _)) => {
                at += 1;
                while let Some((token, _)) = tokens.get(at) {
                    match token {
                        Token::Close => return at + 1,
                        Token::Comma => at += 1,
                        _ => at = read_tree(tokens, at, &segments, in_use, out),
                    }
                }
                return at;
            }
            Some((Token::Star, _)) => {
                out.push(WrittenPath {
                    segments,
                    binds: None,
                    line,
                });
                return at + 1;
            }
            _ => {
                if !segments.is_empty() {
                    out.push(WrittenPath {
                        segments,
                        binds: None,
                        line,
                    });
                }
                return at;
            }
        }
    }
}

/// Every path in a file: each `use` tree's leaves, and each path elsewhere that starts with
/// `crate`, `super` or `self` followed by `::`.
fn written_paths(text: &str) -> Vec<WrittenPath> {
    let (product, _) = without_test_items(&blank_comments_and_literals(text));
    let tokens = tokens(&product);
    let mut out = Vec::new();
    let mut at = 0;
    while at < tokens.len() {
        let (token, _) = &tokens[at];
        let after_sep = at > 0 && tokens[at - 1].0 == Token::PathSep;
        match token {
            Token::Ident(word) if word == "use" && !after_sep => {
                at = read_tree(&tokens, at + 1, &[], true, &mut out);
            }
            Token::Ident(word)
                if matches!(word.as_str(), "crate" | "super" | "self")
                    && !after_sep
                    && tokens.get(at + 1).map(|(t, _)| t) == Some(&Token::PathSep) =>
            {
                at = read_tree(&tokens, at, &[], false, &mut out);
            }
            _ => at += 1,
        }
    }
    out
}

/// A crate's modules read from its files, and what each `use` binds.
struct Crate {
    name: String,
    modules: BTreeSet<ModulePath>,
    /// Per module, the names its `use` statements bind and the absolute paths they stand for.
    bindings: BTreeMap<ModulePath, BTreeMap<String, Vec<String>>>,
    /// Per module, every path it writes, made absolute, with its line.
    paths: BTreeMap<ModulePath, Vec<(Vec<String>, usize)>>,
    files: BTreeMap<ModulePath, String>,
}

/// The module a file under `src/` is: `lib.rs` → root, `a/mod.rs` and `a.rs` → `a`.
fn module_of(relative: &Path) -> ModulePath {
    let mut parts: Vec<String> = relative
        .iter()
        .map(|part| part.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap_or_default();
    let stem = last.trim_end_matches(".rs");
    if !matches!(stem, "mod" | "lib" | "main") {
        parts.push(stem.to_owned());
    }
    parts
}

/// Makes a written path absolute from `module`; `None` for a path into another crate.
fn absolute(
    module: &ModulePath,
    segments: &[String],
    modules: &BTreeSet<ModulePath>,
) -> Option<Vec<String>> {
    let first = segments.first()?;
    let mut base: Vec<String>;
    let mut rest = segments;
    match first.as_str() {
        "crate" => {
            base = Vec::new();
            rest = &segments[1..];
        }
        "self" => {
            base = module.clone();
            rest = &segments[1..];
        }
        "super" => {
            base = module.clone();
            while rest.first().is_some_and(|s| s == "super") {
                base.pop()?;
                rest = &rest[1..];
            }
        }
        _ => {
            // `use child::Item` names a child module of this one; anything else is another
            // crate or the standard library.
            let mut child = module.clone();
            child.push(first.clone());
            if !modules.contains(&child) {
                return None;
            }
            base = module.clone();
        }
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

impl Crate {
    fn read(name: &str, sources: &[Source]) -> Crate {
        let mut test_only: Vec<ModulePath> = Vec::new();
        for source in sources {
            let (_, names) = without_test_items(&blank_comments_and_literals(&source.text));
            for name in names {
                let mut child = source.module.clone();
                child.push(name);
                test_only.push(child);
            }
        }
        let sources: Vec<&Source> = sources
            .iter()
            .filter(|s| !test_only.iter().any(|t| s.module.starts_with(t)))
            .collect();
        let modules: BTreeSet<ModulePath> = sources.iter().map(|s| s.module.clone()).collect();
        let mut bindings: BTreeMap<ModulePath, BTreeMap<String, Vec<String>>> = BTreeMap::new();
        let mut paths: BTreeMap<ModulePath, Vec<(Vec<String>, usize)>> = BTreeMap::new();
        for source in &sources {
            for written in written_paths(&source.text) {
                let Some(path) = absolute(&source.module, &written.segments, &modules) else {
                    continue;
                };
                if let Some(name) = written.binds {
                    bindings
                        .entry(source.module.clone())
                        .or_default()
                        .insert(name, path.clone());
                }
                paths
                    .entry(source.module.clone())
                    .or_default()
                    .push((path, written.line));
            }
        }
        Crate {
            name: name.to_owned(),
            modules,
            bindings,
            paths,
            files: sources
                .iter()
                .map(|s| (s.module.clone(), s.name.clone()))
                .collect(),
        }
    }

    /// The module that defines what `path` names, through `use` bindings on the way.
    fn defining_module(&self, path: &[String]) -> ModulePath {
        let mut path = path.to_vec();
        for _ in 0..16 {
            let module_len = (0..=path.len())
                .rev()
                .find(|&n| self.modules.contains(&path[..n]))
                .unwrap_or(0);
            let module = path[..module_len].to_vec();
            let Some(name) = path.get(module_len) else {
                return module;
            };
            match self.bindings.get(&module).and_then(|b| b.get(name)) {
                Some(target) if target != &path[..=module_len] => {
                    let mut next = target.clone();
                    next.extend(path[module_len + 1..].iter().cloned());
                    path = next;
                }
                _ => return module,
            }
        }
        Vec::new()
    }

    /// Every dependency between sibling modules, the first place each is written.
    fn edges(&self) -> Vec<Edge> {
        let mut edges: BTreeMap<(ModulePath, String, String), String> = BTreeMap::new();
        for (module, paths) in &self.paths {
            for (path, line) in paths {
                let target = self.defining_module(path);
                let common = module
                    .iter()
                    .zip(&target)
                    .take_while(|(a, b)| a == b)
                    .count();
                // One is inside the other: the tree itself.
                if common == module.len() || common == target.len() {
                    continue;
                }
                let at = format!("{}:{line}", self.files[module]);
                edges
                    .entry((
                        module[..common].to_vec(),
                        module[common].clone(),
                        target[common].clone(),
                    ))
                    .or_insert(at);
            }
        }
        edges
            .into_iter()
            .map(|((parent, from, to), at)| Edge {
                parent,
                from,
                to,
                at,
            })
            .collect()
    }

    /// Each circle as one line: the crate, the modules in it, and each edge with where it is
    /// written.
    fn circles(&self) -> Vec<String> {
        let edges = self.edges();
        let mut parents: BTreeMap<&ModulePath, Vec<&Edge>> = BTreeMap::new();
        for edge in &edges {
            parents.entry(&edge.parent).or_default().push(edge);
        }
        let mut found = Vec::new();
        for (parent, edges) in parents {
            for component in strongly_connected(&edges) {
                let inside: Vec<String> = edges
                    .iter()
                    .filter(|e| component.contains(&e.from) && component.contains(&e.to))
                    .map(|e| format!("{} → {} ({})", e.from, e.to, e.at))
                    .collect();
                let prefix = if parent.is_empty() {
                    String::new()
                } else {
                    format!("{}::", parent.join("::"))
                };
                found.push(format!(
                    "{}: {prefix}{{{}}}: {}",
                    self.name,
                    component.iter().cloned().collect::<Vec<_>>().join(", "),
                    inside.join("; ")
                ));
            }
        }
        found
    }
}

/// The groups of two or more modules that reach each other (Tarjan's algorithm would do; with a
/// few dozen modules, reachability from each is plainer).
fn strongly_connected(edges: &[&Edge]) -> Vec<BTreeSet<String>> {
    let nodes: BTreeSet<&String> = edges.iter().flat_map(|e| [&e.from, &e.to]).collect();
    let reach = |start: &String| {
        let mut seen = BTreeSet::new();
        let mut stack = vec![start.clone()];
        while let Some(node) = stack.pop() {
            for edge in edges.iter().filter(|e| e.from == node) {
                if seen.insert(edge.to.clone()) {
                    stack.push(edge.to.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&String, BTreeSet<String>> =
        nodes.iter().map(|&node| (node, reach(node))).collect();
    let mut components: Vec<BTreeSet<String>> = Vec::new();
    for &node in &nodes {
        if components.iter().any(|c| c.contains(node)) || !reaches[node].contains(node) {
            continue;
        }
        let component: BTreeSet<String> = nodes
            .iter()
            .filter(|&&other| reaches[node].contains(other) && reaches[other].contains(node))
            .map(|&other| other.clone())
            .collect();
        components.push(component);
    }
    components
}

/// Each crate of the workspace with its source files; a `main.rs` beside a `lib.rs` is a crate
/// of its own that uses the library, and is read as one.
fn workspace_crates() -> Vec<Crate> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the workspace root exists");
    let mut crate_dirs: Vec<PathBuf> = std::fs::read_dir(root.join("crates"))
        .expect("crates/ is readable")
        .map(|entry| entry.expect("an entry").path())
        .collect();
    crate_dirs.push(root.join("src-tauri"));
    crate_dirs.sort();
    let mut crates = Vec::new();
    for dir in crate_dirs {
        let src = dir.join("src");
        if !src.is_dir() {
            continue;
        }
        let has_lib = src.join("lib.rs").is_file();
        let mut sources = Vec::new();
        for file in files_under(&src) {
            let relative = file.strip_prefix(&src).expect("under src");
            if file.extension().is_none_or(|e| e != "rs")
                || (has_lib && relative == Path::new("main.rs"))
                || relative.starts_with("bin")
            {
                continue;
            }
            sources.push(Source {
                module: module_of(relative),
                name: file
                    .strip_prefix(&root)
                    .unwrap_or(&file)
                    .display()
                    .to_string(),
                text: std::fs::read_to_string(&file).expect("a source file is UTF-8 text"),
            });
        }
        let name = dir
            .file_name()
            .expect("a folder name")
            .to_string_lossy()
            .into_owned();
        crates.push(Crate::read(&name, &sources));
    }
    crates
}

#[test]
fn no_crate_has_an_import_circle_between_its_modules() {
    let crates = workspace_crates();
    assert!(
        crates.len() >= 6,
        "the workspace's crates are read: {}",
        crates.len()
    );
    let circles: Vec<String> = crates.iter().flat_map(Crate::circles).collect();
    assert!(
        circles.is_empty(),
        "import circles between modules — move what both need down into a module of its own \
         (a re-export does not help, the check follows it):\n{}",
        circles.join("\n")
    );
}

fn sources(files: &[(&str, &str)]) -> Vec<Source> {
    files
        .iter()
        .map(|(path, text)| Source {
            module: module_of(Path::new(path)),
            name: (*path).to_owned(),
            text: (*text).to_owned(),
        })
        .collect()
}

#[test]
fn a_circle_through_a_reexport_is_found_and_the_tree_is_not_a_circle() {
    let krate = Crate::read(
        "demo",
        &sources(&[
            ("lib.rs", "mod a; mod b; mod c; pub use a::Thing;\n"),
            // `a` uses `b`; `b` reaches `a` through the root's re-export.
            (
                "a.rs",
                "use crate::b::{self, Other as O};\npub struct Thing;\n",
            ),
            ("b.rs", "pub struct Other;\nfn f(_: crate::Thing) {}\n"),
            // `c` and its child use each other: that is the tree.
            ("c/mod.rs", "mod d; use d::D;\npub struct C;\n"),
            ("c/d.rs", "use super::C;\npub struct D;\n"),
        ]),
    );
    assert_eq!(
        krate.circles(),
        ["demo: {a, b}: a → b (a.rs:1); b → a (b.rs:2)"]
    );
}

#[test]
fn test_code_makes_no_dependency() {
    let krate = Crate::read(
        "demo",
        &sources(&[
            ("lib.rs", "mod a; mod b;\n"),
            (
                "a.rs",
                "use crate::b::B;\npub struct A;\n#[cfg(test)]\nmod support;\n",
            ),
            ("a/support.rs", "use crate::b::B;\n"),
            (
                "b.rs",
                "pub struct B;\n#[cfg(test)]\nmod tests {\n    use crate::a::A;\n    \
                 fn f() { let _ = [A]; }\n}\n#[cfg(test)]\nuse crate::a::A;\n",
            ),
        ]),
    );
    assert_eq!(krate.circles(), Vec::<String>::new());
    let edges: Vec<(String, String)> = krate.edges().into_iter().map(|e| (e.from, e.to)).collect();
    assert_eq!(edges, [("a".to_owned(), "b".to_owned())]);
}

#[test]
fn nested_groups_super_paths_and_literals_are_read_right() {
    let text = "use super::{x::{A, B as Bee}, y};\n\
                // crate::ignored::Comment\n\
                let s = \"crate::ignored::String\"; let c = '\"'; let r = r#\"crate::raw\"#;\n\
                fn f<'a>(v: &'a str) { crate::z::call(); self::w::T::new(); }\n";
    let paths: Vec<(String, Option<String>)> = written_paths(text)
        .into_iter()
        .map(|p| (p.segments.join("::"), p.binds))
        .collect();
    assert_eq!(
        paths,
        [
            ("super::x::A".to_owned(), Some("A".to_owned())),
            ("super::x::B".to_owned(), Some("Bee".to_owned())),
            ("super::y".to_owned(), Some("y".to_owned())),
            ("crate::z::call".to_owned(), None),
            ("self::w::T::new".to_owned(), None),
        ]
    );
}

#[test]
fn a_dependency_between_nested_modules_counts_between_their_sibling_ancestors() {
    let krate = Crate::read(
        "demo",
        &sources(&[
            ("lib.rs", "mod config; mod document;\n"),
            ("config/mod.rs", "mod load; mod set;\n"),
            ("config/load.rs", "pub struct L;\n"),
            ("config/set.rs", "use super::load::L;\n"),
            ("document/mod.rs", "mod pdf;\n"),
            ("document/pdf.rs", "fn f(_: crate::config::load::L) {}\n"),
        ]),
    );
    let edges: Vec<String> = krate
        .edges()
        .iter()
        .map(|e| format!("{}: {} → {}", e.parent.join("::"), e.from, e.to))
        .collect();
    assert_eq!(edges, [": document → config", "config: set → load"]);
}
