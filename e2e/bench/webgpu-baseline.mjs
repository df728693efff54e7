// The raw-WebGPU baseline: the same `scale` kernel (y = factor · x) written directly against
// the browser's WebGPU API, run in the playground's own page. Per run: create and fill the input
// buffer, dispatch, copy to a readback buffer, map it and read the values — what the playground
// does for one op, minus burn, the worker and the UI. The pipeline is created once, as burn
// caches its kernels.

/** The timings (ms) of `runs` runs per size, measured inside `page`: one array per size. */
export async function runBaseline(page, sizes, runs) {
  return page.evaluate(
    async ({ sizes, runs }) => {
      const adapter = await navigator.gpu.requestAdapter();
      const device = await adapter.requestDevice();
      const module = device.createShaderModule({
        code: `
          @group(0) @binding(0) var<storage, read> input: array<f32>;
          @group(0) @binding(1) var<storage, read_write> output: array<f32>;
          @group(0) @binding(2) var<uniform> factor: f32;
          @compute @workgroup_size(256)
          fn main(@builtin(global_invocation_id) id: vec3<u32>) {
            if (id.x < arrayLength(&input)) { output[id.x] = input[id.x] * factor; }
          }`,
      });
      const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
      const results = [];
      for (const size of sizes) {
        const data = new Float32Array(size).map((_, i) => ((i % 1000) - 500) / 8);
        const bytes = size * 4;
        const samples = [];
        const count = size >= 1048576 ? Math.min(runs, 20) : runs;
        for (let i = 0; i < count + 1; i++) {
          const started = performance.now();
          const input = device.createBuffer({ size: bytes, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
          const output = device.createBuffer({ size: bytes, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
          const uniform = device.createBuffer({ size: 4, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
          const readback = device.createBuffer({ size: bytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
          device.queue.writeBuffer(input, 0, data);
          device.queue.writeBuffer(uniform, 0, new Float32Array([2.5]));
          const bindGroup = device.createBindGroup({
            layout: pipeline.getBindGroupLayout(0),
            entries: [
              { binding: 0, resource: { buffer: input } },
              { binding: 1, resource: { buffer: output } },
              { binding: 2, resource: { buffer: uniform } },
            ],
          });
          const encoder = device.createCommandEncoder();
          const pass = encoder.beginComputePass();
          pass.setPipeline(pipeline);
          pass.setBindGroup(0, bindGroup);
          pass.dispatchWorkgroups(Math.ceil(size / 256));
          pass.end();
          encoder.copyBufferToBuffer(output, 0, readback, 0, bytes);
          device.queue.submit([encoder.finish()]);
          await readback.mapAsync(GPUMapMode.READ);
          const result = new Float32Array(readback.getMappedRange().slice(0));
          readback.unmap();
          [input, output, uniform, readback].forEach((buffer) => buffer.destroy());
          if (result[1] !== data[1] * 2.5) throw new Error('baseline computed a wrong value');
          // The first run compiles the pipeline: not counted, as burn's first run is not.
          if (i > 0) samples.push(performance.now() - started);
        }
        results.push(samples);
      }
      device.destroy();
      return results;
    },
    { sizes, runs },
  );
}
