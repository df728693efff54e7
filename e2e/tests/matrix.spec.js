// Every cell of the golden table — op × declaration × grad context × require_grad × fix ×
// backend, WebGPU and CPU — operated through the controls as a person would, compared with the
// golden table the native matrix writes: the route, the exact numbers, the exact panic text,
// location and explanation, the fixes offered with their code, the highlighted lines of the
// generated routing — and that the highlighted line is where a person can see it.
import { test, expect } from '@playwright/test';
import { Playground } from '../pages/playground.js';
import { INPUTS, ROWS } from '../golden.js';

// One page for all cells (a fresh one after a failure), cells in order.
test.describe.configure({ mode: 'default' });

let playground;
test.beforeAll(async ({ browser }) => {
  playground = new Playground(await browser.newPage());
  await playground.open();
  await expect(playground.engineStatus).toContainText('Engine ready on WebGPU');
});

for (const row of ROWS) {
  test(row.name, async () => {
    await playground.selectOp(row.op);
    await playground.ensureTensor(INPUTS[row.op].tensor);
    await playground.ensureParam(INPUTS[row.op].param);
    await playground.setAutodiff(row.declares_autodiff);
    await playground.setDeclaresFlex(row.declares_flex);
    await playground.selectFix(row.fix);
    await playground.selectBackend(row.backend);
    // Grad context before require_grad when turning on, after it when turning off; a cell with
    // require_grad but no grad context turns require_grad on last.
    if (row.grad_context) {
      await playground.setGradContext(true);
      await playground.setRequireGrad(row.require_grad);
    } else {
      await playground.setRequireGrad(false);
      await playground.setGradContext(false);
      await playground.setRequireGrad(row.require_grad);
    }
    await playground.expectGoldenRow(row);
    await playground.expectHighlightVisible(row);
    const backend = row.backend === 'gpu' ? 'WebGPU' : 'CPU';
    if (row.outcome === 'completed') {
      expect(await playground.text('device')).toMatch(new RegExp(`^${backend} · `));
    } else {
      // The panic trapped the engine's worker; a new one took over, and the toggles stayed.
      expect(await playground.text('panic-recovery')).toBe(
        "The panic stopped the engine's worker; a new worker took over. Your inputs and toggles are unchanged.",
      );
      expect(await playground.outcomePanel.locator('.card-panic h2').innerText()).toBe(`burn panicked on ${backend}`);
    }
  });
}
