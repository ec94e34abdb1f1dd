//! Fixtures for the behaviour tests that compile whole programs and read the compiler's errors
//! (`one_mistake`, `derive_feature`): a program is a file whose errors a test counts or reads,
//! and a build is one `cargo check` of several of them.
//!
//! The programs are the modules of a crate generated under `CARGO_TARGET_TMPDIR` (a crate for
//! each feature set of agentkit-core, since features are the crate's), each included from its
//! file with `#[path]`, so a program's errors are those spanned in its file. Every crate is
//! built in one target directory of its own, `CARGO_TARGET_TMPDIR/programs/target`: apart from
//! the workspace's, which the outer `cargo test` holds locked while the tests run, and kept
//! between runs, so only the first run builds agentkit-core and its dependencies there. Two
//! tests building at once take turns on its lock.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

const WORKSPACE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

/// What a build said: each program's errors, in the compiler's JSON, and those of none of them.
pub(crate) struct Build {
    pub(crate) errors: BTreeMap<PathBuf, Vec<Value>>,
    pub(crate) elsewhere: Vec<Value>,
    /// Cargo's own output, for the failure message of a build that did not get to compiling.
    pub(crate) stderr: String,
}

/// The `.rs` files in `dir`, in order.
pub(crate) fn programs(dir: &str) -> Vec<PathBuf> {
    let mut programs: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "rs"))
        .map(|path| path.canonicalize().unwrap())
        .collect();
    programs.sort();
    programs
}

/// Checks `programs` as the modules of the crate `name`, which depends on agentkit-core with
/// `features` (such as `features = ["derive"]`, or nothing).
pub(crate) fn build(name: &str, features: &str, programs: &[PathBuf]) -> Build {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("programs");
    let krate = root.join(name);
    fs::create_dir_all(krate.join("src")).unwrap();
    let core = Path::new(WORKSPACE)
        .join("agentkit-core")
        .canonicalize()
        .unwrap();
    fs::write(
        krate.join("Cargo.toml"),
        format!(
            "[package]\nname = \"programs-{name}\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\
             publish = false\n\n[dependencies]\nagentkit-core = {{ path = {:?}, {features} }}\n\n\
             # A workspace of its own, so that agentkit's does not claim it.\n[workspace]\n",
            core.display().to_string(),
        ),
    )
    .unwrap();
    // The workspace's lock file, so the crate builds offline, with the versions agentkit is
    // tested with (cargo drops what it does not use).
    fs::copy(
        Path::new(WORKSPACE).join("Cargo.lock"),
        krate.join("Cargo.lock"),
    )
    .unwrap();
    // The programs' warnings are not what the tests read.
    let mut main = String::from("#![allow(warnings)]\n\n");
    for program in programs {
        let module = program
            .file_stem()
            .unwrap()
            .to_str()
            .unwrap()
            .replace('-', "_");
        let path = program.display().to_string();
        writeln!(main, "#[path = {path:?}]\nmod {module};").unwrap();
    }
    main.push_str("\nfn main() {}\n");
    fs::write(krate.join("src/main.rs"), main).unwrap();

    let output = Command::new(env!("CARGO"))
        .args([
            "check",
            "--offline",
            "--message-format=json",
            "--manifest-path",
        ])
        .arg(krate.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", root.join("target"))
        .output()
        .unwrap();
    let mut build = Build {
        errors: programs.iter().map(|p| (p.clone(), Vec::new())).collect(),
        elsewhere: Vec::new(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    };
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let Ok(message) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        if message["reason"] != "compiler-message" || message["message"]["level"] != "error" {
            continue;
        }
        let message = &message["message"];
        // "aborting due to 3 previous errors" sums up the others.
        if message["spans"].as_array().is_none_or(Vec::is_empty)
            && message["message"]
                .as_str()
                .is_some_and(|m| m.starts_with("aborting"))
        {
            continue;
        }
        match program_of(message, programs) {
            Some(program) => build.errors.get_mut(program).unwrap().push(message.clone()),
            None => build.elsewhere.push(message.clone()),
        }
    }
    build
}

/// The program `message` is about: the one its primary span is in or, for an error whose
/// primary span is elsewhere (a bound in agentkit-core that a type fails), the first one any
/// of its spans, or of its notes, is in.
fn program_of<'p>(message: &Value, programs: &'p [PathBuf]) -> Option<&'p PathBuf> {
    let spans = |message: &Value| message["spans"].as_array().cloned().unwrap_or_default();
    let program = |span: &Value| {
        let file = Path::new(span["file_name"].as_str()?).canonicalize().ok()?;
        programs.iter().find(|p| **p == file)
    };
    let primary = spans(message)
        .into_iter()
        .filter(|span| span["is_primary"] == true);
    if let Some(found) = primary.into_iter().find_map(|span| program(&span)) {
        return Some(found);
    }
    let mut all = vec![message.clone()];
    let mut index = 0;
    while let Some(next) = all.get(index).cloned() {
        if let Some(found) = spans(&next).iter().find_map(program) {
            return Some(found);
        }
        all.extend(next["children"].as_array().cloned().unwrap_or_default());
        index += 1;
    }
    None
}

/// The compiler's rendering of `message`, as a person reads it.
pub(crate) fn rendered(message: &Value) -> &str {
    message["rendered"].as_str().unwrap_or_default()
}
