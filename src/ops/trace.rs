//! Records what ran: which op implementation, whether burn's builtin ops stood in for the
//! custom op, and what the routing tensor was when it entered the generated routing.
//!
//! Every implementation of a playground op (concrete, `Autodiff<B, C>`, or a default trait body)
//! calls [`record`] with its own `Self` type on entry; each op's `call` records the dispatch
//! tensor it hands to the routing ([`record_routing_tensor`]); each `reference` records that the
//! builtin ops ran ([`record_builtin`]). The engine starts the log for a run on a backend
//! ([`begin`]), marks each step of the run as it enters it ([`enter`]), and takes the log
//! afterwards ([`take`]), so everything the page says about a run is what executed, not what the
//! toggles suggest. The log is thread-local: burn calls op implementations on the calling
//! thread, and native tests run scenarios on several threads at once.

use std::cell::{Cell, RefCell};

use burn::backend::{DispatchAutodiffContext, DispatchTensor, DispatchTensorKind};

use crate::model::outcome::{ImplCall, PanicReport, RoutingTensor, Stage};
use crate::model::scenario::BackendChoice;

/// What one run recorded.
#[derive(Debug, Default)]
pub struct Trace {
    /// Op implementations, in the order they ran.
    pub impls: Vec<ImplCall>,
    /// The routing tensor as the op's `call` handed it to the generated routing, when a custom
    /// op was called.
    pub routing_tensor: Option<RoutingTensor>,
    /// Whether burn's builtin ops computed an op's result (the builtin fix, or a reference).
    pub builtin_ran: bool,
    /// The step of the run entered last.
    pub stage: Option<Stage>,
    /// The backend the run is on.
    pub backend: Option<BackendChoice>,
}

impl Trace {
    /// Adds what the run recorded up to a panic to the panic's report.
    pub fn complete(self, report: &mut PanicReport) {
        report.impls = self.impls;
        report.routing_tensor = self.routing_tensor;
        report.stage = self.stage;
        report.backend = self.backend;
    }
}

thread_local! {
    static TRACE: RefCell<Trace> = RefCell::new(Trace::default());
    static STAGE: Cell<Stage> = const { Cell::new(Stage::CreateInput) };
}

/// Starts a new log for a run on `backend`: what an earlier run left is dropped.
pub fn begin(backend: BackendChoice) {
    // The declarations built with their feature on live in their own crate; their
    // implementations record themselves here too.
    autodiff_feature_on::trace::install(record_named);
    take();
    TRACE.with(|trace| trace.borrow_mut().backend = Some(backend));
}

/// Marks the step of the run that follows: implementations that record themselves from now on
/// ran in its pass, and a panic is reported with it.
pub fn enter(stage: Stage) {
    STAGE.with(|current| current.set(stage));
    TRACE.with(|trace| trace.borrow_mut().stage = Some(stage));
}

/// Notes that `op`'s implementation for backend type `B` is running.
pub fn record<B: ?Sized>(op: &str) {
    record_named(op, std::any::type_name::<B>());
}

/// Notes that `op`'s implementation for the backend type named `type_name` is running.
pub fn record_named(op: &str, type_name: &str) {
    let implementor = readable_type_name(type_name);
    TRACE.with(|trace| {
        trace.borrow_mut().impls.push(ImplCall {
            op: op.to_owned(),
            phase: STAGE.with(Cell::get).phase(),
            implementor,
        })
    });
}

/// Notes the dispatch tensor an op's `call` is about to hand to the generated routing: which
/// backend holds it, whether autodiff wraps it, and its autodiff context.
pub fn record_routing_tensor(tensor: &DispatchTensor) {
    let (autodiff_wrapped, inner) = match &tensor.kind {
        DispatchTensorKind::Autodiff(inner) => (true, inner.as_ref()),
        kind => (false, kind),
    };
    let backend = match inner {
        DispatchTensorKind::Cube(_) => "Cube",
        DispatchTensorKind::Flex(_) => "Flex",
        _ => "another backend",
    };
    let routing_tensor = RoutingTensor {
        backend: backend.to_owned(),
        autodiff_wrapped,
        autodiff_context: matches!(tensor.autodiff, DispatchAutodiffContext::Enabled(_)),
    };
    TRACE.with(|trace| trace.borrow_mut().routing_tensor = Some(routing_tensor));
}

/// Notes that burn's builtin tensor ops computed an op's result.
pub fn record_builtin() {
    TRACE.with(|trace| trace.borrow_mut().builtin_ran = true);
}

/// Empties the log and returns what it held.
pub fn take() -> Trace {
    STAGE.with(|current| current.set(Stage::CreateInput));
    TRACE.with(|trace| std::mem::take(&mut *trace.borrow_mut()))
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
