/// The op under autodiff: runs `B::scale` on the inner tensor and records a `ScaleBackward`
/// step, so `backward()` can carry the gradient through.
impl<B: ScaleOps, C: CheckpointStrategy> ScaleOps for Autodiff<B, C> {
    fn scale(x: FloatTensor<Self>, factor: f32) -> FloatTensor<Self> {
        trace::record::<Self>("scale");
        let (primitive, node) = x.into_parts();
        match ScaleBackward
            .prepare::<C>([node])
            .compute_bound()
            .stateful()
        {
            // The backward needs only the factor, not the input or output.
            OpsKind::Tracked(prep) => prep.finish(factor, B::scale(primitive, factor)),
            OpsKind::UnTracked(prep) => prep.finish(B::scale(primitive, factor)),
        }
    }
}
