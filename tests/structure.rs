//! The crate's structure, drawn from its imports: the rooms (top-level modules, and `teach`'s
//! concerns), who imports whom, no circle, and the crate doc's table equal to what the code does.
//!
//! A room is a top-level module of `src/` (`model`, `ops`, `engine`, `worker`, `client`, `ui`), or
//! one of `teach`'s concerns (`teach::words`, `teach::code`, …). An import is a `crate::…`,
//! `super::…` or `self::…` path in code (comments and strings aside), resolved from the file's own
//! module. The entry points (`lib.rs`, `main.rs`, `bin/`) and rustc's shipped expansions are not
//! rooms.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("reading src/")
        .map(|entry| entry.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|extension| extension == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a file under `src/` (`teach/link/query.rs` → `teach::link::query`), or
/// `None` for the entry points and the shipped expansions.
fn module_of(relative: &Path) -> Option<Vec<String>> {
    let parts: Vec<String> = relative
        .iter()
        .map(|part| part.to_string_lossy().into_owned())
        .collect();
    if parts.len() < 2 || parts[0] == "bin" || parts.contains(&"expanded".to_owned()) {
        return None;
    }
    let mut path: Vec<String> = parts[..parts.len() - 1].to_vec();
    let file = parts.last()?.trim_end_matches(".rs").to_owned();
    if file != "mod" {
        path.push(file);
    }
    Some(path)
}

/// The room of a module path: `teach` and one more segment, or the first segment.
fn room_of(path: &[String]) -> Option<String> {
    match path {
        [] => None,
        [teach] if teach == "teach" => None,
        [teach, concern, ..] if teach == "teach" => Some(format!("teach::{concern}")),
        [first, ..] => Some(first.clone()),
    }
}

/// The code of a Rust file without comments and string literals (which name paths that are not
/// imports, like this doc's `crate::…`).
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut index = 0;
    while index < chars.len() {
        let rest = &chars[index..];
        if rest.starts_with(&['/', '/']) {
            while index < chars.len() && chars[index] != '\n' {
                index += 1;
            }
        } else if rest.starts_with(&['/', '*']) {
            index += 2;
            while index + 1 < chars.len() && !(chars[index] == '*' && chars[index + 1] == '/') {
                index += 1;
            }
            index += 2;
        } else if chars[index] == '"' {
            index += 1;
            while index < chars.len() && chars[index] != '"' {
                if chars[index] == '\\' {
                    index += 1;
                }
                index += 1;
            }
            index += 1;
            out.push_str("\"\"");
        } else if chars[index] == '\''
            && index + 2 < chars.len()
            && (chars[index + 2] == '\'' || chars[index + 1] == '\\')
        {
            // A char literal ('x', '\n'), not a lifetime.
            index += 1;
            while index < chars.len() && chars[index] != '\'' {
                if chars[index] == '\\' {
                    index += 1;
                }
                index += 1;
            }
            index += 1;
        } else {
            out.push(chars[index]);
            index += 1;
        }
    }
    out
}

/// The identifier starting at `at`, and where it ends.
fn identifier(chars: &[char], at: usize) -> (String, usize) {
    let mut end = at;
    while end < chars.len() && (chars[end].is_alphanumeric() || chars[end] == '_') {
        end += 1;
    }
    (chars[at..end].iter().collect(), end)
}

