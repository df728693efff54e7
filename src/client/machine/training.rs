//! Training runs: one at a time, a newer one stopping the one in flight, progress streamed
//! back, and stop asked for once.

use super::queue::Request;
use super::{Command, Machine, Reply, RequestId, Timer, reply};
use crate::model::protocol::ToWorker;
use crate::model::training::{LossPoint, TrainRequest};

impl Machine {
    /// A training run: it replaces a queued one and stops the one in flight (the worker ends
    /// it after its current step).
    pub(super) fn on_train_requested(
        &mut self,
        id: RequestId,
        request: TrainRequest,
        out: &mut Vec<Command>,
    ) {
        if self.refuse_if_failed(id, None, out) {
            return;
        }
        if let Some((replaced, _)) = self.queued_train.replace((id, request)) {
            out.push(reply(replaced, Reply::Superseded, None));
        }
        if let Some(in_flight) = &self.in_flight
            && let Request::Train(running, _) = in_flight.request
        {
            self.stop(running, out);
        }
        self.pump(out);
    }

    /// Stop: a waiting run is dropped; the one in flight is asked to end.
    pub(super) fn on_stop_requested(&mut self, id: RequestId, out: &mut Vec<Command>) {
        if self
            .queued_train
            .as_ref()
            .is_some_and(|(queued, _)| *queued == id)
        {
            self.queued_train = None;
            out.push(reply(id, Reply::Superseded, None));
        } else {
            self.stop(id, out);
        }
    }

    /// Losses streamed by the run in flight; each is a sign of life, so a fresh watchdog
    /// replaces the running one.
    pub(super) fn on_train_progress(
        &mut self,
        id: RequestId,
        points: Vec<LossPoint>,
        out: &mut Vec<Command>,
    ) {
        if let Some(in_flight) = self.in_flight.as_mut()
            && in_flight.request.id() == id
        {
            in_flight.watchdog += 1;
            out.push(Command::StartTimer(Timer::Run(id, in_flight.watchdog)));
            out.push(Command::Progress {
                request: id,
                points,
            });
        }
    }

    /// Asks the worker to end training run `id` after its current step (once).
    fn stop(&mut self, id: RequestId, out: &mut Vec<Command>) {
        if let Some(in_flight) = self.in_flight.as_mut()
            && in_flight.request.id() == id
            && matches!(in_flight.request, Request::Train(..))
            && !in_flight.stop_sent
        {
            in_flight.stop_sent = true;
            out.push(Command::Post(
                in_flight.worker,
                ToWorker::StopTraining { id },
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use super::super::*;

    fn train_request(steps: u32) -> TrainRequest {
        use crate::model::training::{OptimizerChoice, TrainSettings};
        TrainRequest {
            op: crate::model::scenario::OpKind::Scale,
            declaration: Declaration::WITH_AUTODIFF,
            fix: Fix::None,
            backend: BackendChoice::Gpu,
            settings: TrainSettings {
                steps,
                learning_rate: 0.05,
                optimizer: OptimizerChoice::Adam,
            },
        }
    }

    #[test]
    fn training_streams_progress_and_each_progress_resets_the_watchdog() {
        let mut machine = started();
        assert_eq!(
            machine.handle(Event::TrainRequested(1, train_request(100))),
            vec![
                Command::Post(
                    1,
                    ToWorker::Train {
                        id: 1,
                        request: train_request(100)
                    }
                ),
                Command::StartTimer(Timer::Run(1, 0)),
            ]
        );
        let points = vec![LossPoint {
            step: 2,
            custom: 1.5,
            builtin: 1.5,
        }];
        assert_eq!(
            machine.handle(Event::Message(
                1,
                FromWorker::TrainProgress {
                    id: 1,
                    points: points.clone()
                }
            )),
            vec![
                Command::StartTimer(Timer::Run(1, 1)),
                Command::Progress { request: 1, points },
            ]
        );
        // The first watchdog is stale now; only the latest may fire.
        assert_eq!(machine.handle(Event::TimerFired(Timer::Run(1, 0))), vec![]);
        let trained = TrainOutcome::Failed("stand-in".to_owned());
        assert_eq!(
            machine.handle(Event::Message(
                1,
                FromWorker::TrainFinished {
                    id: 1,
                    outcome: trained.clone()
                }
            ))[0],
            Command::Reply {
                request: 1,
                reply: Reply::Trained(trained),
                sent: None
            }
        );
        assert_eq!(machine.handle(Event::TimerFired(Timer::Run(1, 1))), vec![]);
    }

    #[test]
    fn stop_is_sent_once_and_a_new_training_run_stops_the_one_in_flight() {
        let mut machine = started();
        machine.handle(Event::TrainRequested(1, train_request(100)));
        assert_eq!(
            machine.handle(Event::StopRequested(1)),
            vec![Command::Post(1, ToWorker::StopTraining { id: 1 })]
        );
        assert_eq!(machine.handle(Event::StopRequested(1)), vec![]);

        let mut machine = started();
        machine.handle(Event::TrainRequested(1, train_request(100)));
        assert_eq!(
            machine.handle(Event::TrainRequested(2, train_request(50))),
            vec![Command::Post(1, ToWorker::StopTraining { id: 1 })]
        );
        // A third one replaces the second while it waits.
        assert_eq!(
            machine.handle(Event::TrainRequested(3, train_request(10))),
            vec![Command::Reply {
                request: 2,
                reply: Reply::Superseded,
                sent: None
            }]
        );
        let commands = machine.handle(Event::Message(
            1,
            FromWorker::TrainFinished {
                id: 1,
                outcome: TrainOutcome::Failed("stopped".to_owned()),
            },
        ));
        assert_eq!(
            commands[1],
            Command::Post(
                1,
                ToWorker::Train {
                    id: 3,
                    request: train_request(10)
                }
            )
        );
    }

    #[test]
    fn stopping_a_training_run_that_still_waits_drops_it() {
        let mut machine = started();
        machine.handle(Event::RunRequested(1, scenario(1)));
        machine.handle(Event::TrainRequested(2, train_request(10)));
        assert_eq!(
            machine.handle(Event::StopRequested(2)),
            vec![Command::Reply {
                request: 2,
                reply: Reply::Superseded,
                sent: None
            }]
        );
    }
}
