//! The requests: what waits for a worker, the one in flight, and which goes next (gallery
//! snippets first, then the latest scenario run, then training).

use super::{Command, Machine, Reply, RequestId, Timer, Worker, WorkerId, reply};
use crate::model::gallery_case::GalleryCase;
use crate::model::protocol::ToWorker;
use crate::model::scenario::{BackendChoice, Scenario};
use crate::model::training::TrainRequest;

/// A request waiting for a worker, or in flight.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Request {
    Run(RequestId, Scenario),
    Case(RequestId, GalleryCase),
    Train(RequestId, TrainRequest),
}

impl Request {
    pub(super) fn id(&self) -> RequestId {
        match self {
            Request::Run(id, _) | Request::Case(id, _) | Request::Train(id, _) => *id,
        }
    }

    pub(super) fn sent(self) -> Option<Scenario> {
        match self {
            Request::Run(_, scenario) => Some(scenario),
            Request::Case(..) | Request::Train(..) => None,
        }
    }
}

/// The request in flight: which worker has it, its watchdog's number, and whether it was asked
/// to stop.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct InFlight {
    pub(super) request: Request,
    pub(super) worker: WorkerId,
    pub(super) watchdog: u32,
    pub(super) stop_sent: bool,
}

impl Machine {
    /// Answers request `id` at once when the engine has failed; returns whether it did.
    pub(super) fn refuse_if_failed(
        &self,
        id: RequestId,
        sent: Option<&Scenario>,
        out: &mut Vec<Command>,
    ) -> bool {
        let Some(reason) = &self.failed else {
            return false;
        };
        out.push(reply(id, Reply::Failed(reason.clone()), sent.cloned()));
        true
    }

    /// A scenario run: latest-wins, so it replaces (and supersedes) a queued one.
    pub(super) fn on_run_requested(
        &mut self,
        id: RequestId,
        scenario: Scenario,
        out: &mut Vec<Command>,
    ) {
        if self.refuse_if_failed(id, Some(&scenario), out) {
            return;
        }
        if let Some((replaced, scenario)) = self.queued_run.replace((id, scenario)) {
            out.push(reply(replaced, Reply::Superseded, Some(scenario)));
        }
        self.pump(out);
    }

    /// A gallery snippet: they queue in order.
    pub(super) fn on_case_requested(
        &mut self,
        id: RequestId,
        case: GalleryCase,
        out: &mut Vec<Command>,
    ) {
        if self.refuse_if_failed(id, None, out) {
            return;
        }
        self.queued_cases.push_back((id, case));
        self.pump(out);
    }

    /// Sends the next waiting request if the current worker is ready and idle.
    pub(super) fn pump(&mut self, out: &mut Vec<Command>) {
        if self.in_flight.is_some() {
            return;
        }
        let Some(Worker {
            id: worker,
            ready: Some(gpu),
            ..
        }) = self.current.clone()
        else {
            return;
        };
        let request = if let Some((id, case)) = self.queued_cases.pop_front() {
            Request::Case(id, case)
        } else if let Some((id, mut scenario)) = self.queued_run.take() {
            // Without a usable GPU every run goes to the CPU; the page learns what was sent.
            if gpu.is_err() {
                scenario.backend = BackendChoice::Cpu;
            }
            self.last_scenario = Some(scenario.clone());
            Request::Run(id, scenario)
        } else if let Some((id, mut request)) = self.queued_train.take() {
            if gpu.is_err() {
                request.backend = BackendChoice::Cpu;
            }
            Request::Train(id, request)
        } else {
            return;
        };
        let message = match &request {
            Request::Run(id, scenario) => ToWorker::Run {
                id: *id,
                scenario: scenario.clone(),
            },
            Request::Case(id, case) => ToWorker::RunCase {
                id: *id,
                case: *case,
            },
            Request::Train(id, request) => ToWorker::Train {
                id: *id,
                request: request.clone(),
            },
        };
        out.push(Command::Post(worker, message));
        out.push(Command::StartTimer(Timer::Run(request.id(), 0)));
        self.in_flight = Some(InFlight {
            request,
            worker,
            watchdog: 0,
            stop_sent: false,
        });
    }

