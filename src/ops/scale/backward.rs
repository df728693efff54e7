/// d(factor · x)/dx = factor: the incoming gradient is scaled by the same kernel.
#[derive(Debug)]
struct ScaleBackward;

impl<B: ScaleOps> Backward<B, 1> for ScaleBackward {
    type State = f32;

    fn backward(
        self,
        ops: Ops<Self::State, 1>,
        grads: &mut Gradients,
        _checkpointer: &mut Checkpointer,
    ) {
        let [parent] = ops.parents;
        let grad = grads.consume::<B>(&ops.node);
        if let Some(parent) = parent {
            grads.register::<B>(parent.id, B::scale(grad, ops.state));
        }
    }
}
