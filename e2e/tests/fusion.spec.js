// burn built with its `fusion` feature: a second engine, loaded only when a visitor turns fusion
// on. Its cells are compared with the golden table the native matrix writes with the same build
// (tests/golden/matrix-fusion.json): outputs, gradients, the implementations that ran and when
// the queued ones executed, the metadata trap's panic, and what rustc says about a declaration
// that does not build under fusion.
import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { Playground } from '../pages/playground.js';
import { Training } from '../pages/training.js';
import { FUSION_ROWS, query } from '../golden.js';

/** The training cells the native tests ran with burn's fusion (tests/golden/training-fusion.json). */
const TRAINING = JSON.parse(
  readFileSync(new URL('../../tests/golden/training-fusion.json', import.meta.url), 'utf8'),
);

/** A call as the training table lists it: a deferred call without the step it ran in, which
 * depends on what the engine ran before (tests/training.rs: golden_impl_text). */
const golden = (call) => call.replace(/ \(ran .*\)$/, ' (deferred)');

/** The steps a queued kernel can be recorded in. When fusion executes its queue is the
 * engine's own business: natively the kernels a single run queues run at the read back, in a
 * browser some run as soon as the forward pass queued them. Each page names the step its own
 * kernel recorded itself in; the tests check that the name is one of these and that the
 * panic's explanation agrees with the list the card shows. */
const DEFERRED = /\(ran (when the results were read back|during the optimizer step|during the backward pass|during the forward pass|while the CPU reference was computed)\)$/;

/** Asserts the deferred calls in `calls` name a step a kernel runs in, and returns the calls as
 * the training table lists them. */
function withoutStep(calls) {
  for (const call of calls.filter((call) => call.includes('(ran '))) expect(call).toMatch(DEFERRED);
  return calls.map(golden);
}

const FUSION_FILE = /engine-(worker|bootstrap)-fusion/;

/** The cells walked here: every line that lists `Fusion` called as written (fix none) on
 * WebGPU, every cell of the metadata trap, and each line that does not build under fusion in a
 * grad context. */
const SAMPLE = FUSION_ROWS.filter(
  (row) =>
    row.backend === 'gpu' &&
    ((row.declares_fusion !== 'no' && row.fix === 'none') ||
      row.panic_message?.startsWith('range end index') ||
      (row.outcome === 'not-built' && row.fix === 'none' && row.grad_context)),
);

test('a first visit never downloads the fusion engine, nor does its service worker keep it', async ({ browser }) => {
  const context = await browser.newContext({ serviceWorkers: 'allow' });
  const page = await context.newPage();
  const requested = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  const playground = new Playground(page);
  await playground.open();
  await expect(playground.engineStatus).toContainText('Engine ready on WebGPU');
  await expect
    .poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.state ?? null), {
      timeout: 60_000,
    })
    .toBe('activated');
  // The service worker cached the build it installed with; the fusion files are not in it.
  const kept = await page.evaluate(async () => {
    const urls = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
    }
    return urls;
  });
  expect(kept.some((path) => path.endsWith('engine-worker_bg.wasm')), kept.join('\n')).toBe(true);
  expect(kept.filter((path) => FUSION_FILE.test(path))).toEqual([]);
  expect(requested.filter((path) => FUSION_FILE.test(path))).toEqual([]);
  await context.close();
});

