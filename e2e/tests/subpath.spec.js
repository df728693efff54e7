// Any static host, any folder: the built dist/ served from a sub-path (/burn/playground/) of a
// plain static server that knows nothing of the project (Python's http.server, from a parent
// folder: no precompressed files chosen, no custom headers). The page, the engine worker, the
// spare worker that replaces it after a panic, training and the export all work.
import { test, expect } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { Playground } from '../pages/playground.js';
import { startStaticHost, SUB_PATH } from '../static-host.mjs';

const DIST = fileURLToPath(new URL('../../dist', import.meta.url));
let host;
test.beforeAll(async () => {
  host = await startStaticHost(DIST, Number(process.env.STATIC_HOST_PORT ?? 4191));
});
test.afterAll(() => host?.stop());

test('from a plain static host at a sub-path: page, workers, training, export', async ({ page }) => {
  const requests = [];
  page.on('request', (request) => requests.push(new URL(request.url()).pathname));
  const playground = new Playground(page);
  // The page object opens `/index.html`; this host serves the playground below its sub-path.
  await page.addInitScript(() => localStorage.setItem('tour', 'closed'));
  await page.goto(`${host.url}index.html?op=scale&declares_autodiff=no&grad=on&require_grad=on&fix=none&x=1,-2&param=3`);
  await playground.waitForEngine();
  await playground.settled();
  await expect(playground.engineStatus).toContainText('Engine ready on WebGPU');
  expect(await playground.text('panic-message')).toBe('not implemented: Backend not supported for custom op `scale`');
  // The panic trapped the first worker; the spare took over and runs the fix.
  await playground.applyFix('Declare Autodiff');
  expect(await playground.text('output-values')).toBe('3, -6');
  expect(await playground.text('gradient-values')).toBe('3, 3');
  const panel = page.locator('section.training');
  await panel.getByTestId('train-button').click();
  await expect(panel.getByTestId('train-status')).toHaveAttribute('data-state', 'completed', { timeout: 120_000 });
  await expect(panel.getByTestId('train-request')).toContainText(' · WebGPU · ');
  await page.locator('section.export details[data-file="README.md"] summary').click();
  const readme = page.locator('section.export details[data-file="README.md"] pre');
  await expect(readme).toContainText('```text\nshape of y = [2]\ny = 3, -6\ndsum(y)/dx = 3, 3\n```', { useInnerText: false });
  // Everything came from below the sub-path.
  const own = requests.filter((path) => !path.startsWith(SUB_PATH));
  expect(own).toEqual([]);
  expect(requests.filter((path) => path.endsWith('.wasm')).length).toBeGreaterThanOrEqual(2);
});
