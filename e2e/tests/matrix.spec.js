// Every op × declaration × grad context × fix on WebGPU, operated through the controls as a
// person would, compared with the golden table the native matrix writes: the route, the exact
// numbers, the exact panic text, location and explanation, the highlighted lines of the
// generated routing — and that the highlighted line is where a person can see it.
import { test, expect } from '@playwright/test';
import { Playground } from '../pages/playground.js';
import { INPUTS, rowsFor } from '../golden.js';

// One page for all cells (a fresh one after a failure), cells in order.
test.describe.configure({ mode: 'default' });

let playground;
test.beforeAll(async ({ browser }) => {
  playground = new Playground(await browser.newPage());
  await playground.open();
  await expect(playground.engineStatus).toContainText('Engine ready on WebGPU');
});

for (const row of rowsFor('gpu')) {
  test(row.name, async () => {
    await playground.selectOp(row.op);
    await playground.typeTensor(INPUTS[row.op].tensor);
    await playground.typeParam(INPUTS[row.op].param);
    await playground.setAutodiff(row.declares_autodiff);
    await playground.setDeclaresFlex(row.declares_flex);
    await playground.selectFix(row.fix);
    // Grad context before require_grad when turning on, after it when turning off, so the
    // cell's own state is the last one run.
    if (row.grad_context) {
      await playground.setGradContext(true);
      await playground.setRequireGrad(true);
    } else {
      await playground.setRequireGrad(false);
      await playground.setGradContext(false);
    }
    await playground.expectGoldenRow(row);
    await playground.expectHighlightVisible(row);
    if (row.outcome === 'completed') {
      expect(await playground.text('device')).toMatch(/^WebGPU · /);
    } else {
      // The panic trapped the engine's worker; a new one took over, and the toggles stayed.
      await expect(playground.outcomePanel.getByTestId('panic-recovery')).toContainText(
        'a new worker took over',
      );
    }
  });
}
