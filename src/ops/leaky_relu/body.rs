/// `max(x, 0) + slope · min(x, 0)`, from differentiable primitives only: on an autodiff backend
/// each of them records its own backward step.
fn leaky_relu_body<B: Backend>(x: FloatTensor<B>, slope: f32) -> FloatTensor<B> {
    let positive = B::float_clamp_min(x.clone(), 0.0f32.into());
    let negative = B::float_clamp_max(x, 0.0f32.into());
    B::float_add(positive, B::float_mul_scalar(negative, slope.into()))
}
