/// Ints carry no gradient: the impl only has to exist for the routing to accept an autodiff
/// context.
impl<B: Backend, C: CheckpointStrategy> ShiftIdsOps for Autodiff<B, C> {}
