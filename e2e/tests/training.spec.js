// Training in the page: the op inside real optimisation steps on WebGPU, the loss curves growing
// as the steps stream in, a stop that ends a run, the panic at step 1 and its fixes, the
// parameters the without-autodiff fix leaves alone, a diverging run, and the settings' messages.
//
// Nothing here samples an intermediate state with a timer: the chart's states are recorded as the
// page renders them (a MutationObserver installed before the page loads), and a test that must act
// while a run is in progress holds the engine's worker after its first progress message
// (instrumented-engine.js: holdTraining).
import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { Playground } from '../pages/playground.js';
import { holdTraining, instrumentEngine } from '../pages/instrumented-engine.js';
import { Training } from '../pages/training.js';

/** The training cells the native tests ran (tests/golden/training.json). */
const TRAINING = JSON.parse(readFileSync(new URL('../../tests/golden/training.json', import.meta.url), 'utf8'));

test('with Autodiff declared, the curve grows as it trains and follows the builtin one', async ({ page }) => {
  await Training.record(page);
  const playground = new Playground(page);
  await playground.open('?op=scale&declares_autodiff=yes&fix=none&steps=40&lr=0.05&optimizer=adam');
  const training = new Training(playground);
  await training.train();
  expect(await training.ended()).toBe('completed');
  // The stream the page rendered: the chart grew point by point while the run was in progress,
  // then the finished run showed all 40.
  const states = await training.states();
  const running = states.filter((state) => state.state === 'running').map((state) => state.points);
  expect(running.length, JSON.stringify(states)).toBeGreaterThanOrEqual(3);
  expect(running.slice(1).every((points, index) => points > running[index]), JSON.stringify(running)).toBe(true);
  expect(states.at(-1)).toEqual({ state: 'completed', points: 40 });
  expect(await training.text('train-status')).toBe('Trained 40 steps.');
  // The custom model follows the builtin one at every recorded step: the gap is read exactly.
  const gap = Number(await training.panel.getByTestId('train-gap').getAttribute('data-gap'));
  expect(gap).toBeGreaterThanOrEqual(0);
  expect(gap).toBeLessThanOrEqual(1e-5);
  expect(await training.text('train-gradients')).toBe('Every parameter received a gradient at step 1.');
  // What ran in step 1 is the op's own Autodiff impl and its backward, as natively.
  expect(await training.impls()).toEqual(TRAINING['scale::declared_cube_flex_autodiff::fix_none::gpu'].impls);
  expect(await training.text('train-request')).toContain(' · WebGPU · ');
});

test('a stop ends a run that is in progress', async ({ page }) => {
  await instrumentEngine(page, { holdTraining: true });
  const { held, release } = await holdTraining(page);
  const playground = new Playground(page);
  await playground.open('?op=leaky_relu&declares_autodiff=yes&fix=none&steps=1000&lr=0.01');
  const training = new Training(playground);
  await training.train();
  // The worker posted its first progress and waits: the run is certainly in progress.
  await held;
  await expect(training.status).toHaveAttribute('data-state', 'running');
  await expect(training.panel.getByTestId('train-button')).toHaveText('Training…');
  await training.panel.getByTestId('stop-button').click();
  release();
  expect(await training.ended()).toBe('stopped');
  const [, step] = (await training.text('train-status')).match(/^Stopped after step (\d+) of 1000\.$/);
  expect(Number(step)).toBeLessThan(1000);
});

test('without Autodiff the model panics at step 1; declaring it trains', async ({ page }) => {
  const playground = new Playground(page);
  await playground.open('?op=shift_ids&declares_autodiff=no&fix=none&steps=40');
  const training = new Training(playground);
  await training.train();
  expect(await training.ended()).toBe('panicked');
  expect(await training.text('train-status')).toBe('burn panicked at step 1: a training loop stops here.');
  expect(await training.text('panic-message')).toBe(
    'not implemented: Autodiff not supported for custom op `shift_ids`',
  );
  // The fix code is the model's call.
  const fix = training.panel.locator('.fix[data-fix="Call it without autodiff"]');
  await expect(fix.getByTestId('fix-before')).toHaveText('let ids = shift_ids(ids, 8);');
  await expect(fix.getByTestId('fix-after')).toHaveText('let ids = shift_ids(ids.without_autodiff(), 8);');
  await training.panel.getByRole('button', { name: 'Declare Autodiff', exact: true }).click();
  expect(await training.ended()).toBe('completed');
  expect(await training.text('train-status')).toBe('Trained 40 steps.');
  expect(await training.impls()).toEqual(TRAINING['shift_ids::declared_cube_flex_autodiff::fix_none::gpu'].impls);
  await expect(page.locator('input[name="declares-autodiff"][value="yes"]')).toBeChecked();
});

