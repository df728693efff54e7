//! `Scenario -> Outcome`: runs a scenario through burn's generated routing and reports what
//! happened.
//!
//! The same code runs natively (the tests) and in wasm (the worker). A run has two halves:
//!
//! 1. staging (synchronous, inside [`panic_capture::catching`]): create the input on the
//!    chosen device, call the op the way the scenario says, run `backward()` when the output is
//!    tracked, compute the builtin reference. Every panic burn raises happens here.
//! 2. reading back (asynchronous, as browsers require): one transaction per device.
//!
//! The reference — the same maths with burn's builtin ops — always runs on the CPU backend, an
//! implementation independent of the GPU kernel it checks.
//!
//! [`Engine::train`] runs the op inside training steps instead (`train`).
//!
//! Nothing here decides whether a combination "should" panic or which route it "should" take:
//! the route is read off the implementations that recorded themselves ([`crate::ops::trace`])
//! and the output tensor's autodiff context.

pub mod devices;
mod gallery;
pub mod panic_capture;
mod run;
mod train;

pub use train::step_in_progress as training_step_in_progress;

use burn::tensor::Device;

use crate::model::outcome::Outcome;
use crate::model::scenario::{BackendChoice, Scenario};
use crate::model::training::{LossPoint, TrainOutcome, TrainRequest};
use devices::{CPU_DEVICE_NAME, GpuDevice};

/// The devices a run can use. Create once, run many times: device initialisation and kernel
/// compilation are paid by the first run only.
#[derive(Debug)]
pub struct Engine {
    gpu: Result<GpuDevice, String>,
    cpu: Device,
}

impl Engine {
    /// Initialises the GPU when `with_gpu` (its failure is kept and reported by runs that ask
    /// for the GPU) and the CPU device.
    pub async fn init(with_gpu: bool) -> Engine {
        let gpu = if with_gpu {
            devices::init_gpu().await
        } else {
            Err("the GPU backend was not requested".to_owned())
        };
        Engine::from_parts(gpu, Device::flex())
    }

    /// An engine over devices acquired elsewhere (the worker checks the adapter itself first).
    pub fn from_parts(gpu: Result<GpuDevice, String>, cpu: Device) -> Engine {
        Engine { gpu, cpu }
    }

    /// The GPU adapter's name, or why there is no GPU device.
    pub fn gpu(&self) -> Result<&str, &str> {
        match &self.gpu {
            Ok(gpu) => Ok(&gpu.adapter),
            Err(reason) => Err(reason),
        }
    }

    fn device(&self, backend: BackendChoice) -> Result<(&Device, &str), String> {
        match backend {
            BackendChoice::Gpu => match &self.gpu {
                Ok(gpu) => Ok((&gpu.device, &gpu.adapter)),
                Err(reason) => Err(format!("The GPU backend is unavailable: {reason}")),
            },
            BackendChoice::Cpu => Ok((&self.cpu, CPU_DEVICE_NAME)),
        }
    }

    /// Runs `scenario` and reports what happened.
    // The native lock is held across the read back's await on purpose: the whole run is one
    // entry in the log. Each native caller blocks on its own future, so the holder never waits
    // on a thread that waits for the lock.
    #[allow(clippy::await_holding_lock)]
    pub async fn run(&self, scenario: &Scenario) -> Outcome {
        match self.device(scenario.backend) {
            Ok((device, name)) => {
                let _one_at_a_time = one_at_a_time();
                drain(device);
                run::run(scenario, device, name, &self.cpu).await
            }
            Err(reason) => Outcome::Failed(reason),
        }
    }

    /// Trains the model `request` describes, beside its builtin twin. `progress` receives the
    /// losses as they are read back; `stop` is asked between steps whether to end now.
    #[allow(clippy::await_holding_lock)] // as in `run`
    pub async fn train(
        &self,
        request: &TrainRequest,
        progress: &mut dyn FnMut(&[LossPoint]),
        stop: &dyn Fn() -> bool,
    ) -> TrainOutcome {
        match self.device(request.backend) {
            Ok((device, name)) => {
                let _one_at_a_time = one_at_a_time();
                drain(device);
                train::train(request, device, name, progress, stop).await
            }
            Err(reason) => TrainOutcome::Failed(reason),
        }
    }
}

/// Natively, one run or training at a time in the process: the log of what ran is one per
/// process (fusion records from its own thread), and native callers may call from several
/// threads (the tests). The worker serves one request at a time, so the browser needs no lock.
#[cfg(not(target_family = "wasm"))]
fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    static ONE: std::sync::Mutex<()> = std::sync::Mutex::new(());
    ONE.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The worker serves one request at a time: its turn is a guard with nothing to hold.
#[cfg(target_family = "wasm")]
fn one_at_a_time() -> OnlyRequest {
    OnlyRequest
}

#[cfg(target_family = "wasm")]
struct OnlyRequest;

/// Runs what earlier runs left queued on `device`, outside the next run's log. Natively, burn's
/// fusion executes its queue on its own thread, and a run that panicked can leave work queued
/// that would run (and record itself) during the next one; a panic that work raises belongs to
/// the run that queued it, so it is dropped here. (In the browser a panic ends the worker, and
/// its queue with it; a blocking wait has no place there.)
fn drain(device: &Device) {
    #[cfg(not(target_family = "wasm"))]
    let _ = panic_capture::catching(|| device.sync());
    #[cfg(target_family = "wasm")]
    let _ = device;
}
