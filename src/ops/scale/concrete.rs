/// On the CubeCL backend (WebGPU in the browser): the hand-written kernel.
impl ScaleOps for Cube {
    fn scale(x: FloatTensor<Self>, factor: f32) -> FloatTensor<Self> {
        trace::record::<Self>("scale");
        forward_cube(x, factor)
    }
}

/// On the Flex CPU backend.
impl ScaleOps for Flex {
    fn scale(x: FloatTensor<Self>, factor: f32) -> FloatTensor<Self> {
        trace::record::<Self>("scale");
        forward_flex(x, factor)
    }
}
