//! The related-errors gallery: the routing and dispatch panics users meet next to the
//! “Autodiff not supported…” one, each with the real scenario that raises it.
//!
//! Cards of two kinds:
//! - [`CardScenario::Form`]: a custom-op scenario, loaded into the playground's controls and run
//!   there like any other;
//! - [`CardScenario::Case`]: a few lines of ordinary burn code (moving tensors between devices,
//!   concatenating across backends) that the engine runs as written ([`GalleryCase`]).
//!
//! A card whose message no public API can reach says so ([`CardScenario::Unreachable`]) instead
//! of faking it. The messages themselves are never written here: every card shows what its
//! run's panic hook captured.

use crate::model::gallery_case::GalleryCase;
use crate::model::scenario::{BackendChoice, Declaration, Fix, OpKind};
use crate::teach::form::Form;

/// The engine's gallery source: each case's code is cut from it.
const ENGINE_GALLERY: &str = include_str!("../../engine/gallery.rs");

/// The code the engine runs for `case`, as its card shows it: the lines between the case's
/// `// case:` and `// end case` markers in `engine/gallery.rs`, dedented (`gpu` is the WebGPU
/// device, `cpu` is `Device::flex()`).
pub fn snippet(case: GalleryCase) -> String {
    let marker = format!("// case: {case:?}");
    let lines: Vec<&str> = ENGINE_GALLERY
        .lines()
        .skip_while(|line| line.trim() != marker)
        .skip(1)
        .take_while(|line| line.trim() != "// end case")
        .collect();
    let indent = lines
        .iter()
        .filter(|line| !line.trim().is_empty())
        .map(|line| line.len() - line.trim_start().len())
        .min()
        .unwrap_or(0);
    lines
        .iter()
        .map(|line| line.get(indent..).unwrap_or("").trim_end())
        .collect::<Vec<_>>()
        .join("\n")
}