    /// Answers the request in flight if it is `id`.
    pub(super) fn answer(&mut self, id: RequestId, answer: Reply, out: &mut Vec<Command>) {
        if self
            .in_flight
            .as_ref()
            .is_some_and(|in_flight| in_flight.request.id() == id)
            && let Some(in_flight) = self.in_flight.take()
        {
            out.push(reply(id, answer, in_flight.request.sent()));
            self.answered_once = true;
            self.spare_delayed = false;
        }
    }

    /// Answers the request in flight with a failure.
    pub(super) fn abandon_in_flight(&mut self, text: String, out: &mut Vec<Command>) {
        if let Some(InFlight { request, .. }) = self.in_flight.take() {
            out.push(reply(request.id(), Reply::Failed(text), request.sent()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use super::super::*;

    #[test]
    fn a_run_before_the_worker_is_ready_waits_for_it() {
        let mut machine = Machine::new();
        machine.handle(Event::ModuleCompiled);
        assert_eq!(machine.handle(Event::RunRequested(7, scenario(1))), vec![]);
        assert_eq!(
            machine.handle(Event::Message(1, ready(Ok("gpu")))),
            ready_then_run(1, 7, 1)
        );
    }

    #[test]
    fn a_newer_run_supersedes_the_queued_one_and_runs_after_the_one_in_flight() {
        let mut machine = started();
        machine.handle(Event::RunRequested(1, scenario(1)));
        assert_eq!(machine.handle(Event::RunRequested(2, scenario(2))), vec![]);
        assert_eq!(
            machine.handle(Event::RunRequested(3, scenario(3))),
            vec![answered(2, Reply::Superseded, 2)]
        );
        let mut expected = vec![answered(1, Reply::Outcome(outcome()), 1)];
        expected.extend(post_run(1, 3, 3));
        expected.extend([
            Command::Spawn(2),
            Command::StartTimer(Timer::Start(2)),
            Command::ShowSpare(SpareState::Starting),
        ]);
        assert_eq!(
            machine.handle(Event::Message(
                1,
                FromWorker::Finished {
                    id: 1,
                    outcome: outcome()
                }
            )),
            expected
        );
    }

    #[test]
    fn gallery_snippets_go_before_a_waiting_run() {
        let mut machine = started();
        machine.handle(Event::RunRequested(1, scenario(1)));
        machine.handle(Event::RunRequested(2, scenario(2)));
        machine.handle(Event::CaseRequested(3, GalleryCase::CatAcrossBackends));
        let commands = machine.handle(Event::Message(
            1,
            FromWorker::Finished {
                id: 1,
                outcome: outcome(),
            },
        ));
        assert_eq!(
            commands[1],
            Command::Post(
                1,
                ToWorker::RunCase {
                    id: 3,
                    case: GalleryCase::CatAcrossBackends
                }
            )
        );
        let case = CaseOutcome::Completed("ran".to_owned());
        let commands = machine.handle(Event::Message(
            1,
            FromWorker::CaseFinished {
                id: 3,
                outcome: case.clone(),
            },
        ));
        assert_eq!(
            commands[0],
            Command::Reply {
                request: 3,
                reply: Reply::Case(case),
                sent: None
            }
        );
        assert_eq!(commands[1..3], post_run(1, 2, 2));
    }

    #[test]
    fn without_a_gpu_runs_are_sent_to_the_cpu() {
        let mut machine = Machine::new();
        machine.handle(Event::ModuleCompiled);
        machine.handle(Event::Message(1, ready(Err("no adapter"))));
        let commands = machine.handle(Event::RunRequested(1, scenario(1)));
        let mut on_cpu = scenario(1);
        on_cpu.backend = BackendChoice::Cpu;
        assert_eq!(
            commands[0],
            Command::Post(
                1,
                ToWorker::Run {
                    id: 1,
                    scenario: on_cpu
                }
            )
        );
    }
}
