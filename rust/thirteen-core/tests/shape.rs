//! The shape of the core (issue 53): no import cycle between its modules, and no function
//! over 150 lines outside tests.
//!
//! **Import cycles.** A module that uses another is never used back by it, directly or
//! through others.
//! The graph is read from the sources: every `use` (`crate::`, `super::`, `self::` or a child
//! module's name) and every inline `crate::`/`super::`/`self::` path outside `#[cfg(test)]`
//! items, each resolved to the module that defines the name: a name re-exported by a
//! module's `pub use` (the `lib.rs` facade, a folder's `mod.rs`) counts as a use of the module
//! it comes from. An edge joins two modules when one uses the other; the check fails on any
//! cycle, naming one. Modules declared `#[cfg(test)]` (a folder's `tests.rs`) are tests.
//!
//! **Function length.** Each `fn` of the core outside tests, from its `fn` line to the brace
//! that closes its body, is at most [`MOST_LINES`] lines.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Most lines of a function of the core outside tests.
const MOST_LINES: usize = 150;

/// A source file: its module path (`""` for the crate root, `"strategy::search"` for
/// `src/strategy/search/mod.rs` or `src/strategy/search.rs`), its path for messages, and
/// its text.
struct Source {
    module: String,
    path: String,
    text: String,
}

/// The modules declared `#[cfg(test)] mod name;` (tests in a file of their own), by path.
fn test_modules(sources: &[Source]) -> BTreeSet<String> {
    const MARK: &str = "#[cfg(test)]";
    let mut out = BTreeSet::new();
    for s in sources {
        let code = strip_literals(&s.text);
        let mut rest = code.as_str();
        while let Some(at) = rest.find(MARK) {
            rest = rest[at + MARK.len()..].trim_start();
            let decl = rest.strip_prefix("pub(crate) ").unwrap_or(rest);
            if let Some(name) = decl.strip_prefix("mod ") {
                let name: String = name
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() && name_is_file(&name, decl) {
                    out.insert(join(&s.module, &name));
                }
            }
        }
    }
    out
}

/// Whether `mod name` in `decl` is declared with `;` (its code in a file of its own).
fn name_is_file(name: &str, decl: &str) -> bool {
    decl["mod ".len() + name.len()..]
        .trim_start()
        .starts_with(';')
}

/// A child module's path.
fn join(parent: &str, child: &str) -> String {
    if parent.is_empty() {
        child.to_string()
    } else {
        format!("{parent}::{child}")
    }
}

/// The sources that are not tests.
fn non_test(sources: Vec<Source>) -> Vec<Source> {
    let tests = test_modules(&sources);
    sources
        .into_iter()
        .filter(|s| {
            !tests
                .iter()
                .any(|t| s.module == *t || s.module.starts_with(&format!("{t}::")))
        })
        .collect()
}

fn module_of(rel: &Path) -> String {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts.join("::")
}

fn read_sources(root: &Path) -> Vec<Source> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in fs::read_dir(dir).expect("src readable") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(root, &mut files);
    files.sort();
    files
        .iter()
        .map(|f| Source {
            module: module_of(f.strip_prefix(root).expect("under src")),
            path: f
                .strip_prefix(root)
                .expect("under src")
                .display()
                .to_string(),
            text: fs::read_to_string(f).expect("source readable"),
        })
        .collect()
}

/// The text without comments, string and character literals' contents and `#[cfg(test)]`
/// items.
fn code_of(text: &str) -> String {
    strip_test_items(&strip_literals(text))
}

