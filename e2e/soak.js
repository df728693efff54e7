// The soak: runs through the page's own navigation, cycling every cell of the golden table that
// runs to a result, each outcome exact, all on one long-lived engine worker (a panic would replace
// it: panics have their own test, recovery.spec.js); samples that worker's wasm memory and live
// GPU buffers as it goes. And the verdict on those samples, which a leak must fail.
import { expect } from '@playwright/test';
import { engineWorker } from './pages/instrumented-engine.js';
import { query, rowsFor } from './golden.js';

/**
 * The soak's cycle: per op, the four routes a scenario that runs can take (the `Autodiff` impl
 * with its backward, the concrete kernel without and with the without-autodiff fix, the builtin ops).
 */
export const CYCLE = rowsFor('gpu').filter(
  (row) =>
    row.outcome === 'completed' &&
    row.declares_flex &&
    row.require_grad === row.grad_context &&
    ((row.declares_autodiff === 'yes' && row.grad_context && row.fix === 'none') ||
      (row.declares_autodiff === 'no' && !row.grad_context && row.fix === 'none') ||
      (row.declares_autodiff === 'no' && row.grad_context && row.fix !== 'none')),
);

/**
 * Runs `runs` cells of the cycle on `playground` (an instrumented page), sampling the worker
 * that serves them after every full cycle, so that every sample follows the same runs. Resolves
 * with the samples.
 */
export async function soak(playground, runs) {
  const rows = CYCLE;
  const every = rows.length;
  const samples = [];
  for (let run = 0; run < runs; run++) {
    const row = rows[run % rows.length];
    await playground.navigate(query(row));
    expect(await playground.outcomeKind(), `run ${run}: ${row.name}`).toBe(row.outcome);
    if (row.outcome === 'panicked') {
      expect(await playground.text('panic-message'), `run ${run}`).toBe(row.panic_message);
    } else {
      expect(await playground.text('output-values'), `run ${run}`).toBe(row.output);
    }
    if (run % every === every - 1) {
      await expect(playground.engineStatus).toContainText('Engine ready on WebGPU');
      const worker = await engineWorker(playground.page);
      samples.push({
        run: run + 1,
        ...(await worker.evaluate(() => ({
          worker: self.__workerId,
          wasm_memory_bytes: self.__engineMemory.buffer.byteLength,
          live_gpu_buffers: self.__liveGpuBuffers(),
        }))),
      });
    }
  }
  return samples;
}

/**
 * What is wrong with a soak's samples: samples from more than one worker (a replaced worker
 * would hide a leak), or wasm memory or live GPU buffers in the second half above anything in
 * the first half (a footprint that keeps growing). Empty when the soak is clean.
 */
export function leakVerdict(samples) {
  const problems = [];
  if (samples.length < 4) return ['fewer than 4 samples: too few to judge'];
  const workers = new Set(samples.map((sample) => sample.worker));
  if (workers.size !== 1) problems.push(`samples came from ${workers.size} workers, not one long-lived worker`);
  const half = Math.floor(samples.length / 2);
  const [first, second] = [samples.slice(0, half), samples.slice(half)];
  for (const key of ['wasm_memory_bytes', 'live_gpu_buffers']) {
    const ceiling = Math.max(...first.map((sample) => sample[key]));
    const peak = Math.max(...second.map((sample) => sample[key]));
    if (peak > ceiling) problems.push(`${key} grew: ${peak} in the second half, at most ${ceiling} in the first`);
  }
  return problems;
}
