// One screenshot of each kind of outcome, light and dark, written to e2e/artifacts/ for people
// to look at; each also checks that the page shows that kind of outcome.
import { test, expect } from '@playwright/test';
import { Playground } from '../pages/playground.js';

const SHOTS = [
  { name: 'panic-autodiff-not-supported', query: '', kind: 'panicked' },
  {
    name: 'panic-backend-not-supported',
    query: '?op=scale&declares_autodiff=no&grad=on&require_grad=on&fix=none',
    kind: 'panicked',
  },
  {
    name: 'completed-with-gradient',
    query: '?op=scale&declares_autodiff=yes&grad=on&require_grad=on&fix=none',
    kind: 'completed',
  },
  {
    name: 'completed-detached',
    query: '?op=leaky_relu&declares_autodiff=no&grad=on&require_grad=on&fix=detach',
    kind: 'completed',
  },
  { name: 'invalid-input', query: '?op=scale&x=1,%20two&param=', kind: null },
];

for (const { name, query, kind } of SHOTS) {
  test(`screenshot: ${name}`, async ({ page }) => {
    const playground = new Playground(page);
    await playground.open(query);
    if (kind) {
      expect(await playground.outcomeKind()).toBe(kind);
    } else {
      expect(await playground.fieldError('tensor')).toBe('Value 2 (`two`) is not a number.');
      expect(await playground.fieldError('param')).toBe('Enter at least one number.');
    }
    await page.screenshot({ path: `artifacts/${name}.png`, fullPage: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: `artifacts/${name}-dark.png`, fullPage: true });
  });
}
