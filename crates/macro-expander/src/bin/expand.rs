//! Expands the declaration on stdin with burn's macro, as the page's expander does.
//!
//! Prints the formatted expansion (with `--tokens`, the emitted tokens as one line, the form
//! `tests/expansion.rs` hands to rustc) on stdout, and each error as `line:column: message` on
//! stderr. Exits with 1 when there is an error. burn-backend-extension 0.22.1 expands it, or
//! 0.23.0-pre.1 with `--v0-23`. With `--encoded`, writes the whole answer as the worker sends it
//! (every version's expansion, postcard bytes) on stdout instead, and exits with 0. With
//! `--sources`, ends each line of the expansion with the typed text its tokens carry, and the
//! first line of an impl or arm that serves one selector with that selector.

use std::io::{Read, Write};

use macro_expander::MacroVersion;

fn main() {
    let flag = |name: &str| std::env::args().any(|argument| argument == name);
    let (tokens, encoded, sources) = (flag("--tokens"), flag("--encoded"), flag("--sources"));
    let version = if flag("--v0-23") {
        MacroVersion::V0_23
    } else {
        MacroVersion::V0_22
    };
    let mut text = String::new();
    std::io::stdin()
        .read_to_string(&mut text)
        .expect("reading the declaration from stdin");
    if encoded {
        let expansions: Vec<_> = MacroVersion::ALL
            .into_iter()
            .map(|version| macro_expander::expand(&text, version))
            .collect();
        std::io::stdout()
            .write_all(&macro_expander::protocol::encode(&expansions))
            .expect("writing the answer");
        return;
    }
    let expansion = macro_expander::expand(&text, version);
    let emitted = if tokens {
        expansion.tokens
    } else {
        expansion.code
    };
    if let Some(emitted) = emitted {
        if sources {
            for (index, (line, carried)) in emitted.lines().zip(&expansion.line_sources).enumerate()
            {
                let carried: Vec<&str> = carried.iter().map(|bytes| &text[bytes.clone()]).collect();
                let serves: Vec<String> = expansion
                    .served
                    .iter()
                    .filter(|served| served.lines.start == index)
                    .map(|served| format!(" [{:?} serves {}]", served.region, served.selector))
                    .collect();
                println!("{line}    // {}{}", carried.join(" | "), serves.concat());
            }
        } else {
            println!("{emitted}");
        }
    }
    for error in &expansion.errors {
        match &error.place {
            Some(place) => eprintln!("{}:{}: {}", place.line, place.column + 1, error.message),
            None => eprintln!("{}", error.message),
        }
    }
    if !expansion.errors.is_empty() {
        std::process::exit(1);
    }
}
