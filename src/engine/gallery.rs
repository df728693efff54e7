//! Runs the gallery's burn snippets ([`GalleryCase`]). The code between each `// case:` and
//! `// end case` line below is what the snippet's card shows (`teach::words::gallery` cuts it out of
//! this file), so the page shows exactly the code that runs: `gpu` is the WebGPU device, `cpu`
//! is `Device::flex()`.

use burn::backend::{Dispatch, ops::FloatTensorOps};
use burn::tensor::{Device, Tensor, TensorData, Transaction};

use super::{Engine, panic_capture};
use crate::model::gallery_case::GalleryCase;
use crate::model::outcome::CaseOutcome;

impl Engine {
    /// Runs `case` with the GPU device and the CPU device.
    pub async fn run_case(&self, case: GalleryCase) -> CaseOutcome {
        let Ok(gpu) = &self.gpu else {
            return CaseOutcome::Unavailable(
                "This snippet needs WebGPU and the CPU side by side, and WebGPU is not available here."
                    .to_owned(),
            );
        };
        let (gpu, cpu) = (gpu.device.clone(), self.cpu.clone());
        match panic_capture::catching_async(run(case, gpu, cpu)).await {
            Ok(description) => CaseOutcome::Completed(description),
            Err(report) => CaseOutcome::Panicked(*report),
        }
    }
}

/// What a transaction that did not panic read.
fn read(result: Result<Vec<TensorData>, burn::tensor::ExecutionError>) -> String {
    match result {
        Ok(data) => format!("The snippet ran: read {} tensors.", data.len()),
        Err(error) => format!("The transaction failed without a panic: {error:?}"),
    }
}

async fn run(case: GalleryCase, gpu: Device, cpu: Device) -> String {
    match case {
        GalleryCase::CatAcrossBackends => {
            // case: CatAcrossBackends
            let a = Tensor::<1>::from_floats([1.0], &gpu);
            let b = Tensor::<1>::from_floats([2.0], &cpu);
            let joined = Tensor::cat(vec![a, b], 0);
            // end case
            format!("The snippet ran: shape {:?}.", joined.dims())
        }
        GalleryCase::BackendMoveOutOfAutodiff => {
            // case: BackendMoveOutOfAutodiff
            let x = Tensor::<1>::from_floats([1.0], &gpu.autodiff());
            let moved = <Dispatch as FloatTensorOps<Dispatch>>::float_to_device(
                x.into_dispatch(),
                cpu.as_dispatch(),
            );
            // end case
            format!("The snippet ran: moved to {:?}.", moved.kind)
        }
        GalleryCase::TransactionAcrossBackends => {
            // case: TransactionAcrossBackends
            let a = Tensor::<1>::from_floats([1.0], &gpu);
            let b = Tensor::<1>::from_floats([2.0], &cpu);
            let result = Transaction::default()
                .register(a)
                .register(b)
                .execute_async()
                .await;
            // end case
            read(result)
        }
        GalleryCase::TransactionAutodiffAcrossBackends => {
            // case: TransactionAutodiffAcrossBackends
            let a = Tensor::<1>::from_floats([1.0], &gpu.autodiff());
            let b = Tensor::<1>::from_floats([2.0], &cpu.autodiff());
            let result = Transaction::default()
                .register(a)
                .register(b)
                .execute_async()
                .await;
            // end case
            read(result)
        }
        GalleryCase::TransactionAutodiffThenPlain => {
            // case: TransactionAutodiffThenPlain
            let a = Tensor::<1>::from_floats([1.0], &gpu.clone().autodiff());
            let b = Tensor::<1>::from_floats([2.0], &gpu);
            let result = Transaction::default()
                .register(a)
                .register(b)
                .execute_async()
                .await;
            // end case
            read(result)
        }
    }
}
