// The page on a phone: nothing makes it wider than the screen (code scrolls inside its box), the
// highlighted line of the generated routing is inside its box, and every outcome, fix and card
// reads as on a desktop.
import { test, expect } from '@playwright/test';
import { Playground } from '../pages/playground.js';
import { PHONE_WIDTHS, query, rowsAtWidth } from '../golden.js';

// One page for all cells (a fresh one after a failure), cells in order.
test.describe.configure({ mode: 'default' });

// Every cell is walked at one phone width, the widths in turn (golden.js: rowsAtWidth), so the
// three widths together walk the whole table.
for (const width of PHONE_WIDTHS) {
  test.describe(`at ${width} px, every third cell`, () => {
    let playground;
    test.beforeAll(async ({ browser }) => {
      playground = new Playground(
        await browser.newPage({ viewport: { width, height: 844 }, isMobile: true, hasTouch: true }),
      );
      await playground.open();
    });

    for (const row of rowsAtWidth(width)) {
      test(row.name, async () => {
        await playground.navigate(query(row));
        await playground.expectGoldenRow(row);
        await playground.expectHighlightVisible(row);
        expect(await playground.sidewaysOverflow(), 'the page scrolls sideways').toBe(0);
      });
    }
  });
}

for (const width of [320, 390, 430]) {
  test(`at ${width} px the panic card, its fixes and the gallery fit the screen`, async ({ browser }) => {
    const page = await browser.newPage({ viewport: { width, height: 800 }, isMobile: true, hasTouch: true });
    const playground = new Playground(page);
    await playground.open('?op=scale&declares_autodiff=no&grad=on&require_grad=on&fix=none');
    expect(await playground.outcomeKind()).toBe('panicked');
    expect(await playground.sidewaysOverflow()).toBe(0);
    // Every control can be reached and is at least as wide as a finger's target.
    for (const control of await page.locator('form.controls input, form.controls textarea, form.controls button').all()) {
      const box = await control.boundingBox();
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
    }
    for (const card of await page.locator('.gallery-card').all()) {
      const run = card.getByRole('button', { name: 'Run', exact: true });
      if ((await run.count()) > 0) {
        await run.click();
        await expect(card.getByTestId('card-message')).not.toBeEmpty();
      }
    }
    expect(await playground.sidewaysOverflow()).toBe(0);
    await playground.applyFix('Declare Autodiff');
    expect(await playground.outcomeKind()).toBe('completed');
    expect(await playground.sidewaysOverflow()).toBe(0);
  });
}
