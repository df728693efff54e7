/// Under autodiff the default body is the implementation: its primitives record their own
/// backward steps.
impl<B: Backend, C: CheckpointStrategy> LeakyReluOps for Autodiff<B, C> {}
