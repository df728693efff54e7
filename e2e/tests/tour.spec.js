// The guided first visit: opens by itself on the plain page, walks six steps with the keyboard,
// each doing its action on the real controls, closes with Esc, stays closed, reopens from its
// button, never opens over a shared link's scenario, and fits a phone.
import { test, expect } from '@playwright/test';
import { Playground } from '../pages/playground.js';

test('the tour walks its steps from the keyboard, each on the real control', async ({ page }) => {
  const playground = new Playground(page);
  await playground.open('', { tour: true });
  const tour = page.getByTestId('tour');
  await expect(tour).toBeVisible();
  await expect(tour.locator('.tour-progress')).toHaveText('Step 1 of 6');
  await expect(page.locator('#tour-heading')).toBeFocused();
  await expect(page.locator('#tour-heading')).toHaveText('The panic');
  expect(await playground.outcomeKind()).toBe('panicked');

  // Next is the second button after the heading: Tab past Back (disabled, so skipped).
  const next = async (title) => {
    await tour.getByRole('button', { name: 'Next' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.locator('#tour-heading')).toHaveText(title);
    await expect(page.locator('#tour-heading')).toBeFocused();
    await playground.settled();
  };
  await next('The declaration');
  await expect(page.locator('input[name="declares-autodiff"][value="yes"]')).toBeChecked();
  await expect(page.locator('#autodiff-choices')).toHaveClass(/tour-target/);
  expect(await playground.outcomeKind()).toBe('completed');

  await next('The grad context');
  await expect(page.getByRole('checkbox', { name: /Grad context/ })).not.toBeChecked();
  expect(await playground.outcomeKind()).toBe('completed');

  await next('The fixes');
  expect(await playground.outcomeKind()).toBe('panicked');
  await expect(playground.outcomePanel.locator('.fixes')).toHaveClass(/tour-target/);

  await next('Training');
  await expect(page.locator('section.training')).toHaveClass(/tour-target/);
  await expect(page.locator('section.training').getByTestId('train-status')).toBeVisible();

  // The fusion switch is pointed at, not switched: switching reloads the page with that engine.
  await next('Fusion');
  await expect(page.locator('#fusion-choice')).toHaveClass(/tour-target/);
  await expect(page.locator('#burn-fusion')).not.toBeChecked();

  await page.keyboard.press('Escape');
  await expect(tour).toHaveCount(0);
  // Remembered: a reload does not open it again; the Tour button does.
  await page.goto('/index.html');
  await playground.waitForEngine();
  await expect(tour).toHaveCount(0);
  await page.getByRole('button', { name: 'Tour', exact: true }).click();
  await expect(tour.locator('.tour-progress')).toHaveText('Step 1 of 6');
  await tour.getByRole('button', { name: 'Close the tour' }).click();
  await expect(tour).toHaveCount(0);
});

test('the tour never opens over a shared link, and leaves its scenario alone', async ({ page }) => {
  const playground = new Playground(page);
  await playground.open('?op=scale&declares_autodiff=yes&grad=on&require_grad=on&x=1,2&param=3', { tour: true });
  await expect(page.getByTestId('tour')).toHaveCount(0);
  expect(await playground.text('output-values')).toBe('3, 6');
});

test('on a phone the tour sits across the bottom and the page does not scroll sideways', async ({ browser }) => {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const playground = new Playground(page);
  await playground.open('', { tour: true });
  const box = await page.getByTestId('tour').boundingBox();
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  expect(box.y + box.height).toBeLessThanOrEqual(844);
  expect(await playground.sidewaysOverflow()).toBe(0);
});