test('turning fusion on loads the fusion engine; turning it off goes back', async ({ page }) => {
  const requested = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  const playground = new Playground(page);
  await playground.open('?op=scale&declares_autodiff=yes&grad=on&require_grad=on&x=1,-2&param=3');
  await expect(page.locator('#declares-fusion')).toBeDisabled();
  await Promise.all([page.waitForURL(/[?&]fusion=on/), page.locator('#burn-fusion').check()]);
  await playground.waitForEngine();
  await playground.settled();
  await expect(playground.engineStatus).toContainText('Engine (burn built with fusion) ready on WebGPU');
  expect(requested.some((path) => path.endsWith('engine-worker-fusion_bg.wasm'))).toBe(true);
  // The declaration and inputs came through the reload; fusion's form is then chosen here.
  await expect(page.locator('#declares-fusion')).toBeEnabled();
  await page.locator('#declares-fusion').selectOption('shape');
  await playground.settled();
  expect(new URL(page.url()).searchParams.get('declares_fusion')).toBe('shape');
  expect(await playground.text('output-values')).toBe('3, -6');
  expect(await playground.text('gradient-values')).toBe('3, 3');
  await Promise.all([page.waitForURL((url) => !url.searchParams.has('fusion')), page.locator('#burn-fusion').uncheck()]);
  await playground.waitForEngine();
  await playground.settled();
  await expect(playground.engineStatus).toContainText('Engine ready on WebGPU');
  expect(await playground.text('output-values')).toBe('3, -6');
});

test('at 390 px the fusion controls, a queued kernel and rustc\'s diagnostic fit the width', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const playground = new Playground(page);
  await playground.open('?op=scale&declares_autodiff=yes&grad=on&require_grad=on&x=1,-2&param=3&fusion=on&declares_fusion=shape');
  await playground.settled();
  expect(await playground.text('gradient-values')).toBe('3, 3');
  expect(await playground.sidewaysOverflow()).toBe(0);
  await page.screenshot({ path: test.info().outputPath('fusion-queued-390.png'), fullPage: true });
  // scale's impl is written for CubeBackend: without the Fusion selector it does not build.
  await playground.navigate('op=scale&declares_autodiff=yes&grad=on&fusion=on');
  expect(await playground.outcomeKind()).toBe('not-built');
  expect(await playground.sidewaysOverflow()).toBe(0);
  await page.screenshot({ path: test.info().outputPath('fusion-not-built-390.png'), fullPage: true });
  await context.close();
});

const TRAITS = { scale: 'ScaleOps', leaky_relu: 'LeakyReluOps', shift_ids: 'ShiftIdsOps' };

/** Asserts the routing view marks, in the `Fusion<B>` impl, the call its queue ran and the line
 * that queued it exactly when the op's kernel ran from the queue. */
async function expectQueuedMarks(playground, row, kernelRan) {
  const marked = await playground.queuedLines();
  if (!kernelRan) {
    expect(marked, `${row.name}: nothing queued ran`).toEqual([]);
    return;
  }
  expect(marked, `${row.name}: the Fusion<B> impl's marks`).toHaveLength(2);
  expect(marked[0].startsWith(`let __output = <B as ${TRAITS[row.op]}>::${row.op}(`), marked[0]).toBe(true);
  expect(marked[1]).toBe('.register(');
  expect(await playground.routingNote()).toContain(
    'In the impl for Fusion<B> further down, the line that queued the op and the call its queue ran later are marked.',
  );
}

