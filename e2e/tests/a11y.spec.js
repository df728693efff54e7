// Accessibility as the ecosystem's own engine measures it: axe-core (WCAG 2.x A and AA rules)
// over the built page in each state a visitor meets — the first visit with the tour, a panic
// with its fixes, a result with a gradient, after training, the routing diff, the embed, burn
// with fusion, a phone's width, a big tensor's values browser — in the light and the dark
// theme. No serious or critical violation anywhere.
import { test, expect } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { Playground } from '../pages/playground.js';
import { BigTensor } from '../pages/big-tensor.js';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** The serious and critical violations axe finds on the page as it is, as `rule: targets`. */
async function violations(page) {
  const results = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

const STATES = [
  {
    name: 'the first visit, with the tour',
    async reach(page) {
      await new Playground(page).open('', { tour: true });
      await expect(page.getByRole('dialog')).toBeVisible();
    },
  },
  {
    name: 'a panic with its fixes',
    async reach(page) {
      await new Playground(page).open('?op=scale&declares_autodiff=no&grad=on&require_grad=on&fix=none');
      await expect(page.locator('.fix')).toHaveCount(3);
    },
  },
  {
    name: 'a result with a gradient',
    async reach(page) {
      const playground = new Playground(page);
      await playground.open('?op=leaky_relu&declares_autodiff=yes&grad=on&require_grad=on&fix=none');
      await expect(playground.outcomePanel.getByTestId('gradient-values')).toBeVisible();
    },
  },
  {
    name: 'after training',
    async reach(page) {
      await new Playground(page).open('?op=scale&declares_autodiff=yes&fix=none&steps=20');
      const panel = page.locator('section.training');
      await panel.getByTestId('train-button').click();
      await expect(panel.getByTestId('train-status')).toHaveAttribute('data-state', 'completed', { timeout: 120_000 });
    },
  },
  {
    name: 'the routing diff',
    async reach(page) {
      await new Playground(page).open('?op=scale&declares_autodiff=yes&grad=on&require_grad=on&compare=cube_flex');
      await expect(page.getByTestId('diff-summary')).toBeVisible();
    },
  },
  {
    name: 'the embed',
    async reach(page) {
      await page.goto('/index.html?op=shift_ids&declares_autodiff=no&grad=on&embed');
      const playground = new Playground(page);
      await playground.waitForEngine();
      await playground.settled();
    },
  },
  {
    name: 'burn with fusion, a declaration that does not build (rustc\'s diagnostic)',
    async reach(page) {
      await new Playground(page).open('?op=scale&declares_autodiff=yes&grad=on&fusion=on');
      await expect(page.getByTestId('rustc-diagnostic')).toBeVisible();
    },
  },
  {
    name: 'at 390 px, burn with fusion, a queued kernel',
    viewport: { width: 390, height: 844 },
    async reach(page) {
      const playground = new Playground(page);
      await playground.open('?op=scale&declares_autodiff=yes&grad=on&require_grad=on&fusion=on&declares_fusion=shape');
      await expect(playground.outcomePanel.getByTestId('gradient-values')).toBeVisible();
    },
  },
  {
    name: 'at 390 px, a panic with its fixes',
    viewport: { width: 390, height: 844 },
    async reach(page) {
      await new Playground(page).open('?op=shift_ids&declares_autodiff=no&grad=on');
      await expect(page.locator('.fix')).toHaveCount(3);
    },
  },
  {
    name: 'at 390 px, a tensor of 4,096 values with its values browser open',
    viewport: { width: 390, height: 844 },
    async reach(page) {
      const playground = new Playground(page);
      await playground.open('?op=scale&grad=off&require_grad=off&declares_autodiff=no&fix=none');
      await playground.typeTensor(Array.from({ length: 4096 }, (_, i) => i / 4).join(','));
      const output = new BigTensor(playground, 'output');
      await output.openBrowser();
      await output.pressPage('Next');
      expect(await output.pageLabel()).toBe('Values 65–128 of 4,096');
      expect(await playground.sidewaysOverflow()).toBe(0);
    },
  },
];

for (const theme of ['light', 'dark']) {
  for (const state of STATES) {
    test(`${state.name}, ${theme} theme: no serious or critical violation`, async ({ browser }) => {
      const context = await browser.newContext({ viewport: state.viewport ?? { width: 1280, height: 900 }, colorScheme: theme });
      const page = await context.newPage();
      await page.addInitScript((theme) => localStorage.setItem('theme', theme), theme);
      await state.reach(page);
      expect(await page.evaluate(() => document.documentElement.getAttribute('data-theme'))).toBe(theme);
      expect(await violations(page)).toEqual([]);
      await context.close();
    });
  }
}
