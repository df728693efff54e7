// Firefox with WebGPU turned on by preference: a sample of the golden table's cells — every op,
// every declaration, every fix — through the page's own navigation, each compared with the row
// the native matrix wrote (exact values and panic texts, the highlighted arm, visible in its box);
// and the page from a plain static host's sub-path, its workers and training included.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, PORT, launch } from './browser.mjs';
import { FirefoxPlayground } from './playground.mjs';
import { DIST, startServer } from './server.mjs';
import { ROWS, query } from '../golden.js';
import { startStaticHost } from '../static-host.mjs';

const FIXES = ['none', 'without_autodiff', 'builtin'];

/**
 * The sample: the GPU cells in a training loop's context (grad context and require_grad on), one
 * per op and declaration, the fix taken in turn — so each op meets every fix and each declaration
 * every fix across the three ops.
 */
const CANDIDATES = ROWS.filter((row) => row.backend === 'gpu' && row.grad_context && row.require_grad);
const group = (row) => `${row.op}/${row.declares_autodiff}/${row.declares_flex}`;
export const SAMPLE = [...new Set(CANDIDATES.map(group))].map((name, index) =>
  CANDIDATES.find((row) => group(row) === name && row.fix === FIXES[index % FIXES.length]),
);

let browser;
let server;
before(async () => {
  server = await startServer(PORT + 2);
  browser = await launch('webgpu');
});
after(async () => {
  await browser?.close();
  server?.stop();
});

describe('Firefox with WebGPU on', () => {
  let page;
  before(async () => {
    page = new FirefoxPlayground(await browser.newPage(), BASE.replace(String(PORT), String(PORT + 2)));
    await page.open();
    assert.match(await page.engineStatus(), /^Engine ready on WebGPU: /);
  });

  for (const row of SAMPLE) {
    test(row.name, async () => {
      await page.navigate(query(row));
      await page.expectGoldenRow(row);
      if (row.highlight_focus.length > 0) await page.highlightVisible();
      if (row.outcome === 'completed') assert.match(await page.text('device'), /^WebGPU · /);
    });
  }

  test('from a plain static host at a sub-path: page, workers, training, export', async () => {
    const host = await startStaticHost(DIST, PORT + 3);
    try {
      const hosted = new FirefoxPlayground(await browser.newPage(), host.url);
      await hosted.open('?op=scale&declares_autodiff=no&grad=on&require_grad=on&fix=none&x=1,-2&param=3');
      assert.match(await hosted.engineStatus(), /^Engine ready on WebGPU: /);
      assert.equal(await hosted.text('panic-message'), 'not implemented: Backend not supported for custom op `scale`');
      await hosted.applyFix('Declare Autodiff');
      assert.equal(await hosted.text('output-values'), '3, -6');
      assert.equal(await hosted.text('gradient-values'), '3, 3');
      assert.equal(await hosted.train(), 'completed');
      const heading = await hosted.page.$eval('[data-testid="train-request"]', (element) => element.textContent);
      assert.match(heading, / · WebGPU · /);
      const readme = await hosted.exportFile('README.md');
      assert.match(readme, /```text\nshape of y = \[2\]\ny = 3, -6\ndsum\(y\)\/dx = 3, 3\n```/);
      await hosted.page.close();
    } finally {
      host.stop();
    }
  });
});
