//! The workers: the one that serves and its spare, what each reports, how a dead one is
//! replaced, and when the machine gives up.

use super::queue::{InFlight, Request};
use super::{Command, Machine, Reply, SpareState, Status, Timer, WorkerId, reply};
use crate::model::protocol::{FromWorker, ToWorker};
use crate::model::scenario::{BackendChoice, Declaration, Fix, OpKind, Scenario};

/// Failed starts in a row (workers that never became ready) before the client gives up.
pub const MAX_FAILED_STARTS: u32 = 3;

/// A started worker, and what it said when it became ready.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Worker {
    pub(super) id: WorkerId,
    pub(super) ready: Option<Result<String, String>>,
    /// The op and input shape a spare last warmed its kernels for, and whether it still is.
    pub(super) warmed_for: Option<(OpKind, Vec<usize>)>,
    pub(super) warming: bool,
}

impl Machine {
    /// After the engine failed: start over, from the module if that is what failed.
    pub(super) fn on_retry(&mut self, out: &mut Vec<Command>) {
        if self.failed.take().is_some() {
            self.failed_starts = 0;
            out.push(Command::ShowStatus(Status::Loading));
            // Without a compiled module the shell compiles it again first.
            if self.module_compiled {
                self.start_current(out);
            }
        }
    }

    pub(super) fn is_current(&self, worker: WorkerId) -> bool {
        self.current
            .as_ref()
            .is_some_and(|current| current.id == worker)
    }

    pub(super) fn spawn(&mut self, out: &mut Vec<Command>) -> Worker {
        self.next_worker += 1;
        let id = self.next_worker;
        out.push(Command::Spawn(id));
        out.push(Command::StartTimer(Timer::Start(id)));
        Worker {
            id,
            ready: None,
            warmed_for: None,
            warming: false,
        }
    }

    pub(super) fn start_current(&mut self, out: &mut Vec<Command>) {
        let worker = self.spawn(out);
        self.current = Some(worker);
    }

    pub(super) fn on_message(
        &mut self,
        worker: WorkerId,
        message: FromWorker,
        out: &mut Vec<Command>,
    ) {
        if !self.is_current(worker) {
            return self.on_spare_message(worker, message, out);
        }
        match message {
            FromWorker::Ready { gpu } => {
                self.failed_starts = 0;
                if let Some(current) = self.current.as_mut() {
                    current.ready = Some(gpu.clone());
                }
                let note = self.replacement_note.take();
                out.push(Command::ShowStatus(Status::Ready { gpu, note }));
                self.pump(out);
                self.ensure_spare(out);
            }
            FromWorker::Finished { id, outcome } => {
                self.answer(id, Reply::Outcome(outcome), out);
                self.pump(out);
                self.ensure_spare(out);
                self.warm_spare(out);
            }
            FromWorker::CaseFinished { id, outcome } => {
                self.answer(id, Reply::Case(outcome), out);
                self.pump(out);
                self.ensure_spare(out);
            }
            FromWorker::TrainProgress { id, points } => self.on_train_progress(id, points, out),
            FromWorker::TrainFinished { id, outcome } => {
                self.answer(id, Reply::Trained(outcome), out);
                self.pump(out);
                self.ensure_spare(out);
            }
            FromWorker::Panicked { id, report } => {
                let reason = report.message.clone();
                if let Some(id) = id {
                    self.answer(id, Reply::WorkerPanicked(report), out);
                }
                // The instance traps right after this message: replace it now rather than wait
                // for its error event. No note on the banner: the panic's own card says what
                // happened, in terms of the scenario that panicked (a panic is the playground
                // working, not the site failing).
                self.replace_current(
                    "Replacing the engine worker after a panic it could not survive…",
                    &reason,
                    None,
                    out,
                );
            }
            FromWorker::BootFailed(reason) => {
                // The wasm itself does not instantiate: another worker would fail the same way.
                self.fail(
                    format!("The engine's WebAssembly could not start: {reason}"),
                    out,
                )
            }
            FromWorker::DeviceLost(reason) => self.on_device_lost(reason, out),
            // A spare promoted while it warmed up: it serves now.
            FromWorker::Warmed => {}
        }
    }

    /// The spare only ever reports that it is ready, that it warmed up, or that it died.
    pub(super) fn on_spare_message(
        &mut self,
        worker: WorkerId,
        message: FromWorker,
        out: &mut Vec<Command>,
    ) {
        let Some(spare) = self.spare.as_mut().filter(|spare| spare.id == worker) else {
            return;
        };
        match message {
            FromWorker::Ready { gpu } => {
                spare.ready = Some(gpu);
                self.warm_spare(out);
                self.show_spare(out);
            }
            FromWorker::Warmed => {
                spare.warming = false;
                // The person may have moved on to another op or input while it warmed.
                self.warm_spare(out);
                self.show_spare(out);
            }
            // Anything else means it cannot serve: drop it; the next promotion starts a new one.
            _ => {
                out.push(Command::Terminate(worker));
                self.spare = None;
                self.show_spare(out);
            }
        }
    }