/// The module paths a file's code names: each `crate::`, `super::` or `self::` path, resolved
/// from `module`, followed into `{…}` groups one level (enough to name a room).
fn imports(code: &str, module: &[String]) -> Vec<Vec<String>> {
    let chars: Vec<char> = code.chars().collect();
    let mut found = Vec::new();
    let mut index = 0;
    while index < chars.len() {
        let before = index.checked_sub(1).map(|at| chars[at]);
        let starts_word = !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':');
        let (word, end) = identifier(&chars, index);
        if word.is_empty() {
            index += 1;
            continue;
        }
        // `$crate::` in a macro: the crate.
        let macro_crate = before == Some('$') && word == "crate";
        if !(starts_word || macro_crate) || !matches!(word.as_str(), "crate" | "super" | "self") {
            index = end;
            continue;
        }
        // The module the path is relative to (a `mod.rs` file is its folder's module).
        let mut base: Vec<String> = match word.as_str() {
            "crate" => Vec::new(),
            "self" => module.to_vec(),
            _ => {
                let mut parent = module.to_vec();
                parent.pop();
                parent
            }
        };
        let mut at = end;
        // Further `super::` segments.
        while chars[at..].starts_with(&[':', ':']) {
            let (next, next_end) = identifier(&chars, at + 2);
            if next == "super" {
                base.pop();
                at = next_end;
            } else {
                break;
            }
        }
        let mut path = base.clone();
        while chars[at..].starts_with(&[':', ':']) {
            if chars.get(at + 2) == Some(&'{') {
                // A group: each item's first segments.
                let mut depth = 0;
                let mut item = String::new();
                let mut cursor = at + 2;
                loop {
                    let c = chars[cursor];
                    match c {
                        '{' => depth += 1,
                        '}' => depth -= 1,
                        _ => {}
                    }
                    if (c == ',' && depth == 1) || depth == 0 {
                        let segments: Vec<String> = item
                            .trim()
                            .trim_start_matches('{')
                            .split("::")
                            .map(|segment| segment.trim().to_owned())
                            .take_while(|segment| {
                                !segment.is_empty()
                                    && segment.chars().all(|c| c.is_alphanumeric() || c == '_')
                            })
                            .collect();
                        let mut full = path.clone();
                        full.extend(segments);
                        found.push(full);
                        item.clear();
                    } else if depth >= 1 && !(c == '{' && depth == 1) {
                        item.push(c);
                    }
                    cursor += 1;
                    if depth == 0 {
                        break;
                    }
                }
                at = cursor;
                path.clear();
                break;
            }
            let (next, next_end) = identifier(&chars, at + 2);
            if next.is_empty() {
                break;
            }
            path.push(next);
            at = next_end;
        }
        if !path.is_empty() {
            found.push(path);
        }
        index = at.max(end);
    }
    found
}

/// Who imports whom: room → the rooms it imports (itself left out).
fn import_graph() -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let relative = file.strip_prefix(src()).expect("a file under src/");
        let Some(module) = module_of(relative) else {
            continue;
        };
        let Some(room) = room_of(&module) else {
            continue;
        };
        let text = std::fs::read_to_string(&file).expect("reading a source file");
        let targets = graph.entry(room.clone()).or_default();
        for path in imports(&code_only(&text), &module) {
            if let Some(target) = room_of(&path)
                && target != room
            {
                targets.insert(target);
            }
        }
    }
    graph
}

/// The table in the crate doc (`src/lib.rs`): `//! | `room` | `a`, `b` |` rows.
fn documented_graph() -> BTreeMap<String, BTreeSet<String>> {
    let lib = std::fs::read_to_string(src().join("lib.rs")).expect("reading src/lib.rs");
    lib.lines()
        .filter_map(|line| line.strip_prefix("//! | `"))
        .filter_map(|row| {
            let (room, rest) = row.split_once("` |")?;
            let imports = rest
                .trim_end_matches('|')
                .split(',')
                .map(|name| name.trim().trim_matches('`').to_owned())
                .filter(|name| !name.is_empty() && name != "—")
                .collect();
            Some((room.to_owned(), imports))
        })
        .collect()
}

/// A circle through `graph`, if there is one.
fn circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        room: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(start) = path.iter().position(|seen| seen == room) {
            let mut found = path[start..].to_vec();
            found.push(room.to_owned());
            return Some(found);
        }
        if done.contains(room) {
            return None;
        }
        path.push(room.to_owned());
        for next in graph.get(room).into_iter().flatten() {
            if let Some(found) = visit(next, graph, path, done) {
                return Some(found);
            }
        }
        path.pop();
        done.insert(room.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|room| visit(room, graph, &mut Vec::new(), &mut done))
}

#[test]
fn the_imports_make_no_circle() {
    let graph = import_graph();
    assert!(graph.len() > 5, "rooms found: {graph:?}");
    if let Some(found) = circle(&graph) {
        panic!("a circle of imports: {}", found.join(" → "));
    }
}

