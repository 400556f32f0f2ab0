//! The bindings only convert (issue 53): `rust/thirteen-py/src` holds at most a tenth of the
//! project's Rust lines, every `.rs` file under `rust/` counted (the core's sources, tests,
//! examples and benchmarks, and the bindings), lines as `wc -l` counts them. The same figure
//! by hand: `cat rust/thirteen-py/src/*.rs | wc -l` over `find rust -name '*.rs' | xargs cat |
//! wc -l` (docs/architecture.md, "The layers").

use std::fs;
use std::path::{Path, PathBuf};

/// The most the bindings may hold, in percent of the Rust lines.
const MOST_PERCENT: usize = 10;

/// Every `.rs` file below `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).expect("a folder of the workspace") {
        let path = entry.expect("a readable folder").path();
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out
}

/// Lines of the files, as `wc -l` counts them (newlines).
fn lines(files: &[PathBuf]) -> usize {
    let count = |p: &PathBuf| {
        fs::read_to_string(p)
            .expect("a source file")
            .matches('\n')
            .count()
    };
    files.iter().map(count).sum()
}

#[test]
fn the_bindings_are_at_most_a_tenth_of_the_rust() {
    let rust = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let all = lines(&rust_files(&rust));
    let bindings = lines(&rust_files(&rust.join("thirteen-py").join("src")));
    assert!(bindings > 0 && all > bindings, "{bindings} of {all}");
    assert!(
        bindings * 100 <= all * MOST_PERCENT,
        "the bindings are {bindings} of {all} Rust lines ({:.1}%), more than {MOST_PERCENT}%: \
         move what is not conversion into the core",
        100.0 * bindings as f64 / all as f64
    );
}