    /// Tells the shell where the spare is now.
    pub(super) fn show_spare(&self, out: &mut Vec<Command>) {
        let state = match &self.spare {
            None => SpareState::None,
            Some(Worker { ready: None, .. }) => SpareState::Starting,
            Some(Worker { warming: true, .. }) => SpareState::Warming,
            Some(_) => SpareState::Warm,
        };
        out.push(Command::ShowSpare(state));
    }

    /// Has a ready spare on a GPU run the variants of the last scenario (its op and inputs on
    /// WebGPU), unless it already did or is doing so. The variants are the scenario with
    /// `Autodiff` declared and each fix, and without a grad context: the routes a person takes
    /// next, none of which can panic, so the warm-up never costs the spare.
    pub(super) fn warm_spare(&mut self, out: &mut Vec<Command>) {
        let Some(last) = self.last_scenario.clone() else {
            return;
        };
        let key = (last.args.kind(), last.args.shape().to_vec());
        let Some(spare) = self.spare.as_mut() else {
            return;
        };
        if !matches!(spare.ready, Some(Ok(_)))
            || spare.warming
            || spare.warmed_for == Some(key.clone())
        {
            return;
        }
        let variant = |grad_context: bool, fix: Fix| Scenario {
            args: last.args.clone(),
            declaration: Declaration::WITH_AUTODIFF,
            grad_context,
            require_grad: grad_context,
            fix,
            backend: BackendChoice::Gpu,
            fusion: false,
        };
        let scenarios = vec![
            variant(true, Fix::None),
            variant(true, Fix::WithoutAutodiff),
            variant(true, Fix::Builtin),
            variant(false, Fix::None),
        ];
        spare.warming = true;
        spare.warmed_for = Some(key);
        out.push(Command::Post(spare.id, ToWorker::Warm { scenarios }));
    }

    pub(super) fn on_worker_error(
        &mut self,
        worker: WorkerId,
        message: String,
        out: &mut Vec<Command>,
    ) {
        if !self.is_current(worker) {
            if self.spare.as_ref().is_some_and(|spare| spare.id == worker) {
                out.push(Command::Terminate(worker));
                self.spare = None;
                self.show_spare(out);
            }
            return;
        }
        self.abandon_in_flight(
            format!("The engine worker stopped without a panic report: {message}"),
            out,
        );
        self.replace_current(
            "Restarting the engine worker…",
            &message,
            Some(format!(
                "The engine worker stopped ({message}) and was replaced."
            )),
            out,
        );
    }

    /// The GPU device is gone: replace the worker (its replacement acquires a device of its
    /// own) and send the interrupted scenario again, unless a newer one is already waiting.
    pub(super) fn on_device_lost(&mut self, reason: String, out: &mut Vec<Command>) {
        if let Some(InFlight { request, .. }) = self.in_flight.take() {
            match request {
                Request::Run(id, scenario) if self.queued_run.is_none() => {
                    self.queued_run = Some((id, scenario));
                }
                request => out.push(reply(
                    request.id(),
                    Reply::Failed(format!("The GPU device was lost ({reason}).")),
                    request.sent(),
                )),
            }
        }
        let text = format!(
            "The GPU device was lost ({reason}); a new engine with its own device took over."
        );
        self.replace_current(&text, &reason, Some(text.clone()), out);
    }

    /// Starts a spare worker when there is none, once a request has been answered.
    pub(super) fn ensure_spare(&mut self, out: &mut Vec<Command>) {
        let current_ready = self
            .current
            .as_ref()
            .is_some_and(|current| current.ready.is_some());
        if self.spare.is_none()
            && self.answered_once
            && !self.spare_delayed
            && current_ready
            && self.failed.is_none()
        {
            let spare = self.spawn(out);
            self.spare = Some(spare);
            out.push(Command::ShowSpare(SpareState::Starting));
        }
    }

