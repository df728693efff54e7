// The embed: `?embed` renders the compact page — the scenario's controls, the outcome and the
// routing arm, a link to the full playground; no tour, no gallery — inside a real iframe on a
// page of another origin (a second test server), at a phone's width and a column's. "Take it
// home" offers the iframe to copy.
import { test, expect } from '@playwright/test';
import { createServer } from 'node:http';
import { Playground } from '../pages/playground.js';

const PORT = Number(process.env.E2E_PORT ?? 4173);
const HOST_PORT = Number(process.env.EMBED_HOST_PORT ?? 4192);
const SCENARIO = 'op=shift_ids&declares_autodiff=no&grad=on&fix=none&x=1,2&param=10';

let host;
test.beforeAll(async () => {
  // Another origin (another port): a page that embeds the playground, as a book page would.
  host = createServer((request, response) => {
    const src = `http://127.0.0.1:${PORT}/index.html?${SCENARIO}&embed`;
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html lang="en"><title>A book page</title><body style="margin:0">
<h1 style="font:16px sans-serif">A chapter about custom ops</h1>
<iframe src="${src}" title="Burn Extension Playground" width="100%" height="900" style="border:0"></iframe>
</body></html>`);
  });
  await new Promise((resolve) => host.listen(HOST_PORT, '127.0.0.1', resolve));
});
test.afterAll(() => host?.close());

for (const width of [390, 800]) {
  test(`inside an iframe of another origin at ${width} px: controls, outcome, routing arm, a link back`, async ({ browser }) => {
    const page = await browser.newPage({ viewport: { width, height: 1000 } });
    await page.goto(`http://127.0.0.1:${HOST_PORT}/`);
    const frame = page.frameLocator('iframe');
    await expect(frame.getByTestId('engine-status')).toContainText('Engine ready', { timeout: 90_000 });
    const outcome = frame.locator('section[aria-labelledby="outcome-heading"]');
    await expect(outcome).toHaveAttribute('aria-busy', 'false', { timeout: 60_000 });
    await expect(outcome.getByTestId('panic-message')).toHaveText('not implemented: Autodiff not supported for custom op `shift_ids`');
    // The arm that raised it, in the routing code.
    await expect(frame.getByTestId('routing-focus').first()).toBeAttached();
    // No tour, no gallery, no training.
    await expect(frame.locator('.gallery')).toHaveCount(0);
    await expect(frame.locator('section.training')).toHaveCount(0);
    await expect(frame.locator('[role="dialog"]')).toHaveCount(0);
    // The controls work inside the frame: the fix runs.
    await outcome.getByRole('button', { name: 'Declare Autodiff', exact: true }).click();
    await expect(outcome.getByTestId('output-values')).toHaveText('11, 12');
    // A link to the same scenario in the full playground, without `embed`.
    const href = await frame.getByTestId('open-full').getAttribute('href');
    const link = new URL(href);
    expect(link.origin).toBe(`http://127.0.0.1:${PORT}`);
    expect(link.searchParams.has('embed')).toBe(false);
    expect(link.searchParams.get('declares_autodiff')).toBe('yes');
    // Nothing inside the frame scrolls sideways.
    const overflow = await frame.locator('html').evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBe(0);
    await page.screenshot({ path: test.info().outputPath(`embed-${width}.png`), fullPage: true });
  });
}

test('"Take it home" offers the iframe, which keeps the scenario and embeds it', async ({ page }) => {
  const playground = new Playground(page);
  await playground.open(`?${SCENARIO}`);
  const snippet = await page.getByTestId('embed-snippet').innerText();
  const src = snippet.match(/src="([^"]+)"/)[1].replaceAll('&amp;', '&');
  const url = new URL(src);
  expect(url.pathname).toBe('/index.html');
  expect(url.searchParams.get('op')).toBe('shift_ids');
  expect(src.endsWith('&embed')).toBe(true);
  expect(snippet).toMatch(/^<iframe src="[^"]+" title="Burn Extension Playground: shift_ids declared #\[backend_extension\(Cube, Flex\)\]" width="100%" height="760" loading="lazy" style="border: 0"><\/iframe>$/);
});
