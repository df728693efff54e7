// Panics never take the page down: twenty panicking runs in a row, each followed by a correct
// run, with every input and toggle kept. Each panic traps its engine worker; the next run is
// served by the replacement (the warmed spare).
import { test, expect } from '@playwright/test';
import { Playground } from '../pages/playground.js';
import { engineWorker, instrumentEngine } from '../pages/instrumented-engine.js';
import { shown } from '../golden.js';

test('20 panics, each followed by a correct run, lose nothing', async ({ page }) => {
  await instrumentEngine(page);
  const playground = new Playground(page);
  await playground.open();
  await playground.selectOp('scale');
  await playground.typeTensor('4, -0.5, 16');
  await playground.typeParam('0.25');
  await playground.setDeclaresAutodiff(false);
  await playground.setGradContext(true);
  await playground.setRequireGrad(true);

  await playground.selectFix('without_autodiff');
  let worker = await (await engineWorker(page)).evaluate(() => self.__workerId);
  for (let round = 1; round <= 20; round++) {
    await playground.selectFix('none');
    expect(await playground.outcomeKind(), `round ${round}`).toBe('panicked');
    await expect(playground.outcomePanel.getByTestId('panic-recovery')).toContainText('a new worker took over');
    expect(await playground.text('panic-message')).toBe(
      'not implemented: Backend not supported for custom op `scale`',
    );
    await playground.selectFix('without_autodiff');
    expect(await playground.outcomeKind(), `round ${round}`).toBe('completed');
    expect(await playground.text('output-values')).toBe(shown([1, -0.125, 4]));
    // Served by a worker other than the one that panicked.
    const next = await (await engineWorker(page)).evaluate(() => self.__workerId);
    expect(next, `round ${round}`).not.toBe(worker);
    worker = next;
  }

  await expect(playground.tensorField).toHaveValue('4, -0.5, 16');
  await expect(playground.paramField).toHaveValue('0.25');
  await expect(page.getByRole('checkbox', { name: /Grad context/ })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'x.require_grad()' })).toBeChecked();
  await expect(page.getByRole('radio', { name: /^Without autodiff:/ })).toBeChecked();
  await expect(playground.engineStatus).toContainText('Engine ready on WebGPU');
});
