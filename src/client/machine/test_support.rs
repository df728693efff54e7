//! Stand-ins and starting points the machine's tests share.

use super::*;
pub(super) use crate::model::outcome::{CaseOutcome, PanicLocation};
pub(super) use crate::model::scenario::{BackendChoice, Declaration, Fix, IntInput, OpArgs};
pub(super) use crate::model::training::LossPoint;

pub(super) fn scenario(offset: i32) -> Scenario {
    Scenario {
        args: OpArgs::ShiftIds {
            ids: IntInput {
                shape: vec![1],
                values: vec![1].into(),
            },
            offset,
        },
        declaration: Declaration::WITHOUT_AUTODIFF,
        grad_context: true,
        require_grad: false,
        fix: Fix::None,
        backend: BackendChoice::Gpu,
        fusion: false,
    }
}

pub(super) fn ready(gpu: Result<&str, &str>) -> FromWorker {
    FromWorker::Ready {
        gpu: gpu.map(str::to_owned).map_err(str::to_owned),
    }
}

pub(super) fn outcome() -> Outcome {
    Outcome::Failed("stand-in outcome".to_owned())
}

pub(super) fn report(message: &str) -> PanicReport {
    PanicReport {
        message: message.to_owned(),
        location: Some(PanicLocation {
            file: "src/ops/shift_ids.rs".to_owned(),
            line: 1,
            column: 1,
        }),
        impls: vec![],
        routing_tensor: None,
        training_step: None,
        stage: None,
        backend: None,
    }
}

pub(super) fn gpu_ready() -> Status {
    Status::Ready {
        gpu: Ok("gpu".to_owned()),
        note: None,
    }
}

/// A machine whose first worker (id 1) is ready on the GPU, nothing in flight.
pub(super) fn started() -> Machine {
    let mut machine = Machine::new();
    assert_eq!(
        machine.handle(Event::ModuleCompiled),
        vec![Command::Spawn(1), Command::StartTimer(Timer::Start(1))]
    );
    assert_eq!(
        machine.handle(Event::Message(1, ready(Ok("gpu")))),
        vec![Command::ShowStatus(gpu_ready())]
    );
    machine
}

pub(super) fn post_run(worker: WorkerId, id: RequestId, offset: i32) -> Vec<Command> {
    vec![
        Command::Post(
            worker,
            ToWorker::Run {
                id,
                scenario: scenario(offset),
            },
        ),
        Command::StartTimer(Timer::Run(id, 0)),
    ]
}

/// Worker 1 serves and has answered run 1, which spawned spare worker 2.
pub(super) fn serving_after_one_answer() -> Machine {
    let mut machine = started();
    machine.handle(Event::RunRequested(1, scenario(1)));
    machine.handle(Event::Message(
        1,
        FromWorker::Finished {
            id: 1,
            outcome: outcome(),
        },
    ));
    machine
}

/// Worker 1 serves and has answered a run; spare worker 2 is ready.
pub(super) fn with_ready_spare() -> Machine {
    let mut machine = serving_after_one_answer();
    machine.handle(Event::Message(2, ready(Ok("gpu"))));
    machine
}

/// What a worker's readiness does when a run waits: the status, then the run posted.
pub(super) fn ready_then_run(worker: WorkerId, id: RequestId, offset: i32) -> Vec<Command> {
    let mut expected = vec![Command::ShowStatus(gpu_ready())];
    expected.extend(post_run(worker, id, offset));
    expected
}

pub(super) fn answered(id: RequestId, reply: Reply, offset: i32) -> Command {
    Command::Reply {
        request: id,
        reply,
        sent: Some(scenario(offset)),
    }
}