/// The text with comments removed and each string or character literal emptied.
fn strip_literals(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        let rest = &text[i..];
        let after_ident = i > 0 && is_ident(b[i - 1]);
        // A raw string: `r`, some `#`, a quote; it ends at a quote and as many `#`.
        let raw = !after_ident && rest.starts_with('r');
        let hashes = if raw {
            rest[1..].bytes().take_while(|&c| c == b'#').count()
        } else {
            0
        };
        if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
        } else if rest.starts_with("/*") {
            i += rest.find("*/").map_or(rest.len(), |e| e + 2);
        } else if raw && rest[1 + hashes..].starts_with('"') {
            let close = format!("\"{}", "#".repeat(hashes));
            let body = 2 + hashes;
            i += body
                + rest[body..]
                    .find(&close)
                    .map_or(rest.len() - body, |e| e + close.len());
            out.push_str("\"\"");
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if b[i] == b'\'' && b.get(i + 1) == Some(&b'\\') {
            // An escaped character literal ('\n', '\'', '\u{1F}').
            i += rest[3..].find('\'').map_or(rest.len(), |e| e + 4);
            out.push_str("' '");
        } else if b[i] == b'\'' && b.get(i + 2) == Some(&b'\'') {
            // A character literal ('{'), not a lifetime.
            i += 3;
            out.push_str("' '");
        } else {
            let ch = rest.chars().next().expect("a char");
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

/// The code without the items marked `#[cfg(test)]` (each to its `;`, or to the brace
/// closing its body).
fn strip_test_items(code: &str) -> String {
    const MARK: &str = "#[cfg(test)]";
    let b = code.as_bytes();
    let mut out = String::with_capacity(code.len());
    let mut i = 0;
    while let Some(at) = code[i..].find(MARK) {
        out.push_str(&code[i..i + at]);
        i += at + MARK.len();
        let mut depth = 0usize;
        while i < b.len() {
            match b[i] {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        i += 1;
                        break;
                    }
                }
                b';' if depth == 0 => {
                    i += 1;
                    break;
                }
                _ => {}
            }
            i += 1;
        }
    }
    out.push_str(&code[i.min(code.len())..]);
    out
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// A path of a use tree and the name it is imported under (`as name`), when renamed.
type UsePath = (Vec<String>, Option<String>);

/// The paths of a use tree starting at byte `i` of `s` (`a::b::{c, d::{e, self}}`), each as
/// its segments after `prefix`; `self` ends a path at its group's prefix and `*` likewise.
fn use_tree(s: &[u8], mut i: usize, prefix: &[String], out: &mut Vec<UsePath>) -> usize {
    let mut path = prefix.to_vec();
    loop {
        while i < s.len() && s[i].is_ascii_whitespace() {
            i += 1;
        }
        if i < s.len() && s[i] == b'{' {
            i += 1;
            loop {
                i = use_tree(s, i, &path, out);
                while i < s.len() && s[i].is_ascii_whitespace() {
                    i += 1;
                }
                match s.get(i) {
                    Some(b',') => i += 1,
                    Some(b'}') => return i + 1,
                    _ => return i,
                }
                while i < s.len() && s[i].is_ascii_whitespace() {
                    i += 1;
                }
                if s.get(i) == Some(&b'}') {
                    return i + 1;
                }
            }
        }
        let start = i;
        while i < s.len() && (is_ident(s[i]) || s[i] == b'*') {
            i += 1;
        }
        let seg = String::from_utf8_lossy(&s[start..i]).to_string();
        if !seg.is_empty() && seg != "self" && seg != "*" {
            path.push(seg);
        }
        if s[i..].starts_with(b"::") {
            i += 2;
            continue;
        }
        // `as name`: the name it is imported under.
        let mut j = i;
        while j < s.len() && s[j].is_ascii_whitespace() {
            j += 1;
        }
        let mut alias = None;
        if s[j..].starts_with(b"as") && s.get(j + 2).is_some_and(|c| c.is_ascii_whitespace()) {
            j += 2;
            while j < s.len() && s[j].is_ascii_whitespace() {
                j += 1;
            }
            let start = j;
            while j < s.len() && is_ident(s[j]) {
                j += 1;
            }
            alias = Some(String::from_utf8_lossy(&s[start..j]).to_string());
            i = j;
        }
        out.push((path, alias));
        return i;
    }
}

/// Every path a module's code names, as absolute segments (each a candidate use), and the
/// names its `pub use` items re-export with the absolute paths they stand for.
struct Names {
    paths: Vec<Vec<String>>,
    exports: BTreeMap<String, Vec<String>>,
}

fn names(module: &str, code: &str, children: &BTreeSet<String>) -> Names {
    let here: Vec<String> = module
        .split("::")
        .filter(|p| !p.is_empty())
        .map(String::from)
        .collect();
    // A relative path's first segments made absolute: `crate`, `super` (repeated), `self`,
    // or a child module of this one. `None`: another crate's path.
    let absolute = |rel: &[String]| -> Option<Vec<String>> {
        let first = rel.first()?;
        match first.as_str() {
            "crate" => Some(rel[1..].to_vec()),
            "self" => Some(here.iter().chain(&rel[1..]).cloned().collect()),
            "super" => {
                let ups = rel.iter().take_while(|s| *s == "super").count();
                let base = here.len().checked_sub(ups)?;
                Some(here[..base].iter().chain(&rel[ups..]).cloned().collect())
            }
            name if children.contains(name) => Some(here.iter().chain(rel).cloned().collect()),
            _ => None,
        }
    };
    let s = code.as_bytes();
    let mut out = Names {
        paths: Vec::new(),
        exports: BTreeMap::new(),
    };
    let mut i = 0;
    while i < s.len() {
        let boundary = i == 0 || !(is_ident(s[i - 1]) || s[i - 1] == b':');
        if !boundary || !code.is_char_boundary(i) {
            i += 1;
            continue;
        }
        // `use` items: `use`, `pub use`, `pub(crate) use`, `pub(super) use`.
        let rest = &code[i..];
        let public = rest.starts_with("pub ") || rest.starts_with("pub(");
        let after_vis = if public {
            rest.find(' ').map(|e| e + 1).unwrap_or(rest.len())
        } else {
            0
        };
        if rest[after_vis..].starts_with("use ") {
            let mut trees = Vec::new();
            let end = use_tree(s, i + after_vis + 4, &[], &mut trees);
            for (rel, alias) in trees {
                if let Some(abs) = absolute(&rel) {
                    if public {
                        if let Some(name) = alias.or_else(|| abs.last().cloned()) {
                            out.exports.insert(name, abs.clone());
                        }
                    }
                    out.paths.push(abs);
                }
            }
            i = end;
            continue;
        }
        for lead in ["crate::", "super::", "self::"] {
            if rest.starts_with(lead) {
                let mut trees = Vec::new();
                let end = use_tree(s, i, &[], &mut trees);
                out.paths
                    .extend(trees.iter().filter_map(|(rel, _)| absolute(rel)));
                i = end;
                break;
            }
        }
        i += 1;
    }
    out
}

/// The module graph: for each module, the modules it uses.
fn graph(sources: &[Source]) -> BTreeMap<String, BTreeSet<String>> {
    let modules: BTreeSet<String> = sources.iter().map(|s| s.module.clone()).collect();
    let children = |m: &str| -> BTreeSet<String> {
        modules
            .iter()
            .filter_map(|c| {
                let rest = if m.is_empty() {
                    c.as_str()
                } else {
                    c.strip_prefix(m)?.strip_prefix("::")?
                };
                (!rest.is_empty() && !rest.contains("::")).then(|| rest.to_string())
            })
            .collect()
    };
    let read: BTreeMap<String, Names> = sources
        .iter()
        .map(|s| {
            let code = code_of(&s.text);
            (
                s.module.clone(),
                names(&s.module, &code, &children(&s.module)),
            )
        })
        .collect();
    // The module defining the item an absolute path names (following re-exports), or the
    // deepest module the path goes through.
    fn owner(
        path: &[String],
        modules: &BTreeSet<String>,
        read: &BTreeMap<String, Names>,
        depth: usize,
    ) -> String {
        let mut m = String::new();
        let mut k = 0;
        while k < path.len() {
            let next = if m.is_empty() {
                path[k].clone()
            } else {
                format!("{m}::{}", path[k])
            };
            if !modules.contains(&next) {
                break;
            }
            m = next;
            k += 1;
        }
        if let (Some(name), Some(names)) = (path.get(k), read.get(&m)) {
            if let Some(target) = names.exports.get(name) {
                // The re-exported item, or module, with the rest of the path after it.
                let whole: Vec<String> = target.iter().chain(&path[k + 1..]).cloned().collect();
                if depth < 16 && whole.as_slice() != path {
                    return owner(&whole, modules, read, depth + 1);
                }
            }
        }
        m
    }
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (m, names) in &read {
        let out = edges.entry(m.clone()).or_default();
        for p in &names.paths {
            // A module's own `pub use` of a child is the facade's: an edge to the child.
            let target = owner(p, &modules, &read, 0);
            if &target != m {
                out.insert(target);
            }
        }
    }
    edges
}

/// A cycle of modules (the first repeated at the end), if the graph has one.
fn find_cycle(edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Open,
        Done,
    }
    fn visit(
        m: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        mark: &mut BTreeMap<String, Mark>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        mark.insert(m.to_string(), Mark::Open);
        stack.push(m.to_string());
        for next in edges.get(m).into_iter().flatten() {
            match mark.get(next).copied().unwrap_or(Mark::New) {
                Mark::Open => {
                    let from = stack.iter().position(|s| s == next).expect("on the stack");
                    let mut cycle = stack[from..].to_vec();
                    cycle.push(next.clone());
                    return Some(cycle);
                }
                Mark::New => {
                    if let Some(c) = visit(next, edges, mark, stack) {
                        return Some(c);
                    }
                }
                Mark::Done => {}
            }
        }
        stack.pop();
        mark.insert(m.to_string(), Mark::Done);
        None
    }
    let mut mark = BTreeMap::new();
    for m in edges.keys() {
        if mark.get(m).copied().unwrap_or(Mark::New) == Mark::New {
            if let Some(c) = visit(m, edges, &mut mark, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

fn name(m: &str) -> &str {
    if m.is_empty() {
        "lib"
    } else {
        m
    }
}

/// The functions of `code` longer than `most` lines: `(name, first line, lines)`.
fn long_functions(code: &str, most: usize) -> Vec<(String, usize, usize)> {
    let b = code.as_bytes();
    let line_at = |i: usize| code[..i].bytes().filter(|&c| c == b'\n').count() + 1;
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(at) = code[i..].find("fn ") {
        let start = i + at;
        i = start + 3;
        if start > 0 && is_ident(b[start - 1]) {
            continue;
        }
        let name: String = code[i..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if name.is_empty() {
            continue;
        }
        // The body: the first `{` after the signature (none before a `;`: no body).
        let mut j = i;
        let mut parens = 0i32;
        while j < b.len() && !(parens == 0 && (b[j] == b'{' || b[j] == b';')) {
            match b[j] {
                b'(' | b'[' => parens += 1,
                b')' | b']' => parens -= 1,
                _ => {}
            }
            j += 1;
        }
        if j >= b.len() || b[j] == b';' {
            continue;
        }
        let mut depth = 0usize;
        let mut k = j;
        while k < b.len() {
            match b[k] {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
            k += 1;
        }
        let (first, last) = (line_at(start), line_at(k.min(b.len() - 1)));
        if last - first + 1 > most {
            out.push((name, first, last - first + 1));
        }
    }
    out
}

#[test]
fn no_function_of_the_core_is_over_150_lines_outside_tests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let sources = non_test(read_sources(&root));
    let mut long = Vec::new();
    for s in &sources {
        for (name, line, lines) in long_functions(&code_of(&s.text), MOST_LINES) {
            long.push(format!("{}:{line} {name} ({lines} lines)", s.path));
        }
    }
    assert!(
        long.is_empty(),
        "functions over {MOST_LINES} lines: {long:?}"
    );
}

#[test]
fn long_functions_are_measured_from_fn_to_the_closing_brace() {
    let body = "    let x = 1;\n".repeat(5);
    let code = format!(
        "fn short() {{\n{body}}}\nfn long(a: [u8; 2]) -> impl Fn(u8) -> u8 {{\n{body}{body}}}\n\
         trait T {{ fn declared(&self); }}\n"
    );
    assert_eq!(long_functions(&code, 7), vec![("long".to_string(), 8, 12)]);
    assert_eq!(long_functions(&code, 12), vec![]);
    // A test module's functions are not read: its item is left out.
    let tests = format!("#[cfg(test)]\nmod tests {{\n    fn t() {{\n{body}{body}    }}\n}}\n");
    assert_eq!(long_functions(&code_of(&tests), 3), vec![]);
}

#[test]
fn the_core_has_no_import_cycle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let sources = non_test(read_sources(&root));
    assert!(sources.len() > 10, "the core's sources found");
    let edges = graph(&sources);
    if let Some(cycle) = find_cycle(&edges) {
        let names: Vec<&str> = cycle.iter().map(|m| name(m)).collect();
        panic!("import cycle: {}", names.join(" → "));
    }
}

fn fake(files: &[(&str, &str)]) -> Vec<Source> {
    files
        .iter()
        .map(|(path, text)| Source {
            module: module_of(Path::new(path)),
            path: path.to_string(),
            text: text.to_string(),
        })
        .collect()
}

#[test]
fn the_check_finds_a_cycle_through_groups_supers_and_re_exports() {
    // a → b through a group; b → c inline; c → a through the root's re-export of `A`; d names
    // x::c under another name.
    let sources = fake(&[
        (
            "lib.rs",
            "mod a; mod b; mod x; mod d;\npub use a::A;\npub(crate) use x as y;\n",
        ),
        ("d.rs", "use crate::y::X;\n"),
        ("a.rs", "use crate::{b::{self, B}, x::X};\npub struct A;\n"),
        ("b.rs", "pub struct B;\nfn f() { crate::x::c::g(); }\n"),
        ("x/mod.rs", "mod c;\npub use c::X;\n"),
        (
            "x/c.rs",
            "use super::super::A;\npub struct X;\npub fn g() {}\n",
        ),
    ]);
    let edges = graph(&sources);
    assert_eq!(
        edges["a"],
        BTreeSet::from(["b".to_string(), "x::c".to_string()])
    );
    assert_eq!(edges["b"], BTreeSet::from(["x::c".to_string()]));
    assert_eq!(edges["x::c"], BTreeSet::from(["a".to_string()]));
    assert_eq!(edges["d"], BTreeSet::from(["x::c".to_string()]));
    let cycle = find_cycle(&edges).expect("a cycle");
    assert_eq!(cycle.first(), cycle.last());
    assert!(cycle.contains(&"a".to_string()) && cycle.contains(&"x::c".to_string()));
}

#[test]
fn the_check_ignores_tests_comments_strings_and_other_crates() {
    let sources = fake(&[
        ("lib.rs", "mod a; mod b;\n#[cfg(test)]\nmod tests;\n"),
        ("tests.rs", "use crate::a::A;\nuse crate::b::B;\n"),
        ("a.rs", "use crate::b::B;\nuse std::fmt;\n"),
        (
            "b.rs",
            "// crate::a::f\nconst S: &str = \"crate::a::f\";\n/* use crate::a; */\n\
             #[cfg(test)]\nmod tests { use crate::a::A; fn t() { crate::a::f(); } }\n\
             #[cfg(test)]\nuse crate::a::A;\npub struct B;\n",
        ),
    ]);
    let edges = graph(&non_test(sources));
    assert!(!edges.contains_key("tests"), "a test module is left out");
    assert!(edges["b"].is_empty(), "{:?}", edges["b"]);
    assert_eq!(find_cycle(&edges), None);
}
