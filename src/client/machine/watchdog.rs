//! The timers the machine asks for, and what happens when one runs out: a run that does not
//! answer, a worker that does not start, the delay before the next spare.

use super::RequestId;
use super::WorkerId;
use super::{Command, Machine};

/// A run not answered within this time is abandoned and its worker replaced.
pub const RUN_TIMEOUT_MS: u32 = 30_000;
/// A worker not ready within this time counts as a failed start.
pub const START_TIMEOUT_MS: u32 = 60_000;
/// After a spare took over, the next spare starts at the first answer or after this time.
pub const SPARE_DELAY_MS: u32 = 1_000;

/// Timers the client asks for; each comes back as [`Event::TimerFired`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timer {
    /// The watchdog of a request in flight; the number counts the signs of life it had (a
    /// training run's progress), so that only the latest watchdog can fire.
    Run(RequestId, u32),
    /// The start watchdog of a worker.
    Start(WorkerId),
    /// The delay before a new spare starts after one took over.
    SpareDelay,
}

impl Timer {
    /// How long the timer runs.
    pub fn duration_ms(self) -> u32 {
        match self {
            Timer::Run(..) => RUN_TIMEOUT_MS,
            Timer::Start(_) => START_TIMEOUT_MS,
            Timer::SpareDelay => SPARE_DELAY_MS,
        }
    }
}

impl Machine {
    pub(super) fn on_timer(&mut self, timer: Timer, out: &mut Vec<Command>) {
        match timer {
            Timer::Run(id, watchdog) => {
                let stuck = self.in_flight.as_ref().is_some_and(|in_flight| {
                    in_flight.request.id() == id && in_flight.watchdog == watchdog
                });
                if stuck {
                    let seconds = RUN_TIMEOUT_MS / 1000;
                    self.abandon_in_flight(
                        format!(
                            "The engine did not answer within {seconds} s, so it was stopped and restarted. Run again to retry."
                        ),
                        out,
                    );
                    self.replace_current(
                        "Restarting the engine after a run that did not answer…",
                        "no answer",
                        Some("A run did not answer in time; the engine was replaced.".to_owned()),
                        out,
                    );
                }
            }
            Timer::SpareDelay => {
                self.spare_delayed = false;
                self.ensure_spare(out);
            }
            Timer::Start(worker) => {
                let stuck = self
                    .current
                    .as_ref()
                    .is_some_and(|current| current.id == worker && current.ready.is_none());
                if stuck {
                    let seconds = START_TIMEOUT_MS / 1000;
                    self.replace_current(
                        "Restarting the engine, which did not start…",
                        &format!("it did not start within {seconds} s"),
                        None,
                        out,
                    );
                } else if self
                    .spare
                    .as_ref()
                    .is_some_and(|spare| spare.id == worker && spare.ready.is_none())
                {
                    out.push(Command::Terminate(worker));
                    self.spare = None;
                    self.show_spare(out);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use super::super::*;

    #[test]
    fn the_watchdog_abandons_a_run_that_never_answers_and_replaces_the_worker() {
        let mut machine = started();
        machine.handle(Event::RunRequested(1, scenario(1)));
        let commands = machine.handle(Event::TimerFired(Timer::Run(1, 0)));
        assert_eq!(
            commands[0],
            answered(
                1,
                Reply::Failed(
                    "The engine did not answer within 30 s, so it was stopped and restarted. Run again to retry."
                        .to_owned()
                ),
                1
            )
        );
        assert_eq!(commands[1], Command::Terminate(1));
        assert_eq!(commands[3], Command::Spawn(2));
        // A late answer from the replaced worker is ignored.
        assert_eq!(
            machine.handle(Event::Message(
                1,
                FromWorker::Finished {
                    id: 1,
                    outcome: outcome()
                }
            )),
            vec![]
        );
    }

    #[test]
    fn a_watchdog_for_an_answered_run_does_nothing() {
        let mut machine = serving_after_one_answer();
        assert_eq!(machine.handle(Event::TimerFired(Timer::Run(1, 0))), vec![]);
    }

    #[test]
    fn a_worker_that_does_not_start_in_time_is_replaced() {
        let mut machine = Machine::new();
        machine.handle(Event::ModuleCompiled);
        let commands = machine.handle(Event::TimerFired(Timer::Start(1)));
        assert_eq!(
            commands,
            vec![
                Command::Terminate(1),
                Command::ShowStatus(Status::Restarting(
                    "Restarting the engine, which did not start…".to_owned()
                )),
                Command::Spawn(2),
                Command::StartTimer(Timer::Start(2)),
            ]
        );
        // The start watchdog of a worker that did start does nothing.
        machine.handle(Event::Message(2, ready(Ok("gpu"))));
        assert_eq!(machine.handle(Event::TimerFired(Timer::Start(2))), vec![]);
    }
}