test('the without-autodiff fix trains; the layer before the op gets no gradient and keeps its values', async ({ page }) => {
  const playground = new Playground(page);
  await playground.open('?op=leaky_relu&declares_autodiff=no&fix=without_autodiff&steps=60');
  const training = new Training(playground);
  await training.train();
  expect(await training.ended()).toBe('completed');
  expect(await training.text('train-gradients')).toBe(
    'No gradient reached hidden.weight, hidden.bias at step 1. Their values after the last step are their starting values.',
  );
  expect(await training.impls()).toEqual(TRAINING['leaky_relu::declared_cube_flex::fix_without_autodiff::gpu'].impls);
  // What the loss did is read from the two curves: the custom one still falls, less far.
  const final = training.panel.getByTestId('train-final');
  const custom = Number(await final.getAttribute('data-custom'));
  const builtin = Number(await final.getAttribute('data-builtin'));
  expect(custom).toBeGreaterThan(builtin);
  expect(await training.text('train-verdict')).toMatch(
    /^The custom model's loss fell from \S+ at step 1 to \S+ at step 60\. The builtin model's loss got to \S+ by then: \S+× lower\.$/,
  );
});

test('with the builtin fix both models are builtin, and the page says so', async ({ page }) => {
  const playground = new Playground(page);
  await playground.open('?op=scale&declares_autodiff=no&fix=builtin&steps=20');
  const training = new Training(playground);
  await training.train();
  expect(await training.ended()).toBe('completed');
  await expect(training.panel.getByTestId('train-no-impls')).toHaveText('No custom op implementation ran in step 1.');
  expect(await training.text('train-verdict')).toContain('so both models run the same builtin computation');
});

test('a learning rate that makes the loss blow up ends as diverged, not a crash', async ({ page }) => {
  const playground = new Playground(page);
  await playground.open('?op=scale&declares_autodiff=yes&fix=none&steps=400&lr=10&optimizer=sgd');
  const training = new Training(playground);
  await training.train();
  expect(await training.ended()).toBe('diverged');
  expect(await training.text('train-status')).toMatch(/^Diverged: a loss became NaN or infinite by step \d+/);
  // The page is alive: the next run trains.
  await training.settings({ lr: '0.05', optimizer: 'adam', steps: '20' });
  await training.train();
  expect(await training.ended()).toBe('completed');
});

test('bad settings get a message next to their field, and Train waits for good ones', async ({ page }) => {
  const playground = new Playground(page);
  await playground.open('?op=scale&declares_autodiff=yes');
  const training = new Training(playground);
  const button = training.panel.getByTestId('train-button');
  for (const [steps, message] of [
    ['', 'Enter a number of steps.'],
    ['0', 'Steps must be a whole number from 1 to 10,000.'],
    ['-3', 'Steps must be a whole number from 1 to 10,000.'],
    ['10001', 'Steps must be a whole number from 1 to 10,000.'],
    ['1e9', 'Steps must be a whole number from 1 to 10,000.'],
  ]) {
    await training.settings({ steps });
    await expect(page.locator('#train-steps-error')).toHaveText(message);
    await expect(button).toBeDisabled();
  }
  await training.settings({ steps: '20' });
  for (const [lr, message] of [
    ['', 'Enter a learning rate.'],
    ['NaN', 'The learning rate must be a finite number, like 0.05.'],
    ['0', 'The learning rate must be above 0.'],
    ['-1', 'The learning rate must be above 0.'],
    ['1e30', 'The learning rate must be at most 10.'],
  ]) {
    await training.settings({ lr });
    await expect(page.locator('#train-lr-error')).toHaveText(message);
    await expect(button).toBeDisabled();
  }
  await training.settings({ lr: '0.1' });
  await expect(button).toBeEnabled();
  // The settings live in the link.
  const url = new URL(page.url());
  expect([url.searchParams.get('steps'), url.searchParams.get('lr'), url.searchParams.get('optimizer')]).toEqual(['20', '0.1', 'adam']);
});
