// The URL holds the whole scenario: a copied link reproduces the run, and back/forward step
// through the toggles.
import { test, expect } from '@playwright/test';
import { Playground } from '../pages/playground.js';
import { shown } from '../golden.js';

test('a permalink opened in a new page reproduces the outcome', async ({ page, context }) => {
  const playground = new Playground(page);
  await playground.open();
  await playground.selectOp('leaky_relu');
  await playground.typeTensor('-4, 2; 0.5, -1');
  await playground.typeParam('0.5');
  await playground.setDeclaresAutodiff(true);
  await playground.setRequireGrad(true);
  expect(await playground.text('output-values')).toBe(shown([-2, 2, 0.5, -0.5]));
  expect(await playground.text('output-meta')).toBe('[2, 2] F32');
  const link = page.url();

  const other = new Playground(await context.newPage());
  await other.page.goto(link);
  await other.waitForEngine();
  await other.settled();
  expect(await other.text('output-values')).toBe(shown([-2, 2, 0.5, -0.5]));
  expect(await other.text('gradient-values')).toBe(shown([0.5, 1, 1, 0.5]));
  await expect(other.tensorField).toHaveValue('-4, 2; 0.5, -1');
  await expect(other.page.locator('input[name="declares-autodiff"][value="yes"]')).toBeChecked();
});

test('back and forward step through toggles', async ({ page }) => {
  const playground = new Playground(page);
  await playground.open();
  expect(await playground.outcomeKind()).toBe('panicked');
  await playground.setDeclaresAutodiff(true);
  expect(await playground.outcomeKind()).toBe('completed');
  await page.goBack();
  await playground.settled();
  await expect(page.locator('input[name="declares-autodiff"][value="no"]')).toBeChecked();
  expect(await playground.text('panic-message')).toBe(
    'not implemented: Autodiff not supported for custom op `shift_ids`',
  );
  await page.goForward();
  await playground.settled();
  expect(await playground.outcomeKind()).toBe('completed');
});

test('hostile links are ignored with a notice and never rendered as HTML', async ({ page }) => {
  const playground = new Playground(page);
  const script = encodeURIComponent('<img src=x onerror="window.__pwned=1">');
  await playground.open(`?op=${script}&grad=off&${script}=1&x=${script}`);
  const notices = page.getByTestId('url-notices');
  await expect(notices).toContainText('Ignored “op” in the link');
  await expect(page.locator('img')).toHaveCount(0);
  expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
  // The tensor text is kept as text and explained next to its field.
  expect(await playground.fieldError('tensor')).toBe('Value 1 (`<img`) is not a number.');
});
