//! The page's engine client, as plain logic: which worker serves, what waits, what to do when a
//! worker dies, hangs or cannot start. [`machine::Machine`] takes events and returns commands;
//! the page's shell (`ui::engine_shell`) carries them out with web-sys. Tested natively.

pub mod machine;
