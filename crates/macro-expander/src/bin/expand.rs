//! Expands the declaration on stdin with burn's macro, as the page's expander does.
//!
//! Prints the formatted expansion (with `--tokens`, the emitted tokens as one line, the form
//! `tests/expansion.rs` hands to rustc) on stdout, and each error as `line:column: message` on
//! stderr. Exits with 1 when there is an error. With `--encoded`, writes the whole answer as the
//! worker sends it (postcard bytes) on stdout instead, and exits with 0.

use std::io::{Read, Write};

fn main() {
    let tokens = std::env::args().any(|argument| argument == "--tokens");
    let encoded = std::env::args().any(|argument| argument == "--encoded");
    let mut text = String::new();
    std::io::stdin()
        .read_to_string(&mut text)
        .expect("reading the declaration from stdin");
    let expansion = macro_expander::expand(&text);
    if encoded {
        std::io::stdout()
            .write_all(&macro_expander::protocol::encode(&expansion))
            .expect("writing the answer");
        return;
    }
    let emitted = if tokens {
        expansion.tokens
    } else {
        expansion.code
    };
    if let Some(emitted) = emitted {
        println!("{emitted}");
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
