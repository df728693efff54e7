// The teaching layer: every fix button turns its panic into a correct result, and every gallery
// card shows its exact message.
import { test, expect } from '@playwright/test';
import { Playground } from '../pages/playground.js';
import { shown } from '../golden.js';

const PANICS = [
  {
    name: 'Backend not supported (float op in a grad context)',
    query: '?op=scale&declares_autodiff=no&grad=on&require_grad=on&fix=none&x=1,-2&param=3',
    message: 'not implemented: Backend not supported for custom op `scale`',
    fixes: {
      'Declare Autodiff': { output: [3, -6], gradient: [3, 3] },
      'Call it without autodiff': { output: [3, -6], gradient: null },
      'Use a builtin op': { output: [3, -6], gradient: [3, 3] },
    },
  },
  {
    name: 'Autodiff not supported (int op in a grad context)',
    query: '?op=shift_ids&declares_autodiff=no&grad=on&fix=none&x=1,2&param=10',
    message: 'not implemented: Autodiff not supported for custom op `shift_ids`',
    fixes: {
      'Declare Autodiff': { output: [11, 12], gradient: null },
      'Call it without autodiff': { output: [11, 12], gradient: null },
      'Use a builtin op': { output: [11, 12], gradient: null },
    },
  },
  {
    name: 'Backend not supported (backend not declared)',
    query: '?op=leaky_relu&declares_autodiff=no&declares_flex=no&grad=off&require_grad=off&backend=cpu&x=-4,2&param=0.5',
    message: 'not implemented: Backend not supported for custom op `leaky_relu`',
    fixes: {
      'Declare Flex': { output: [-2, 2], gradient: null },
      'Run on WebGPU': { output: [-2, 2], gradient: null },
      'Use a builtin op': { output: [-2, 2], gradient: null },
    },
  },
  {
    // Declaring Flex alone would meet the missing Autodiff selector next: each fix makes both
    // changes.
    name: 'Backend not supported (backend not declared, in a grad context)',
    query: '?op=leaky_relu&declares_autodiff=no&declares_flex=no&grad=on&require_grad=on&backend=cpu&x=-4,2&param=0.5',
    message: 'not implemented: Backend not supported for custom op `leaky_relu`',
    fixes: {
      'Declare Flex and Autodiff': { output: [-2, 2], gradient: [0.5, 1] },
      'Run on WebGPU and declare Autodiff': { output: [-2, 2], gradient: [0.5, 1] },
      'Use a builtin op': { output: [-2, 2], gradient: [0.5, 1] },
    },
  },
  {
    name: 'require_grad outside a grad context',
    query: '?op=scale&declares_autodiff=yes&grad=off&require_grad=on&x=2&param=4',
    message: 'Tensor::require_grad requires autodiff; call Tensor::autodiff first',
    fixes: {
      'Turn on the grad context': { output: [8], gradient: [4] },
      'Drop require_grad': { output: [8], gradient: null },
    },
  },
];

for (const panic of PANICS) {
  test(`fixes for ${panic.name}`, async ({ page }) => {
    const playground = new Playground(page);
    for (const [label, want] of Object.entries(panic.fixes)) {
      await playground.open(panic.query);
      expect(await playground.text('panic-message')).toBe(panic.message);
      await playground.applyFix(label);
      expect(await playground.outcomeKind(), label).toBe('completed');
      expect(await playground.text('output-values'), label).toBe(shown(want.output));
      if (want.gradient) {
        expect(await playground.text('gradient-values'), label).toBe(shown(want.gradient));
      } else {
        await expect(playground.outcomePanel.getByTestId('gradient-values')).toHaveCount(0);
      }
    }
  });
}

test('the panic card explains the float-op surprise', async ({ page }) => {
  const playground = new Playground(page);
  await playground.open(PANICS[0].query);
  expect(await playground.text('panic-surprise')).toContain("in burn 0.22.1 a float op's wrapped input fails the backend match first");
});

test('Autodiff behind a cfg that is off: explained, and the build with the feature on runs', async ({ page }) => {
  const playground = new Playground(page);
  for (const [query, message, output, route] of [
    ['?op=shift_ids&declares_autodiff=cfg_off&grad=on&fix=none&x=1,2&param=10', 'not implemented: Autodiff not supported for custom op `shift_ids`', [11, 12], 'Concrete implementation, in the autodiff context'],
    ['?op=scale&declares_autodiff=cfg_off&grad=on&require_grad=on&fix=none&x=1,-2&param=3', 'not implemented: Backend not supported for custom op `scale`', [3, -6], 'Autodiff<B, C> implementation'],
  ]) {
    await playground.open(query);
    expect(await playground.text('panic-message')).toBe(message);
    expect(await playground.text('panic-meaning')).toContain('cfg(feature = "autodiff")');
    expect(await playground.text('panic-surprise')).toContain('the fix below builds it with the feature on');
    await playground.applyFix('Enable the feature');
    expect(await playground.outcomeKind()).toBe('completed');
    expect(await playground.text('output-values')).toBe(shown(output));
    expect(await playground.text('route')).toBe(route);
    // The declaration stays the cfg-gated one, now built with its feature on; the routing view
    // shows that build's own code.
    await expect(page.locator('input[name="declares-autodiff"][value="cfg_on"]')).toBeChecked();
    await expect(playground.codeBox).toContainText('__concrete_strategy');
  }
});

const SCENARIO_CARDS = {
  'backend-not-supported-autodiff': 'not implemented: Backend not supported for custom op `leaky_relu`',
  'backend-not-supported-undeclared': 'not implemented: Backend not supported for custom op `leaky_relu`',
  'autodiff-not-supported': 'not implemented: Autodiff not supported for custom op `shift_ids`',
};

const SNIPPET_CARDS = {
  'input-on-wrong-backend': 'input tensor `__tensor` is on the wrong backend',
  'cannot-move-between': 'Cannot move between autodiff and non-autodiff instances.',
  'transaction-wrong-backend': 'Tensor is on the wrong backend (expected Cube).',
  'transaction-autodiff-wrong-backend': 'Autodiff float tensor is on the wrong backend (expected Cube).',
  'transaction-expected-autodiff': 'Expected autodiff-wrapped float tensor for backend Cube.',
};

test('every gallery card shows its exact message', async ({ page }) => {
  const playground = new Playground(page);
  await playground.open('?op=scale&declares_autodiff=yes&grad=on&require_grad=on');
  for (const [id, message] of Object.entries(SCENARIO_CARDS)) {
    await playground.card(id).getByRole('button', { name: 'Load and run' }).click();
    await playground.settled();
    expect(await playground.text('panic-message'), id).toBe(message);
  }
  for (const [id, message] of Object.entries(SNIPPET_CARDS)) {
    const card = playground.card(id);
    await card.getByRole('button', { name: 'Run' }).click();
    await expect(card.getByTestId('card-message'), id).toHaveText(message);
  }
  for (const id of ['operation-not-marked', 'autodiff-context-invariant']) {
    await expect(playground.card(id).locator('.unreachable')).toContainText('Not reachable');
    await expect(playground.card(id).getByRole('button')).toHaveCount(0);
  }
  // The engine survived every panic.
  await expect(playground.engineStatus).toContainText('Engine ready on WebGPU');
});
