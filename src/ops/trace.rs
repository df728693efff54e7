//! Records what ran: which op implementation, whether burn's builtin ops stood in for the
//! custom op, and what the routing tensor was when it entered the generated routing.
//!
//! Every implementation of a playground op (concrete, `Autodiff<B, C>`, or a default trait body)
//! calls [`record`] with its own `Self` type on entry; each op's `call` records the dispatch
//! tensor it hands to the routing ([`record_routing_tensor`]); each `reference` records that the
//! builtin ops ran ([`record_builtin`]). The engine starts the log for a run on a backend
//! ([`begin`]), marks each step of the run as it enters it ([`enter`]), and takes the log
//! afterwards ([`take`]), so everything the page says about a run is what executed, not what the
//! toggles suggest.
//!
//! The log is one per process, not per thread: under burn's fusion an op's inner implementation
//! runs when the fusion stream executes it, which natively is on the fusion server's own thread
//! (in a browser, on the one thread, later). So one run at a time records: natively the engine
//! takes a process-wide lock per run or training, and the worker serves one request at a time.

use std::sync::Mutex;

use burn::backend::{DispatchAutodiffContext, DispatchTensor, DispatchTensorKind};

use crate::model::outcome::{ImplCall, PanicReport, Phase, RoutingTensor, Stage};
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

/// The log, and the stage the run is in.
static TRACE: Mutex<Trace> = Mutex::new(Trace {
    impls: Vec::new(),
    routing_tensor: None,
    builtin_ran: false,
    stage: None,
    backend: None,
});
static STAGE: Mutex<Stage> = Mutex::new(Stage::CreateInput);

/// The log, even if a panic poisoned its lock (a caught panic is an ordinary outcome here).
fn log() -> std::sync::MutexGuard<'static, Trace> {
    TRACE
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn stage() -> std::sync::MutexGuard<'static, Stage> {
    STAGE
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Starts a new log for a run on `backend`: what an earlier run left is dropped.
pub fn begin(backend: BackendChoice) {
    // The declarations built with their feature on live in their own crate; their
    // implementations record themselves here too.
    autodiff_feature_on::trace::install(record_named);
    take();
    log().backend = Some(backend);
}

/// Marks the step of the run that follows: implementations that record themselves from now on
/// ran in its pass, and a panic is reported with it.
pub fn enter(entered: Stage) {
    *stage() = entered;
    log().stage = Some(entered);
}

/// Notes that `op`'s implementation for backend type `B` is running.
pub fn record<B: ?Sized>(op: &str) {
    record_named(op, std::any::type_name::<B>());
}

/// Notes that `op`'s implementation for the backend type named `type_name` is running.
pub fn record_named(op: &str, type_name: &str) {
    let implementor = readable_type_name(type_name);
    let ran_in = *stage();
    // Built with burn's fusion, the GPU's concrete impl is reached only through the generated
    // `Fusion<B>` impl, which queues it: it runs whenever fusion executes its queue, which may be
    // during a later pass than the one that called it.
    let phase = if cfg!(feature = "fusion") && implementor == "CubeBackend" {
        Phase::Deferred
    } else {
        ran_in.phase()
    };
    log().impls.push(ImplCall {
        op: op.to_owned(),
        phase,
        stage: ran_in,
        implementor,
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
    log().routing_tensor = Some(routing_tensor);
}

/// Notes that burn's builtin tensor ops computed an op's result.
pub fn record_builtin() {
    log().builtin_ran = true;
}

/// What the log holds now, leaving it as it is.
pub fn snapshot() -> Trace {
    let log = log();
    Trace {
        impls: log.impls.clone(),
        routing_tensor: log.routing_tensor.clone(),
        builtin_ran: log.builtin_ran,
        stage: log.stage,
        backend: log.backend,
    }
}

/// Empties the log and returns what it held.
pub fn take() -> Trace {
    *stage() = Stage::CreateInput;
    std::mem::take(&mut *log())
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