/// What a gallery card loads and runs.
#[derive(Clone, Debug, PartialEq)]
pub enum CardScenario {
    /// A playground scenario: these settings, the op's example inputs.
    Form {
        op: OpKind,
        declaration: Declaration,
        grad_context: bool,
        require_grad: bool,
        backend: BackendChoice,
    },
    /// A burn snippet run by the engine.
    Case(GalleryCase),
    /// Not reachable from a custom op or the public tensor API; the text says why.
    Unreachable(&'static str),
}

impl CardScenario {
    /// The playground form for a [`CardScenario::Form`] card, starting from `base` so typed
    /// inputs are kept.
    pub fn apply_to(&self, base: &Form) -> Option<Form> {
        let CardScenario::Form {
            op,
            declaration,
            grad_context,
            require_grad,
            backend,
        } = *self
        else {
            return None;
        };
        let mut form = base.clone();
        form.op = op;
        form.declaration = declaration;
        form.grad_context = grad_context;
        form.require_grad = require_grad;
        form.fix = Fix::None;
        form.backend = backend;
        Some(form)
    }
}

/// One card.
pub struct Card {
    /// Stable id (used in the page and its tests).
    pub id: &'static str,
    /// The message family, as a heading.
    pub title: &'static str,
    /// Where burn raises it and what it means.
    pub explanation: &'static str,
    /// What the card runs.
    pub scenario: CardScenario,
}

/// The gallery, in the order the page shows it. Its float op is `leaky_relu`, whose trait has a
/// default body: its catalog lines build on both engines, with and without burn's fusion.
pub const CARDS: [Card; 10] = [
    Card {
        id: "backend-not-supported-autodiff",
        title: "The fallback arm: a float input in a training loop",
        explanation: "The op lists no Autodiff selector, and its float input is autodiff-wrapped on an autodiff device. The generated match has no arm for a wrapped tensor, so it reaches its fallback arm. In burn 0.22.1 this, not the “Autodiff not supported…” check, is what a float op meets first.",
        scenario: CardScenario::Form {
            op: OpKind::LeakyRelu,
            declaration: Declaration::WITHOUT_AUTODIFF,
            grad_context: true,
            require_grad: true,
            backend: BackendChoice::Gpu,
        },
    },
    Card {
        id: "backend-not-supported-undeclared",
        title: "The fallback arm: a backend the op does not declare",
        explanation: "The op is declared for Cube only and its input lives on the Flex CPU backend. No arm matches that backend, so the same fallback fires, with or without a grad context — even though a Flex impl of the op exists.",
        scenario: CardScenario::Form {
            op: OpKind::LeakyRelu,
            declaration: Declaration::Cube,
            grad_context: false,
            require_grad: false,
            backend: BackendChoice::Cpu,
        },
    },
    Card {
        id: "autodiff-not-supported",
        title: "The autodiff check: an int input in a training loop",
        explanation: "Int tensors are never autodiff-wrapped, so the concrete arm matches; it then finds the enabled autodiff context and refuses it (routing.rs:1126 of burn-backend-extension 0.22.1).",
        scenario: CardScenario::Form {
            op: OpKind::ShiftIds,
            declaration: Declaration::WITHOUT_AUTODIFF,
            grad_context: true,
            require_grad: false,
            backend: BackendChoice::Gpu,
        },
    },
    Card {
        id: "input-on-wrong-backend",
        title: "An input tensor on the wrong backend",
        explanation: "The same generator writes burn's own dispatch: an op takes its backend from its first tensor and unwraps every other input for that backend. A second input on another backend does not unwrap.",
        scenario: CardScenario::Case(GalleryCase::CatAcrossBackends),
    },
    Card {
        id: "cannot-move-between",
        title: "Moving between autodiff and non-autodiff instances",
        explanation: "Tensor::to_device keeps a tensor's autodiff context, so it never meets this. Code working at the backend level — calling Dispatch's float_to_device, as a hand-written op might — can ask to move an autodiff tensor to a plain device, which the dispatch refuses.",
        scenario: CardScenario::Case(GalleryCase::BackendMoveOutOfAutodiff),
    },
    Card {
        id: "transaction-wrong-backend",
        title: "Reading tensors of two backends in one transaction",
        explanation: "A Transaction reads several tensors at once (metrics in a training loop do this). It executes on the first tensor's backend and expects every other tensor there.",
        scenario: CardScenario::Case(GalleryCase::TransactionAcrossBackends),
    },
    Card {
        id: "transaction-autodiff-wrong-backend",
        title: "Reading autodiff tensors of two backends in one transaction",
        explanation: "The same check for autodiff-wrapped floats: the first tensor's backend wins, and an autodiff tensor from another backend is refused.",
        scenario: CardScenario::Case(GalleryCase::TransactionAutodiffAcrossBackends),
    },
    Card {
        id: "transaction-expected-autodiff",
        title: "Reading an autodiff tensor and a plain one in one transaction",
        explanation: "When the first float is autodiff-wrapped, the transaction unwraps every float as autodiff; a plain float tensor of the same backend is refused.",
        scenario: CardScenario::Case(GalleryCase::TransactionAutodiffThenPlain),
    },
    Card {
        id: "operation-not-marked",
        title: "Moving an autodiff-wrapped int, bool or quantized tensor",
        explanation: "Raised by the device transfer of int, bool and quantized tensors when their dispatch representation is autodiff-wrapped. burn wraps only float tensors, so no scenario reaches it.",
        scenario: CardScenario::Unreachable(
            "Not reachable: burn never autodiff-wraps an int, bool or quantized tensor.",
        ),
    },
    Card {
        id: "autodiff-context-invariant",
        title: "An autodiff-wrapped tensor with a disabled context",
        explanation: "Raised by the generated routing when a dispatch tensor is autodiff-wrapped but its context says disabled. burn's tensor API never builds such a tensor: only hand-assembling a DispatchTensor (its fields are public) would.",
        scenario: CardScenario::Unreachable(
            "Not reachable through burn's tensor API or a custom op call.",
        ),
    },
];
