// Chromium without --enable-unsafe-webgpu has navigator.gpu but no adapter: the page says so and
// every run goes to the CPU backend, where the routing decides by the Flex selector.
import { test, expect } from '@playwright/test';
import { BASE_ARGS, CHROMIUM } from '../playwright.config.js';
import { Playground } from '../pages/playground.js';
import { shown } from '../golden.js';

test.use({ launchOptions: { executablePath: CHROMIUM, args: BASE_ARGS } });

test('without a WebGPU adapter the CPU runs everything', async ({ page }) => {
  const playground = new Playground(page);
  await playground.open();
  await expect(playground.engineStatus).toContainText('WebGPU is not available here');
  await expect(playground.engineStatus).toContainText('burn-flex');
  await expect(page.getByRole('radio', { name: /^WebGPU/ })).toBeDisabled();

  // The default scenario: the int op in a training loop.
  expect(await playground.text('panic-message')).toBe(
    'not implemented: Autodiff not supported for custom op `shift_ids`',
  );

  await playground.selectOp('scale');
  await playground.typeTensor('1, -2, 3.5');
  await playground.typeParam('2.5');
  await playground.setDeclaresAutodiff(true);
  await playground.setRequireGrad(true);
  expect(await playground.outcomeKind()).toBe('completed');
  expect(await playground.text('device')).toBe('CPU · Flex (CPU)');
  expect(await playground.text('output-values')).toBe(shown([2.5, -5, 8.75]));
  expect(await playground.text('gradient-values')).toBe(shown([2.5, 2.5, 2.5]));
});

test('without WebGPU the explanation follows the backend that ran, not the toggle', async ({ page }) => {
  const playground = new Playground(page);
  // Asked for WebGPU, with an op declared for Cube only: the run goes to the CPU, where the op
  // has no arm.
  await playground.open('?op=scale&declares_autodiff=no&declares_flex=no&grad=off&require_grad=off&backend=gpu&x=1&param=2');
  expect(await playground.text('panic-message')).toBe('not implemented: Backend not supported for custom op `scale`');
  expect(await playground.text('panic-meaning')).toMatch(/^The input lives on the Flex backend/);
});

test('without WebGPU training runs on the CPU, and its heading says so', async ({ page }) => {
  const playground = new Playground(page);
  await playground.open('?op=scale&declares_autodiff=yes&fix=none&steps=10&backend=gpu');
  const panel = page.locator('section.training');
  await panel.getByTestId('train-button').click();
  await expect(panel.getByTestId('train-status')).toHaveAttribute('data-state', 'completed', { timeout: 120_000 });
  await expect(panel.getByTestId('train-request')).toContainText(' · CPU · ');
  await expect(panel.getByTestId('train-backend')).toHaveText('CPU · Flex (CPU)');
});
