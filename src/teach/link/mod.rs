//! The link: the whole form in the URL's query, for sharing, reloading and embedding.
//!
//! - [`words`]: every value a link can carry, spelled once, both ways (older words still read).
//! - [`query`]: the form written to a query, and read back from any text with a notice for each
//!   part it ignored.

pub mod query;
pub mod words;
