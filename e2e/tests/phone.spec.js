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

test('at 390 px a full-page screenshot shows the text of every line the routing box shows', async ({ browser }) => {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const playground = new Playground(page);
  // The highlighted arm sits far below the first screen: the box is off screen when captured.
  await playground.open('?op=scale&declares_autodiff=no&grad=on&require_grad=on&fix=none');
  await page.evaluate(() => window.scrollTo(0, 0));
  const box = page.locator('.routing pre.code');
  // The lines inside the box's scrollport that hold text, as rows of the box.
  const { rect, lines } = await box.evaluate((element) => {
    const outer = element.getBoundingClientRect();
    const inView = [...element.querySelectorAll('.line')]
      .map((line) => ({ rect: line.getBoundingClientRect(), text: line.textContent.replace(/^\d+/, '').trim() }))
      .filter(({ rect, text }) => text && rect.top >= outer.top && rect.bottom <= outer.bottom);
    return {
      rect: { x: outer.x, y: outer.y + window.scrollY, width: outer.width, height: outer.height },
      lines: inView.map(({ rect }) => ({ top: Math.round(rect.top - outer.top), bottom: Math.round(rect.bottom - outer.top) })),
    };
  });
  expect(lines.length, 'lines with text in the box').toBeGreaterThan(10);
  const shot = await page.screenshot({ fullPage: true, clip: rect });
  // Per row of the capture, how many pixels differ from the row's most common colour (its
  // background, highlighted or not): a row through painted text has many, a blank one none but
  // the focus line's left border.
  const ink = await page.evaluate(async (png) => {
    const image = new Image();
    image.src = `data:image/png;base64,${png}`;
    await image.decode();
    const canvas = new OffscreenCanvas(image.width, image.height);
    const context = canvas.getContext('2d');
    context.drawImage(image, 0, 0);
    const { data, width, height } = context.getImageData(0, 0, image.width, image.height);
    const rows = [];
    for (let y = 0; y < height; y++) {
      const counts = new Map();
      for (let x = 0; x < width; x++) {
        const at = (y * width + x) * 4;
        const colour = (data[at] << 16) | (data[at + 1] << 8) | data[at + 2];
        counts.set(colour, (counts.get(colour) ?? 0) + 1);
      }
      const background = [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
      let count = 0;
      for (let x = 0; x < width; x++) {
        const at = (y * width + x) * 4;
        const distance = Math.abs(data[at] - (background >> 16)) + Math.abs(data[at + 1] - ((background >> 8) & 255))
          + Math.abs(data[at + 2] - (background & 255));
        if (distance > 96) count++;
      }
      rows.push(count);
    }
    return rows;
  }, shot.toString('base64'));
  const blank = lines.filter(({ top, bottom }) => ink.slice(top, bottom).every((count) => count <= 8));
  expect(blank, 'lines of the box that came out blank').toEqual([]);
});
