// Every op × declaration × grad context × fix, operated through the controls like a person
// would, asserting the exact numbers or the exact panic text the page shows.
import { test, expect } from '@playwright/test';
import { Playground } from '../pages/playground.js';
import { CELLS, OPS, ROUTE_TITLES, expectedOutcome, shown, values } from '../expected.js';

const TRAITS = { scale: 'ScaleOps', leaky_relu: 'LeakyReluOps', shift_ids: 'ShiftIdsOps' };

/** Asserts that the highlighted part of the generated routing is the one that produced `want`. */
async function expectHighlight(playground, cell, want) {
  const focus = (await playground.focusLines()).map((line) => line.replace(/^\s*\d+\s*/, '').trim());
  const arm = (await playground.armText()).replace(/\s+/g, ' ');
  const call = `let __output = <_B as ${TRAITS[cell.op]}>::${cell.op}(`;
  if (want.panic?.includes('Backend not supported')) {
    expect(focus.some((line) => line.includes('"Backend not supported for custom op'))).toBe(true);
  } else if (want.panic?.includes('Autodiff not supported')) {
    expect(focus.some((line) => line.includes('"Autodiff not supported for custom op'))).toBe(true);
    expect(arm).toContain('type _B = burn::backend::Cube;');
  } else if (want.panic || want.route === 'builtin') {
    expect(focus).toEqual([]);
  } else {
    expect(focus.some((line) => line.startsWith(call))).toBe(true);
    if (want.route === 'autodiff') expect(arm).toContain('burn::backend::Autodiff<burn::backend::Cube,');
    else expect(arm).toContain('type _B = burn::backend::Cube;');
    if (want.route === 'concreteInAutodiff') {
      expect(focus.some((line) => line.includes('DispatchAutodiffContext::Enabled(__strategy) =>'))).toBe(true);
    }
  }
}

/** Asserts what the page shows for `cell`, the highlighted routing included. */
async function expectOutcome(playground, cell) {
  const want = expectedOutcome(cell);
  await expectHighlight(playground, cell, want);
  if (want.panic) {
    expect(await playground.outcomeKind()).toBe('panicked');
    expect(await playground.text('panic-message')).toBe(want.panic);
    return;
  }
  expect(await playground.outcomeKind()).toBe('completed');
  const { output, gradient } = values(cell.op);
  expect(await playground.text('route')).toBe(ROUTE_TITLES[want.route]);
  expect(await playground.text('output-values')).toBe(shown(output));
  expect(await playground.text('reference-values')).toBe(shown(output));
  expect(await playground.text('output-difference')).toBe('0');
  if (want.gradient) {
    expect(await playground.text('gradient-values')).toBe(shown(gradient));
    expect(await playground.text('reference-gradient-values')).toBe(shown(gradient));
  } else {
    await expect(playground.outcomePanel.getByTestId('gradient-values')).toHaveCount(0);
  }
}

test.describe.configure({ mode: 'serial' });

let playground;
test.beforeAll(async ({ browser }) => {
  playground = new Playground(await browser.newPage());
  await playground.open();
  await expect(playground.engineStatus).toContainText('Engine ready on WebGPU');
});

for (const cell of CELLS) {
  const name = `${cell.op} · ${cell.declaresAutodiff ? 'declares' : 'no'} Autodiff · grad ${cell.grad ? 'on' : 'off'} · fix ${cell.fix}`;
  test(name, async () => {
    await playground.selectOp(cell.op);
    await playground.typeTensor(OPS[cell.op].tensor);
    await playground.typeParam(OPS[cell.op].param);
    await playground.setDeclaresAutodiff(cell.declaresAutodiff);
    await playground.selectFix(cell.fix);
    // Grad context before require_grad when turning on, after it when turning off, so the
    // cell's own state is the last one run.
    if (cell.grad) {
      await playground.setGradContext(true);
      await playground.setRequireGrad(true);
    } else {
      await playground.setRequireGrad(false);
      await playground.setGradContext(false);
    }
    await expectOutcome(playground, cell);
    if ((await playground.outcomeKind()) === 'completed') {
      expect(await playground.text('device')).toMatch(/^WebGPU · /);
      expect(await playground.text('output-meta')).toBe(OPS[cell.op].int ? '[4] I32' : '[4] F32');
    }
  });
}
