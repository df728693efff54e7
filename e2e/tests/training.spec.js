// Training in the page: the op inside real optimisation steps on WebGPU, the loss curves growing
// as the steps stream in, a stop that ends a run, the panic at step 1 and its fixes, the frozen
// parameters of the no-grad fix, a diverging run, and the settings' messages.
import { test, expect } from '@playwright/test';
import { Playground } from '../pages/playground.js';

class Training {
  constructor(playground) {
    this.page = playground.page;
    this.playground = playground;
    this.panel = this.page.locator('section.training');
    this.status = this.panel.getByTestId('train-status');
    this.chart = this.panel.getByTestId('loss-chart');
  }

  async settings({ steps, lr, optimizer } = {}) {
    if (steps !== undefined) await this.page.locator('#train-steps').fill(steps);
    if (lr !== undefined) await this.page.locator('#train-lr').fill(lr);
    if (optimizer !== undefined) await this.page.locator('#train-optimizer').selectOption(optimizer);
  }

  async train() {
    await this.panel.getByTestId('train-button').click();
  }

  /** Waits for the run to end; returns its end state (completed, stopped, diverged, panicked). */
  async ended() {
    await expect(this.status).not.toHaveAttribute('data-state', 'running', { timeout: 120_000 });
    return this.status.getAttribute('data-state');
  }

  points() {
    return this.chart.getAttribute('data-points').then(Number);
  }

  text(testId) {
    return this.panel.getByTestId(testId).innerText();
  }
}

test('with Autodiff declared, the curve grows as it trains and equals the builtin one', async ({ page }) => {
  const playground = new Playground(page);
  await playground.open('?op=scale&declares_autodiff=yes&fix=none&steps=40&lr=0.05&optimizer=adam');
  const training = new Training(playground);
  await training.train();
  // The curve grows while the run goes on: two readings of it, both before the end.
  await expect(training.status).toHaveAttribute('data-state', 'running');
  await expect.poll(() => training.points(), { timeout: 60_000 }).toBeGreaterThan(0);
  const early = await training.points();
  await expect.poll(() => training.points(), { timeout: 60_000 }).toBeGreaterThan(early);
  expect(await training.ended()).toBe('completed');
  expect(await training.text('train-status')).toBe('Trained 40 steps.');
  // Every recorded step: the custom model's loss is the builtin model's.
  expect(Number(await training.text('train-gap'))).toBeLessThanOrEqual(1e-5);
  expect(await training.text('train-gradients')).toBe('Every parameter received a gradient.');
  // 40 steps, read back at every step.
  expect(await training.points()).toBe(40);
});

test('a stop button ends a long run at once', async ({ page }) => {
  const playground = new Playground(page);
  await playground.open('?op=leaky_relu&declares_autodiff=yes&fix=none&steps=1000&lr=0.01');
  const training = new Training(playground);
  await training.train();
  await expect.poll(() => training.points(), { timeout: 60_000 }).toBeGreaterThan(1);
  await training.panel.getByTestId('stop-button').click();
  expect(await training.ended()).toBe('stopped');
  expect(await training.text('train-status')).toMatch(/^Stopped after step \d+ of 1000\.$/);
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
  await training.panel.getByRole('button', { name: 'Declare Autodiff', exact: true }).click();
  expect(await training.ended()).toBe('completed');
  expect(await training.text('train-status')).toBe('Trained 40 steps.');
  await expect(page.locator('input[name="declares-autodiff"][value="yes"]')).toBeChecked();
});

test('the no-grad fix runs, but the layer before the op gets no gradient and the loss stalls', async ({ page }) => {
  const playground = new Playground(page);
  await playground.open('?op=leaky_relu&declares_autodiff=no&fix=detach&steps=60');
  const training = new Training(playground);
  await training.train();
  expect(await training.ended()).toBe('completed');
  expect(await training.text('train-gradients')).toMatch(/^No gradient reached hidden\.weight, hidden\.bias: frozen/);
  const [custom, builtin] = (await training.text('train-final')).match(/custom (\S+) · builtin (\S+)/).slice(1).map(Number);
  expect(custom).toBeGreaterThan(builtin);
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