    /// Replaces the current worker after it died: the spare takes over (at once when it is
    /// ready), or a new worker starts. Workers that keep dying before they are ready make the
    /// engine fail instead of restarting forever. `status_text` shows while nothing is ready;
    /// `note` stays on the ready banner afterwards.
    pub(super) fn replace_current(
        &mut self,
        status_text: &str,
        reason: &str,
        note: Option<String>,
        out: &mut Vec<Command>,
    ) {
        if let Some(dead) = self.current.take() {
            out.push(Command::Terminate(dead.id));
            if dead.ready.is_none() {
                self.failed_starts += 1;
            }
        }
        // A request in flight on the dead worker is never answered by it.
        if self.in_flight.is_some() {
            self.abandon_in_flight(format!("The engine worker stopped: {reason}"), out);
        }
        if self.failed_starts >= MAX_FAILED_STARTS {
            return self.fail(
                format!(
                    "The engine worker failed to start {MAX_FAILED_STARTS} times in a row: {reason}"
                ),
                out,
            );
        }
        // The spare, if any, becomes the current worker; without one a new worker starts.
        let promoted = match self.spare.take() {
            Some(spare) => {
                out.push(Command::ShowSpare(SpareState::None));
                self.current = Some(spare);
                true
            }
            None => false,
        };
        match self
            .current
            .as_ref()
            .and_then(|current| current.ready.clone())
        {
            Some(gpu) => {
                out.push(Command::ShowStatus(Status::Ready { gpu, note }));
                self.spare_delayed = true;
                out.push(Command::StartTimer(Timer::SpareDelay));
                self.pump(out);
            }
            None => {
                self.replacement_note = note;
                out.push(Command::ShowStatus(Status::Restarting(
                    status_text.to_owned(),
                )));
                if !promoted {
                    self.start_current(out);
                }
            }
        }
    }

