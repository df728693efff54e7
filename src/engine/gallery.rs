//! Runs the gallery's burn snippets ([`GalleryCase`]) exactly as their code shows them.

use burn::backend::{Dispatch, ops::FloatTensorOps};
use burn::tensor::{Device, Tensor, Transaction};

use super::{Engine, panic_capture};
use crate::model::gallery_case::GalleryCase;
use crate::model::outcome::CaseOutcome;

impl Engine {
    /// Runs `case` with `gpu` the GPU device and `cpu` the CPU device.
    pub async fn run_case(&self, case: GalleryCase) -> CaseOutcome {
        let Ok(gpu) = &self.gpu else {
            return CaseOutcome::Unavailable(
                "This snippet needs WebGPU and the CPU side by side, and WebGPU is not available here."
                    .to_owned(),
            );
        };
        match panic_capture::catching_async(run(case, &gpu.device, &self.cpu)).await {
            Ok(description) => CaseOutcome::Completed(description),
            Err(report) => CaseOutcome::Panicked(report),
        }
    }
}

fn floats(value: f32, device: &Device) -> Tensor<1> {
    Tensor::from_floats([value], device)
}

async fn run(case: GalleryCase, gpu: &Device, cpu: &Device) -> String {
    let gpu_autodiff = gpu.clone().autodiff();
    let cpu_autodiff = cpu.clone().autodiff();
    let (a, b) = match case {
        GalleryCase::CatAcrossBackends => {
            let joined = Tensor::cat(vec![floats(1.0, gpu), floats(2.0, cpu)], 0);
            return format!("The snippet ran: shape {:?}.", joined.dims());
        }
        GalleryCase::BackendMoveOutOfAutodiff => {
            let x = floats(1.0, &gpu_autodiff);
            let moved = <Dispatch as FloatTensorOps<Dispatch>>::float_to_device(
                x.into_dispatch(),
                cpu.as_dispatch(),
            );
            return format!("The snippet ran: moved to {:?}.", moved.kind);
        }
        GalleryCase::TransactionAcrossBackends => (floats(1.0, gpu), floats(2.0, cpu)),
        GalleryCase::TransactionAutodiffAcrossBackends => {
            (floats(1.0, &gpu_autodiff), floats(2.0, &cpu_autodiff))
        }
        GalleryCase::TransactionAutodiffThenPlain => (floats(1.0, &gpu_autodiff), floats(2.0, gpu)),
    };
    match Transaction::default()
        .register(a)
        .register(b)
        .execute_async()
        .await
    {
        Ok(data) => format!("The snippet ran: read {} tensors.", data.len()),
        Err(error) => format!("The transaction failed without a panic: {error:?}"),
    }
}
