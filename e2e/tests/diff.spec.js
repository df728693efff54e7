// "Compare with": the routing of the declaration shown, diffed line by line against another
// declaration's, added and removed lines marked, a summary of the arms that appear or vanish, and
// the arm the last run went through still highlighted; the choice lives in the link.
import { test, expect } from '@playwright/test';
import { Playground } from '../pages/playground.js';
import { ROWS } from '../golden.js';

test('comparing with another declaration marks what it adds and keeps the arm that ran', async ({ page }) => {
  const playground = new Playground(page);
  // scale declared with Autodiff, run in a grad context: the Autodiff impl's arm ran.
  const row = ROWS.find((row) => row.name === 'scale::declared_cube_flex_autodiff::grad_context::require_grad::fix_none::gpu');
  await playground.open('?op=scale&declares_autodiff=yes&declares_flex=yes&grad=on&require_grad=on&fix=none&x=1, -2, 3.5; 0.25, -0.5, 8&param=2.5');
  await expect(page.getByTestId('diff-summary')).toHaveCount(0);
  await expect(page.locator('.routing .line-added')).toHaveCount(0);
  await page.locator('#compare').selectOption('cube_flex');
  // Without Autodiff the routing has no arm for a wrapped tensor: that arm is what Autodiff adds.
  const summary = page.getByTestId('diff-summary');
  await expect(summary).toContainText('`Cube, Flex, Autodiff` against `Cube, Flex`:');
  await expect(summary).toContainText('Arms it adds: ');
  await expect(summary).toContainText('`(true, burn::backend::DispatchAutodiffContext::Enabled(__strategy))`');
  expect(await page.locator('.routing .line-added').count()).toBeGreaterThan(0);
  // The arm that ran is still marked, on the shown declaration's own lines.
  expect(await playground.focusLines()).toEqual(row.highlight_focus);
  // The link keeps the comparison; the page opened from it shows it again.
  expect(new URL(page.url()).searchParams.get('compare')).toBe('cube_flex');
  await page.reload();
  await expect(page.getByTestId('diff-summary')).toContainText('`Cube, Flex, Autodiff` against `Cube, Flex`:');
  // The feature-on build of the cfg-gated declaration against Autodiff listed plainly: the same
  // behaviour, another template.
  await page.locator('input[name="declares-autodiff"][value="cfg_on"]').check();
  await playground.settled();
  await page.locator('#compare').selectOption('cube_flex_autodiff');
  await expect(page.getByTestId('diff-summary')).toContainText('against `Cube, Flex, Autodiff`:');
  await expect(page.locator('.routing .line-added').filter({ hasText: '__concrete_strategy' }).first()).toBeAttached();
});