#[test]
fn the_crate_doc_table_is_the_import_graph() {
    let graph = import_graph();
    let documented = documented_graph();
    let written = |graph: &BTreeMap<String, BTreeSet<String>>| -> String {
        graph
            .iter()
            .map(|(room, imports)| {
                let imports: Vec<String> = imports.iter().map(|name| format!("`{name}`")).collect();
                let imports = if imports.is_empty() {
                    "—".to_owned()
                } else {
                    imports.join(", ")
                };
                format!("//! | `{room}` | {imports} |\n")
            })
            .collect()
    };
    assert_eq!(
        written(&documented),
        written(&graph),
        "src/lib.rs's table of imports differs from the code's; the code's is on the right"
    );
}

/// The checker itself: it finds a circle where there is one, and reads grouped and relative
/// imports as a person does.
#[test]
fn the_checker_sees_circles_and_relative_imports() {
    let graph: BTreeMap<String, BTreeSet<String>> = [
        ("a", vec!["b"]),
        ("b", vec!["c"]),
        ("c", vec!["a"]),
        ("d", vec![]),
    ]
    .into_iter()
    .map(|(room, targets)| {
        (
            room.to_owned(),
            targets.into_iter().map(str::to_owned).collect(),
        )
    })
    .collect();
    assert_eq!(
        circle(&graph),
        Some(vec!["a".into(), "b".into(), "c".into(), "a".into()])
    );
    let module: Vec<String> = ["teach", "link", "query"].map(str::to_owned).to_vec();
    let code = code_only(
        "use super::words::{LinkWord, keys};\n// use crate::ui::x;\nuse crate::{model::catalog, teach::form::Form};\nlet s = \"crate::engine\";",
    );
    let rooms: BTreeSet<String> = imports(&code, &module)
        .iter()
        .filter_map(|path| room_of(path))
        .collect();
    assert_eq!(
        rooms,
        ["teach::link", "model", "teach::form"]
            .map(str::to_owned)
            .into_iter()
            .collect()
    );
}

/// The places of CONTRIBUTING.md's steps for adding an op that `name` is missing from: its
/// folder with the files the engine, the export and the feature-on crate read, its module in
/// `ops`, the feature-on crate, a shipped expansion for every catalog line, and its rows in the
/// golden tables. (The `match`es on `OpKind` elsewhere are the compiler's to check.)
fn missing_places(name: &str) -> Vec<String> {
    use burn_extension_playground::model::catalog::Declaration;

    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |path: &str| {
        std::fs::read_to_string(root.join(path)).unwrap_or_else(|_| panic!("reading {path}"))
    };
    let mut missing = Vec::new();
    for file in ["mod.rs", "declarations.rs", "concrete.rs", "autodiff.rs"] {
        if !root.join(format!("src/ops/{name}/{file}")).is_file() {
            missing.push(format!("src/ops/{name}/{file}"));
        }
    }
    if !read("src/ops/mod.rs").contains(&format!("\npub mod {name};\n")) {
        missing.push(format!("`pub mod {name};` in src/ops/mod.rs"));
    }
    if !read("crates/autodiff-feature-on/src/lib.rs").contains(&format!("pub mod {name} {{")) {
        missing.push(format!("`pub mod {name}` in crates/autodiff-feature-on"));
    }
    for declaration in Declaration::ALL {
        let expansion = format!("src/ops/expanded/{name}__{}.rs", declaration.module());
        if !root.join(&expansion).is_file() {
            missing.push(expansion);
        }
    }
    for table in ["matrix", "matrix-fusion", "training", "training-fusion"] {
        let path = format!("tests/golden/{table}.json");
        if !read(&path).contains(&format!("\"{name}::")) {
            missing.push(format!("{name}'s cells in {path}"));
        }
    }
    missing
}

#[test]
fn every_op_is_in_every_place() {
    use burn_extension_playground::model::scenario::OpKind;

    for op in OpKind::ALL {
        let missing = missing_places(op.name());
        assert!(
            missing.is_empty(),
            "{} is missing from: {missing:#?}",
            op.name()
        );
    }
}

/// The check itself: an op that is nowhere is missing from every place.
#[test]
fn an_op_that_is_nowhere_is_missing_everywhere() {
    use burn_extension_playground::model::catalog::Declaration;

    assert_eq!(
        missing_places("new_op").len(),
        4 + 2 + Declaration::ALL.len() + 4
    );
}
