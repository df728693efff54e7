//! Records which op implementation ran.
//!
//! Every implementation of a playground op (concrete, `Autodiff<B, C>`, or a default trait body)
//! calls [`record`] with its own `Self` type on entry. The engine clears the log before a run and
//! takes it afterwards, so the route it reports is what executed, not what the toggles suggest.
//! The log is thread-local: burn calls op implementations on the calling thread, and native
//! tests run scenarios on several threads at once.

use std::cell::{Cell, RefCell};

use crate::outcome::{ImplCall, Phase};

thread_local! {
    static CALLS: RefCell<Vec<ImplCall>> = const { RefCell::new(Vec::new()) };
    static PHASE: Cell<Phase> = const { Cell::new(Phase::Forward) };
}

/// Marks the pass that following records belong to.
pub fn set_phase(phase: Phase) {
    PHASE.with(|current| current.set(phase));
}

/// Notes that `op`'s implementation for backend type `B` is running.
pub fn record<B: ?Sized>(op: &str) {
    let implementor = readable_type_name(std::any::type_name::<B>());
    CALLS.with(|calls| {
        calls.borrow_mut().push(ImplCall {
            op: op.to_owned(),
            phase: PHASE.with(Cell::get),
            implementor,
        })
    });
}

/// Empties the log and returns what it held; the phase goes back to forward.
pub fn take() -> Vec<ImplCall> {
    set_phase(Phase::Forward);
    CALLS.with(|calls| std::mem::take(&mut *calls.borrow_mut()))
}

/// `burn_autodiff::backend::Autodiff<burn_cubecl::backend::CubeBackend, …::NoCheckpointing>`
/// becomes `Autodiff<CubeBackend, NoCheckpointing>`: module paths dropped from every segment.
fn readable_type_name(full: &str) -> String {
    let mut out = String::with_capacity(full.len());
    let mut segment = String::new();
    for c in full.chars() {
        if c.is_alphanumeric() || c == '_' || c == ':' {
            segment.push(c);
        } else {
            out.push_str(segment.rsplit("::").next().unwrap_or(""));
            segment.clear();
            out.push(c);
        }
    }
    out.push_str(segment.rsplit("::").next().unwrap_or(""));
    out
}

#[cfg(test)]
mod tests {
    use super::readable_type_name;

    #[test]
    fn module_paths_are_dropped_from_every_segment() {
        assert_eq!(
            readable_type_name(
                "burn_autodiff::backend::Autodiff<burn_cubecl::backend::CubeBackend, burn_autodiff::checkpoint::strategy::NoCheckpointing>"
            ),
            "Autodiff<CubeBackend, NoCheckpointing>"
        );
        assert_eq!(readable_type_name("burn_flex::Flex"), "Flex");
    }
}
