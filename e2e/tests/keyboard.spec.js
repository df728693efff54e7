// Running from the keyboard: every way to start a run starts exactly one, keeps the focus and the
// text where they were, and never submits the form as a navigation.
import { test, expect } from '@playwright/test';
import { Playground } from '../pages/playground.js';
import { shown } from '../golden.js';

test('the Run button, Enter in the parameter field and Ctrl+Enter each run once', async ({ page }) => {
  const playground = new Playground(page);
  await playground.open('?op=scale&declares_autodiff=no&grad=off&require_grad=off&fix=none&x=1,-2&param=3');
  const url = page.url();
  const expectRun = async (runsBefore) => {
    await expect.poll(() => playground.runsShown()).toBe(runsBefore + 1);
    await playground.settled();
    expect(await playground.runsShown()).toBe(runsBefore + 1);
    expect(await playground.text('output-values')).toBe(shown([3, -6]));
    expect(page.url()).toBe(url);
  };

  let runs = await playground.runsShown();
  await playground.run();
  await expectRun(runs);

  runs = await playground.runsShown();
  await playground.paramField.focus();
  await page.keyboard.press('Enter');
  await expectRun(runs);
  await expect(playground.paramField).toBeFocused();
  await expect(playground.paramField).toHaveValue('3');

  runs = await playground.runsShown();
  await playground.tensorField.focus();
  await page.keyboard.press('Control+Enter');
  await expectRun(runs);
  await expect(playground.tensorField).toBeFocused();
  await expect(playground.tensorField).toHaveValue('1,-2');
});
