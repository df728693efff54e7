//! What a training run reads back from the device: the losses of each batch of steps, in one
//! transaction started while the next batch is recorded, and every parameter before step 1 and
//! after the last step, with whether step 1 gave it a gradient.

use std::pin::Pin;
use std::task::Poll;

use burn::tensor::{ExecutionError, Tensor, TensorData, Transaction};

use super::model::NamedParam;
use crate::model::training::{LossPoint, ParamReport};

/// Reads the parameters' values before step 1 (`start`) and now (`end`), in one transaction,
/// and pairs them with whether each got a gradient at step 1.
pub(super) async fn read_params(
    start: Vec<NamedParam>,
    end: Vec<NamedParam>,
    gradients: Vec<(String, bool)>,
) -> Result<Vec<ParamReport>, ExecutionError> {
    let names: Vec<String> = start.iter().map(|param| param.name.clone()).collect();
    let transaction = start
        .into_iter()
        .chain(end)
        .fold(Transaction::default(), |transaction, param| {
            transaction.register(param.values)
        });
    let mut values: Vec<Vec<f32>> = transaction
        .execute_async()
        .await?
        .into_iter()
        .map(|data| data.iter::<f32>().collect())
        .collect();
    let end_values = values.split_off(names.len());
    Ok(names
        .into_iter()
        .zip(values.into_iter().zip(end_values))
        .map(|(name, (start, end))| ParamReport {
            has_gradient: gradients
                .iter()
                .any(|(param, has_gradient)| *param == name && *has_gradient),
            name,
            start,
            end,
        })
        .collect())
}

/// The losses of a batch of steps being read back: one transaction for all of them.
pub(super) struct LossReading {
    steps: Vec<u32>,
    read: LossRead,
    /// The transaction's result, when it was ready at the first poll.
    ready: Option<Result<Vec<TensorData>, ExecutionError>>,
}

type LossRead = Pin<Box<dyn Future<Output = Result<Vec<TensorData>, ExecutionError>>>>;

impl LossReading {
    /// Queues the reading of `losses` (step, custom loss, builtin loss) on the device: the
    /// transaction's first poll enqueues its copies and the buffer mapping, then returns.
    pub(super) async fn start(
        losses: impl Iterator<Item = (u32, Tensor<1>, Tensor<1>)>,
    ) -> LossReading {
        let mut steps = Vec::new();
        let transaction = losses.fold(
            Transaction::default(),
            |transaction, (step, custom, builtin)| {
                steps.push(step);
                transaction.register(custom).register(builtin)
            },
        );
        let mut read: LossRead = Box::pin(transaction.execute_async());
        let ready = std::future::poll_fn(|context| {
            Poll::Ready(match read.as_mut().poll(context) {
                Poll::Ready(result) => Some(result),
                Poll::Pending => None,
            })
        })
        .await;
        LossReading { steps, read, ready }
    }

    /// Waits for the values and pairs them with their steps.
    pub(super) async fn finish(self) -> Result<Vec<LossPoint>, ExecutionError> {
        let data = match self.ready {
            Some(result) => result?,
            None => self.read.await?,
        };
        let values: Vec<f32> = data
            .into_iter()
            .map(|data| data.iter::<f32>().next().unwrap_or(f32::NAN))
            .collect();
        Ok(self
            .steps
            .into_iter()
            .zip(values.chunks(2))
            .map(|(step, pair)| LossPoint {
                step,
                custom: pair[0],
                builtin: pair[1],
            })
            .collect())
    }
}
