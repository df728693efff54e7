// What a newcomer meets first, at a desktop's width and a phone's, with screenshots kept in the
// test artifacts: a first visit whose opening scenario panics reads as the scenario's panic, not
// the site failing; the training chart shows both curves and says when they coincide; losses read
// as significant digits and fit a phone; the chart's labels are readable there; a slow first
// download shows a bar and its total.
import { test, expect } from '@playwright/test';
import { Playground } from '../pages/playground.js';

for (const viewport of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('the first visit: the opening panic is the scenario\'s, the banner only says the engine is ready', async ({ page }) => {
      const playground = new Playground(page);
      await playground.open();
      expect(await playground.outcomeKind()).toBe('panicked');
      await expect(playground.engineStatus).toHaveText(/^Engine ready on WebGPU: .+\.$/);
      await expect(playground.engineStatus).not.toContainText('panic');
      await page.screenshot({ path: test.info().outputPath(`first-visit-${viewport.width}.png`) });
    });

    test('training: coinciding curves both show, losses read as significant digits', async ({ page }) => {
      const playground = new Playground(page);
      await playground.open('?op=scale&declares_autodiff=yes&fix=none&steps=200');
      const panel = page.locator('section.training');
      await panel.getByTestId('train-button').click();
      await expect(panel.getByTestId('train-status')).toHaveAttribute('data-state', 'completed', { timeout: 120_000 });
      // The data say the curves are drawn at the same points: the page says so, and draws the
      // builtin one wider underneath.
      const chart = panel.getByTestId('loss-chart');
      const [custom, builtin] = await Promise.all(
        ['.curve-custom', '.curve-builtin'].map((selector) => chart.locator(selector).getAttribute('points')),
      );
      expect(builtin).toBe(custom);
      await expect(panel.getByTestId('curves-coincide')).toBeVisible();
      const widths = await chart.evaluate((figure) =>
        ['.curve-custom', '.curve-builtin'].map((selector) => parseFloat(getComputedStyle(figure.querySelector(selector)).strokeWidth)),
      );
      expect(widths[1]).toBeGreaterThan(widths[0]);
      // Three significant digits, e.g. `4.96e-10`, never a long decimal.
      const final = await panel.getByTestId('train-final').innerText();
      expect(final).toMatch(/^custom (\S+) · builtin (\S+) \(step 200\)$/);
      for (const number of final.match(/custom (\S+) · builtin (\S+)/).slice(1)) {
        expect(number.replace(/e-?\d+$/, '').replace(/^-/, '').replace('.', '').replace(/^0+/, '').length, number).toBeLessThanOrEqual(3);
      }
      // The tick labels are readable at this width.
      const tick = await chart.locator('.tick').first().boundingBox();
      expect(tick.height).toBeGreaterThanOrEqual(9);
      expect(await playground.sidewaysOverflow()).toBe(0);
      await panel.screenshot({ path: test.info().outputPath(`training-${viewport.width}.png`) });
    });
  });
}

test('a slow first visit shows a bar and the total that crosses the network', async ({ page }) => {
  // Every state of the download line the page rendered, recorded as it renders them.
  await page.addInitScript(() => {
    window.__loadStates = [];
    new MutationObserver(() => {
      const bytes = document.querySelector('[data-testid="load-bytes"]')?.textContent;
      const bar = document.querySelector('.load-progress progress')?.getAttribute('value');
      if (bytes && window.__loadStates.at(-1)?.bytes !== bytes) window.__loadStates.push({ bytes, bar });
    }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  // 4 Mbit/s, as the slow first visit this was seen on.
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 40, downloadThroughput: 500_000, uploadThroughput: 500_000 });
  const playground = new Playground(page);
  await playground.open();
  const states = await page.evaluate(() => window.__loadStates);
  const during = states.filter((state) => / of /.test(state.bytes));
  expect(during.length, JSON.stringify(states)).toBeGreaterThanOrEqual(3);
  const [, sent, total] = during.at(-1).bytes.match(/^(\d+\.\d) MB of (\d+\.\d) MB$/);
  expect(Number(sent)).toBeLessThanOrEqual(Number(total));
  // The total is the compressed engine the test server sends (brotli), not its raw size: the
  // build wrote both, per engine, into the loader; a first visit loads the one without fusion.
  const engines = await page.evaluate(async () => JSON.parse((await (await fetch('engine-loader.js')).text()).match(/const ENGINE_SIZES = (\{.*\});/)[1]));
  const sizes = engines['engine-worker_bg.wasm'];
  expect(Math.abs(Number(total) * 1e6 - sizes.br)).toBeLessThan(0.06e6);
  expect(sizes.br).toBeLessThan(sizes.raw);
  expect(during.every((state) => state.bar !== null && Number(state.bar) >= 0 && Number(state.bar) <= 1)).toBe(true);
});
