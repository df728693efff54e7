/// The CubeCL kernel, in its own module: CubeCL's `Tensor` is not burn's.
mod kernel {
    use cubecl::prelude::*;

    /// One invocation per output element: `output[i] = input[i] · factor`.
    #[cube(launch)]
    pub fn scale_kernel<F: Float>(
        input: &Tensor<F>,
        output: &mut Tensor<F>,
        factor: InputScalar,
        #[define(F)] _dtype: ElemType,
    ) {
        if ABSOLUTE_POS >= output.len() {
            terminate!();
        }
        output[ABSOLUTE_POS] = input[ABSOLUTE_POS] * factor.get::<F>();
    }
}

/// Elements handled by one cube (workgroup).
const CUBE_SIZE: u32 = 256;

/// Forward on the CubeCL backend (WebGPU in the browser): launches [`kernel::scale_kernel`].
fn forward_cube(x: CubeTensor, factor: f32) -> CubeTensor {
    let x = into_contiguous(x);
    let dtype = x.dtype;
    let elements = x.meta.num_elements();
    let buffer = x.client.empty(elements * dtype.size());
    let output =
        CubeTensor::new_contiguous(x.client.clone(), x.device.clone(), x.shape(), buffer, dtype);
    // One dimension of cubes: 65,535 of them (WebGPU's limit per dimension) cover 16 M elements.
    let cubes = (elements as u32).div_ceil(CUBE_SIZE);
    let client = x.client.clone();
    kernel::scale_kernel::launch(
        &client,
        CubeCount::Static(cubes, 1, 1),
        CubeDim::new_1d(CUBE_SIZE),
        x.into_tensor_arg(),
        output.clone().into_tensor_arg(),
        InputScalar::new(factor, dtype_to_storage_type(dtype)),
        dtype_to_storage_type(dtype),
    );
    output
}

/// Forward on the Flex CPU backend: Flex's own scalar multiply.
fn forward_flex(
    x: FloatTensor<burn::backend::Flex>,
    factor: f32,
) -> FloatTensor<burn::backend::Flex> {
    burn::backend::Flex::float_mul_scalar(x, factor.into())
}