test.describe('the fusion table', () => {
  // One page on the fusion engine for all cells, in order.
  test.describe.configure({ mode: 'default' });
  let playground;
  test.beforeAll(async ({ browser }) => {
    playground = new Playground(await browser.newPage());
    await playground.open(`?${query(SAMPLE[0])}`);
    await expect(playground.engineStatus).toContainText('Engine (burn built with fusion) ready on WebGPU');
  });

  for (const row of SAMPLE) {
    test(row.name, async () => {
      await playground.navigate(query(row));
      if (row.outcome === 'not-built') {
        expect(await playground.outcomeKind()).toBe('not-built');
        const diagnostic = await playground.text('rustc-diagnostic');
        expect(diagnostic.split('\n')[0]).toBe(row.diagnostic);
        return;
      }
      if (row.panic_meaning?.includes('the queued kernel had run')) {
        // The wrong declared shape: the explanation says whether the kernel had run, which the
        // card's list of what ran before the panic shows.
        const ran = await playground.outcomePanel.getByTestId('panic-impls').locator('li').allTextContents();
        const kernelRan = withoutStep(ran).includes(`CubeBackend::${row.op} (deferred)`);
        const meaning = row.panic_meaning.replace(
          /(before|after) the queued kernel had run/,
          `${kernelRan ? 'after' : 'before'} the queued kernel had run`,
        );
        await playground.expectGoldenRow({ ...row, panic_meaning: meaning });
        expect(await playground.routingNote()).toContain(
          'The last run called this code, and its panic is not one the routing raises',
        );
        await expectQueuedMarks(playground, row, kernelRan);
        return;
      }
      await playground.expectGoldenRow(row);
      if (row.outcome === 'completed') {
        const impls = await playground.outcomePanel.getByTestId('impls').locator('li').allTextContents();
        expect(withoutStep(impls), `${row.name}: implementations that ran`).toEqual((row.impls ?? []).map(golden));
        await expectQueuedMarks(playground, row, impls.some((call) => call.startsWith(`CubeBackend::${row.op} (ran `)));
      }
    });
  }
});

test('training with fusion: the queued kernel runs in step 1, and the curve follows the builtin one', async ({ page }) => {
  const playground = new Playground(page);
  await playground.open('?op=scale&declares_autodiff=yes&fusion=on&declares_fusion=shape&fix=none&steps=20&lr=0.05&optimizer=adam');
  await expect(playground.engineStatus).toContainText('Engine (burn built with fusion) ready on WebGPU');
  const training = new Training(playground);
  await training.train();
  expect(await training.ended()).toBe('completed');
  expect(await training.text('train-status')).toBe('Trained 20 steps.');
  expect(Number(await training.panel.getByTestId('train-gap').getAttribute('data-gap'))).toBe(0);
  // Each deferred call names the step it really ran in.
  expect(withoutStep(await training.impls())).toEqual(
    TRAINING['scale::declared_cube_flex_autodiff_fusion::fix_none::gpu'].impls,
  );
});

test('training with the wrong declared shape panics at step 1, where the next op reads it', async ({ page }) => {
  const playground = new Playground(page);
  await playground.open('?op=scale&declares_autodiff=yes&fusion=on&declares_fusion=wrong_shape&fix=none&steps=20');
  const training = new Training(playground);
  await training.train();
  expect(await training.ended()).toBe('panicked');
  const [, message] = TRAINING['scale::declared_cube_flex_autodiff_fusion_flat::fix_none::gpu'].outcome.match(/^panicked at step 1: (.*)$/);
  expect(await training.text('panic-message')).toBe(message);
  expect(await training.text('panic-meaning')).toContain(
    "In the model's forward pass, the next op took its input's dimensions from that declared shape and panicked, before the queued kernel had run.",
  );
});

test('the flattened declared shape on a 1-D input changes nothing, says so, and offers a 2-D input that shows the lesson', async ({ page }) => {
  const playground = new Playground(page);
  // The page's own example input for scale: one dimension.
  await playground.open('?op=scale&declares_autodiff=yes&fusion=on&declares_fusion=wrong_shape&grad=off&require_grad=off&fix=none');
  expect(await playground.outcomeKind()).toBe('completed');
  expect(await playground.text('flattened-shape-note')).toBe(
    "This declaration flattens the output's shape to one dimension, and this input already has one: the declared shape, [3], is the kernel's, [3], so the run shows nothing wrong.",
  );
  await playground.outcomePanel.getByRole('button', { name: 'Try a 2-D input' }).click();
  await playground.settled();
  expect(await playground.tensorField.inputValue()).toBe('1, -2, 3.5; 0.25, -0.5, 8');
  expect(await playground.outcomeKind()).toBe('panicked');
  expect(await playground.text('panic-message')).toBe('range end index 2 out of range for slice of length 1');
  await expect(playground.outcomePanel.getByTestId('flattened-shape-note')).toHaveCount(0);
});
