//! The guided first visit: six steps, each pointing at the real control it is about and doing
//! its action with the visitor (the page then runs the scenario, as after any edit).

use crate::model::scenario::{AutodiffDeclared, BackendChoice, Declaration, Fix, OpKind};
use crate::teach::form::Form;

/// What a step does to the scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TourAction {
    /// The opening scenario: the int op, no `Autodiff`, in a grad context.
    ShowPanic,
    /// List `Autodiff`.
    DeclareAutodiff,
    /// No `Autodiff` again, outside a grad context.
    LeaveGradContext,
    /// Back into the grad context: the panic, and its fixes.
    BackToPanic,
    /// Start training.
    Train,
    /// Point at burn's `fusion` switch. Switching it reloads the page with the other engine, so
    /// the step shows the control and leaves the choice to the visitor.
    ShowFusion,
}

impl TourAction {
    /// The scenario change, applied to `form` (training only scrolls and presses Train).
    pub fn apply(self, form: &mut Form) {
        match self {
            TourAction::ShowPanic => {
                form.op = OpKind::ShiftIds;
                form.declaration = Declaration::WITHOUT_AUTODIFF;
                form.grad_context = true;
                form.require_grad = false;
                form.fix = Fix::None;
                form.backend = BackendChoice::Gpu;
            }
            TourAction::DeclareAutodiff => {
                form.declaration = form
                    .declaration
                    .with_autodiff(AutodiffDeclared::Listed)
                    .unwrap_or(Declaration::WITH_AUTODIFF);
            }
            TourAction::LeaveGradContext => {
                form.declaration = Declaration::WITHOUT_AUTODIFF;
                form.grad_context = false;
            }
            TourAction::BackToPanic => form.grad_context = true,
            TourAction::Train | TourAction::ShowFusion => {}
        }
    }
}

/// One step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TourStep {
    /// The heading.
    pub title: &'static str,
    /// What to look at.
    pub text: &'static str,
    /// CSS selector of the control or card the step is about.
    pub target: &'static str,
    /// What the step does.
    pub action: TourAction,
}

/// The tour, in order.
pub const TOUR: [TourStep; 6] = [
    TourStep {
        title: "The panic",
        text: "An int op declared without Autodiff, called on an autodiff device as in a training loop. burn's generated routing panics: this is its real message, caught in the engine's worker and explained.",
        target: "section[aria-labelledby=\"outcome-heading\"]",
        action: TourAction::ShowPanic,
    },
    TourStep {
        title: "The declaration",
        text: "Now the op lists the Autodiff selector, with its impl for Autodiff<B, C>. The same call runs: the routing accepts the autodiff context.",
        target: "#autodiff-choices",
        action: TourAction::DeclareAutodiff,
    },
    TourStep {
        title: "The grad context",
        text: "Without Autodiff again, but outside a grad context: the tensors live on a plain device, and the op runs on its concrete backend. The panic is a training-loop panic.",
        target: "#grad-context-choice",
        action: TourAction::LeaveGradContext,
    },
    TourStep {
        title: "The fixes",
        text: "Back in the grad context, the panic returns, with its fixes one click away: declare Autodiff, run the op without autodiff, or use a builtin op. Each shows what it changes.",
        target: "section[aria-labelledby=\"outcome-heading\"] .fixes",
        action: TourAction::BackToPanic,
    },
    TourStep {
        title: "Training",
        text: "Where it matters: a small model with the op inside, trained by burn's optimiser beside its builtin twin. Without Autodiff it panics at step 1; with a fix it trains, and the page reads from the run which parameters got a gradient and what the losses did.",
        target: "section.training",
        action: TourAction::Train,
    },
    TourStep {
        title: "Fusion",
        text: "burn-wgpu turns on burn's fusion feature by default: Cube is then Fusion<CubeBackend>, which queues tensor ops and fuses runs of them into one kernel; a custom op is queued as its own operation, which fusion never merges with its neighbours. This switch reloads the page with the engine built that way. There an op whose trait has a default body runs as it is; one without needs the Fusion selector, with a #[fusion(...)] on its method, or a Fusion<B> impl written by hand. The page shows when the op's kernel actually ran, or what rustc says of a declaration that no longer compiles.",
        target: "#fusion-choice",
        action: TourAction::ShowFusion,
    },
];