    /// Gives up: every worker stops, every waiting request is answered, the status says why.
    pub(super) fn fail(&mut self, reason: String, out: &mut Vec<Command>) {
        self.replacement_note = None;
        for worker in [self.current.take(), self.spare.take()]
            .into_iter()
            .flatten()
        {
            out.push(Command::Terminate(worker.id));
        }
        if let Some(InFlight { request, .. }) = self.in_flight.take() {
            out.push(reply(
                request.id(),
                Reply::Failed(reason.clone()),
                request.sent(),
            ));
        }
        if let Some((id, scenario)) = self.queued_run.take() {
            out.push(reply(id, Reply::Failed(reason.clone()), Some(scenario)));
        }
        if let Some((id, _)) = self.queued_train.take() {
            out.push(reply(id, Reply::Failed(reason.clone()), None));
        }
        for (id, _) in self.queued_cases.drain(..) {
            out.push(reply(id, Reply::Failed(reason.clone()), None));
        }
        out.push(Command::ShowStatus(Status::Failed(reason.clone())));
        self.failed = Some(reason);
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use super::super::*;

    #[test]
    fn the_first_answer_starts_the_spare_worker() {
        let mut machine = started();
        assert_eq!(
            machine.handle(Event::RunRequested(1, scenario(1))),
            post_run(1, 1, 1)
        );
        assert_eq!(
            machine.handle(Event::Message(
                1,
                FromWorker::Finished {
                    id: 1,
                    outcome: outcome()
                }
            )),
            vec![
                answered(1, Reply::Outcome(outcome()), 1),
                Command::Spawn(2),
                Command::StartTimer(Timer::Start(2)),
                Command::ShowSpare(SpareState::Starting),
            ]
        );
        // Ready, the spare warms the kernels of the last scenario's variants, on WebGPU.
        let variant = |grad_context: bool, fix: Fix| Scenario {
            declaration: Declaration::WITH_AUTODIFF,
            grad_context,
            require_grad: grad_context,
            fix,
            ..scenario(1)
        };
        let warm = |scenarios| Command::Post(2, ToWorker::Warm { scenarios });
        assert_eq!(
            machine.handle(Event::Message(2, ready(Ok("gpu")))),
            vec![
                warm(vec![
                    variant(true, Fix::None),
                    variant(true, Fix::WithoutAutodiff),
                    variant(true, Fix::Builtin),
                    variant(false, Fix::None),
                ]),
                Command::ShowSpare(SpareState::Warming),
            ]
        );
        // Warm for that op and shape: the same scenario again does not warm it again.
        assert_eq!(
            machine.handle(Event::Message(2, FromWorker::Warmed)),
            vec![Command::ShowSpare(SpareState::Warm)]
        );
        machine.handle(Event::RunRequested(2, scenario(5)));
        let commands = machine.handle(Event::Message(
            1,
            FromWorker::Finished {
                id: 2,
                outcome: outcome(),
            },
        ));
        assert_eq!(commands, vec![answered(2, Reply::Outcome(outcome()), 5)]);
        // Another input shape: warmed again.
        let mut wider = scenario(1);
        wider.args = OpArgs::ShiftIds {
            ids: IntInput {
                shape: vec![2],
                values: vec![1, 2].into(),
            },
            offset: 1,
        };
        machine.handle(Event::RunRequested(3, wider.clone()));
        let commands = machine.handle(Event::Message(
            1,
            FromWorker::Finished {
                id: 3,
                outcome: outcome(),
            },
        ));
        assert!(
            matches!(&commands[1], Command::Post(2, ToWorker::Warm { scenarios }) if scenarios[0].args == wider.args)
        );
    }

    #[test]
    fn a_panic_that_kills_the_worker_is_answered_and_the_ready_spare_takes_over() {
        let mut machine = with_ready_spare();
        machine.handle(Event::RunRequested(2, scenario(2)));
        let panic = report("not implemented: Autodiff not supported for custom op `shift_ids`");
        assert_eq!(
            machine.handle(Event::Message(
                1,
                FromWorker::Panicked {
                    id: Some(2),
                    report: panic.clone()
                }
            )),
            vec![
                answered(2, Reply::WorkerPanicked(panic), 2),
                Command::Terminate(1),
                Command::ShowSpare(SpareState::None),
                Command::ShowStatus(Status::Ready {
                    gpu: Ok("gpu".to_owned()),
                    note: None,
                }),
                Command::StartTimer(Timer::SpareDelay),
            ]
        );
        // The next run goes to the promoted spare, and its answer starts the next spare.
        assert_eq!(
            machine.handle(Event::RunRequested(3, scenario(3))),
            post_run(2, 3, 3)
        );
        let commands = machine.handle(Event::Message(
            2,
            FromWorker::Finished {
                id: 3,
                outcome: outcome(),
            },
        ));
        assert_eq!(
            commands[1..3],
            [Command::Spawn(3), Command::StartTimer(Timer::Start(3))]
        );
        // The delay, firing later, starts nothing more.
        assert_eq!(machine.handle(Event::TimerFired(Timer::SpareDelay)), vec![]);
    }

    #[test]
    fn without_an_answer_the_next_spare_starts_after_the_delay() {
        let mut machine = with_ready_spare();
        machine.handle(Event::Message(
            1,
            FromWorker::Panicked {
                id: None,
                report: report("not implemented: Backend not supported for custom op `scale`"),
            },
        ));
        assert_eq!(
            machine.handle(Event::TimerFired(Timer::SpareDelay)),
            vec![
                Command::Spawn(3),
                Command::StartTimer(Timer::Start(3)),
                Command::ShowSpare(SpareState::Starting),
            ]
        );
    }

    #[test]
    fn a_panic_caught_inside_the_engine_keeps_the_worker() {
        let mut machine = started();
        machine.handle(Event::RunRequested(1, scenario(1)));
        let caught = Outcome::Panicked(report("caught"));
        let commands = machine.handle(Event::Message(
            1,
            FromWorker::Finished {
                id: 1,
                outcome: caught.clone(),
            },
        ));
        assert_eq!(commands[0], answered(1, Reply::Outcome(caught), 1));
        assert!(!commands.contains(&Command::Terminate(1)));
        assert_eq!(
            machine.handle(Event::RunRequested(2, scenario(2)))[0],
            post_run(1, 2, 2)[0]
        );
    }

    #[test]
    fn a_crash_without_a_spare_restarts_a_worker_and_the_waiting_run_follows_it() {
        let mut machine = started();
        machine.handle(Event::RunRequested(1, scenario(1)));
        assert_eq!(
            machine.handle(Event::WorkerError(1, "unreachable".to_owned())),
            vec![
                answered(
                    1,
                    Reply::Failed(
                        "The engine worker stopped without a panic report: unreachable".to_owned()
                    ),
                    1
                ),
                Command::Terminate(1),
                Command::ShowStatus(Status::Restarting(
                    "Restarting the engine worker…".to_owned()
                )),
                Command::Spawn(2),
                Command::StartTimer(Timer::Start(2)),
            ]
        );
        assert_eq!(machine.handle(Event::RunRequested(2, scenario(2))), vec![]);
        // Ready, the new worker runs what waited, and the banner keeps saying why it took over.
        let mut expected = vec![Command::ShowStatus(Status::Ready {
            gpu: Ok("gpu".to_owned()),
            note: Some("The engine worker stopped (unreachable) and was replaced.".to_owned()),
        })];
        expected.extend(post_run(2, 2, 2));
        assert_eq!(
            machine.handle(Event::Message(2, ready(Ok("gpu")))),
            expected
        );
    }

    #[test]
    fn repeated_start_failures_end_in_a_clear_error_that_answers_every_run_and_a_retry_starts_over()
    {
        let mut machine = Machine::new();
        machine.handle(Event::ModuleCompiled);
        machine.handle(Event::RunRequested(1, scenario(1)));
        machine.handle(Event::WorkerError(
            1,
            "its script could not be loaded".to_owned(),
        ));
        machine.handle(Event::WorkerError(
            2,
            "its script could not be loaded".to_owned(),
        ));
        let reason =
            "The engine worker failed to start 3 times in a row: its script could not be loaded";
        assert_eq!(
            machine.handle(Event::WorkerError(
                3,
                "its script could not be loaded".to_owned()
            )),
            vec![
                Command::Terminate(3),
                answered(1, Reply::Failed(reason.to_owned()), 1),
                Command::ShowStatus(Status::Failed(reason.to_owned())),
            ]
        );
        // Later runs are answered at once, never left waiting.
        assert_eq!(
            machine.handle(Event::RunRequested(2, scenario(2))),
            vec![answered(2, Reply::Failed(reason.to_owned()), 2)]
        );
        // Retry: a fresh start with a fresh count.
        assert_eq!(
            machine.handle(Event::RetryRequested),
            vec![
                Command::ShowStatus(Status::Loading),
                Command::Spawn(4),
                Command::StartTimer(Timer::Start(4)),
            ]
        );
        machine.handle(Event::RunRequested(3, scenario(3)));
        assert_eq!(
            machine.handle(Event::Message(4, ready(Ok("gpu")))),
            ready_then_run(4, 3, 3)
        );
    }

    #[test]
    fn a_module_that_fails_to_load_fails_at_once_and_a_retry_asks_for_it_again() {
        let mut machine = Machine::new();
        assert!(machine.needs_module());
        let reason = "The engine could not be loaded: HTTP 404";
        assert_eq!(
            machine.handle(Event::ModuleFailed("HTTP 404".to_owned())),
            vec![Command::ShowStatus(Status::Failed(reason.to_owned()))]
        );
        assert!(!machine.needs_module());
        assert_eq!(
            machine.handle(Event::RetryRequested),
            vec![Command::ShowStatus(Status::Loading)]
        );
        assert!(machine.needs_module());
    }

    #[test]
    fn a_boot_failure_fails_the_engine_without_restarting() {
        let mut machine = Machine::new();
        machine.handle(Event::ModuleCompiled);
        let commands = machine.handle(Event::Message(
            1,
            FromWorker::BootFailed("LinkError".to_owned()),
        ));
        assert_eq!(
            commands,
            vec![
                Command::Terminate(1),
                Command::ShowStatus(Status::Failed(
                    "The engine's WebAssembly could not start: LinkError".to_owned()
                )),
            ]
        );
    }

    #[test]
    fn a_lost_device_reruns_the_interrupted_scenario_on_the_replacement() {
        let mut machine = started();
        machine.handle(Event::RunRequested(1, scenario(1)));
        let commands = machine.handle(Event::Message(
            1,
            FromWorker::DeviceLost("Destroyed".to_owned()),
        ));
        let text =
            "The GPU device was lost (Destroyed); a new engine with its own device took over.";
        assert_eq!(
            commands,
            vec![
                Command::Terminate(1),
                Command::ShowStatus(Status::Restarting(text.to_owned())),
                Command::Spawn(2),
                Command::StartTimer(Timer::Start(2)),
            ]
        );
        let mut expected = vec![Command::ShowStatus(Status::Ready {
            gpu: Ok("gpu".to_owned()),
            note: Some(
                "The GPU device was lost (Destroyed); a new engine with its own device took over."
                    .to_owned(),
            ),
        })];
        expected.extend(post_run(2, 1, 1));
        assert_eq!(
            machine.handle(Event::Message(2, ready(Ok("gpu")))),
            expected
        );
    }

    #[test]
    fn a_spare_that_dies_is_dropped_and_replaced_at_the_next_answer() {
        let mut machine = serving_after_one_answer();
        assert_eq!(
            machine.handle(Event::WorkerError(2, "unreachable".to_owned())),
            vec![Command::Terminate(2), Command::ShowSpare(SpareState::None)]
        );
        machine.handle(Event::RunRequested(2, scenario(2)));
        let commands = machine.handle(Event::Message(
            1,
            FromWorker::Finished {
                id: 2,
                outcome: outcome(),
            },
        ));
        assert_eq!(
            commands[1..],
            [
                Command::Spawn(3),
                Command::StartTimer(Timer::Start(3)),
                Command::ShowSpare(SpareState::Starting),
            ]
        );
    }
}
