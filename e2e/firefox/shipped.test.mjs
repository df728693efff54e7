// Firefox as shipped on Linux: no WebGPU at all. The page says so and runs everything on the CPU
// backend — its panics (each trapping a worker that a spare replaces), training, the export — and
// from a plain static host's sub-path too.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, PORT, launch } from './browser.mjs';
import { FirefoxPlayground } from './playground.mjs';
import { DIST, startServer } from './server.mjs';
import { startStaticHost } from '../static-host.mjs';
import { ROWS } from '../golden.js';

let browser;
let server;
before(async () => {
  server = await startServer(PORT);
  browser = await launch('shipped');
});
after(async () => {
  await browser?.close();
  server?.stop();
});

async function playground(base = BASE) {
  return new FirefoxPlayground(await browser.newPage(), base);
}

describe('Firefox as shipped (no WebGPU)', () => {
  test('the page says WebGPU is missing and runs on the CPU', async () => {
    const page = await playground();
    await page.open('?op=scale&declares_autodiff=yes&grad=on&require_grad=on&fix=none&x=1,-2,3.5&param=2.5');
    assert.match(await page.engineStatus(), /WebGPU is not available here \(this browser does not expose WebGPU \(navigator\.gpu is missing\)\)/);
    assert.match(await page.engineStatus(), /Every run uses the CPU backend \(burn-flex\) instead\./);
    assert.equal(await page.page.$eval('input[name="backend"][value="gpu"]', (input) => input.disabled), true);
    assert.equal(await page.outcomeKind(), 'completed');
    assert.equal(await page.text('device'), 'CPU · Flex (CPU)');
    assert.equal(await page.text('output-values'), '2.5, -5, 8.75');
    assert.equal(await page.text('gradient-values'), '2.5, 2.5, 2.5');
    await page.page.close();
  });

  test('panics are shown exactly, and the next run works', async () => {
    const page = await playground();
    await page.open('?op=shift_ids&declares_autodiff=no&grad=on&fix=none&x=1,2&param=10');
    // The message and its location as the native matrix recorded them for this cell.
    const golden = ROWS.find((row) => row.name === 'shift_ids::declared_cube_flex::grad_context::no_require_grad::fix_none::cpu');
    assert.equal(await page.text('panic-message'), 'not implemented: Autodiff not supported for custom op `shift_ids`');
    assert.equal(golden.panic_message, 'not implemented: Autodiff not supported for custom op `shift_ids`');
    assert.equal(await page.text('panic-location'), golden.panic_location);
    await page.applyFix('Declare Autodiff');
    assert.equal(await page.outcomeKind(), 'completed');
    assert.equal(await page.text('output-values'), '11, 12');
    // A Cube-only declaration on the CPU meets the fallback arm, as the banner says.
    await page.navigate('op=scale&declares_autodiff=no&declares_flex=no&grad=off&require_grad=off&fix=none&x=1&param=2');
    assert.equal(await page.text('panic-message'), 'not implemented: Backend not supported for custom op `scale`');
    assert.match(await page.text('panic-meaning'), /^The input lives on the Flex backend, and the op's declaration does not list Flex\./);
    await page.page.close();
  });

  test('training runs on the CPU, and its heading says so', async () => {
    const page = await playground();
    await page.open('?op=scale&declares_autodiff=yes&fix=none&steps=10&lr=0.05&optimizer=adam');
    assert.equal(await page.train(), 'completed');
    const heading = await page.page.$eval('[data-testid="train-request"]', (element) => element.textContent);
    assert.match(heading, / · CPU · /);
    const status = await page.page.$eval('[data-testid="train-status"]', (element) => element.textContent);
    assert.equal(status, 'Trained 10 steps.');
    await page.page.close();
  });

  test('a tensor of 70,000 values: its summary, its last values and a page of values on request', async () => {
    const page = await playground();
    await page.open('?op=scale&grad=off&require_grad=off&declares_autodiff=no&fix=none&param=2');
    const x = Array.from({ length: 70_000 }, (_, i) => (i % 5) - 2);
    await page.typeTensor(x.join(','));
    assert.equal(await page.outcomeKind(), 'completed');
    const y = x.map((value) => 2 * value);
    // 70,000 = 5 × 14,000: the cycle's mean, 0, is the mean.
    assert.equal(await page.text('output-summary'), `min ${Math.min(...y.slice(0, 5))} · max ${Math.max(...y.slice(0, 5))} · mean ≈ 0 · no NaN or inf`);
    assert.equal(await page.text('output-last'), `… (${y.length - 16} before), ${y.slice(-16).join(', ')}`);
    assert.equal(await page.browseValues('output', 'Last'), 'Values 69,953–70,000 of 70,000');
    await page.page.close();
  });

  test("the editor: burn's macro expands the declaration, rejects Cuda at its place, and finds the catalog line", async () => {
    const page = await playground();
    await page.open('?op=shift_ids&declares_autodiff=no&grad=on&fix=none');
    await page.openEditor();
    const text = await page.editorText();
    assert.match(await page.editorPart('editor-runs-here'), /#\[backend_extension\(Cube, Flex\)\] of shift_ids/);
    const cuda = text.replace('Cube, Flex)]', 'Cuda, Flex)]');
    await page.fillEditor(cuda);
    const before = cuda.slice(0, cuda.indexOf('Cuda')).split('\n');
    assert.deepEqual(await page.editorErrors(), [`line ${before.length}, column ${before.at(-1).length + 1}: Unsupported backend \`Cuda\``]);
    await page.fillEditor(text);
    assert.match(await page.editorPart('editor-code'), /impl ShiftIdsOps for burn::backend::Dispatch/);
    // Where the generated lines come from: every line naming `Cube` carries the attribute's.
    await page.selectInEditor('Cube', '#[backend_extension(');
    const lines = await page.generatedLines();
    const cube = lines.filter((line) => /(^|[^A-Za-z0-9_])Cube($|[^A-Za-z0-9_])/.test(line.code)).length;
    await page.waitForPart('editor-carried', `${cube} of the ${lines.length} generated lines carry \`Cube\` (marked).`);
    assert.deepEqual(
      (await page.generatedLines()).map((line) => line.carries),
      lines.map((line) => /(^|[^A-Za-z0-9_])Cube($|[^A-Za-z0-9_])/.test(line.code)),
    );
    const typeLine = lines.findIndex((line) => line.code.trim() === 'type _B = burn::backend::Cube;');
    await page.page.click(`[data-testid="editor-code"] .line[data-line="${typeLine}"]`);
    await page.waitForPart(
      'editor-line-origin',
      `Line ${typeLine + 1}: from \`Cube\` in your attribute. It is in the arm for \`Cube\` (of your selectors, its lines carry only \`Cube\`).`,
    );
    // A method no op has: taken home, its default body serves every backend.
    const renamed = text.replace('fn shift_ids(', 'fn shift_twice(');
    await page.fillEditor(renamed);
    const main = await page.exportFile('src/main.rs', '[data-testid="editor-export"]');
    assert.ok(main.includes(renamed.trim()));
    assert.ok(main.includes('impl ShiftIdsOps for Cube {}\n\nimpl ShiftIdsOps for Flex {}'));
    assert.ok(main.includes('fn shift_ids_body<B: Backend>('));
    await page.page.close();
  });

  test('the export states what the page showed', async () => {
    const page = await playground();
    await page.open('?op=scale&declares_autodiff=no&grad=on&require_grad=on&fix=none&x=1,-2&param=3');
    assert.equal(await page.text('panic-message'), 'not implemented: Backend not supported for custom op `scale`');
    const readme = await page.exportFile('README.md');
    assert.match(readme, /panicked on the CPU backend \(burn-flex\), with the message\n`cargo run` panics with:\n\n```text\nnot implemented: Backend not supported for custom op `scale`\n```/);
    const main = await page.exportFile('src/main.rs');
    assert.match(main, /let device = Device::flex\(\);/);
    await page.page.close();
  });

  test('from a plain static host at a sub-path: page, workers, training, export', async () => {
    const host = await startStaticHost(DIST, PORT + 1);
    try {
      const page = await playground(host.url);
      await page.open('?op=shift_ids&declares_autodiff=no&grad=on&fix=none&x=1,2&param=10');
      assert.equal(await page.text('panic-message'), 'not implemented: Autodiff not supported for custom op `shift_ids`');
      // The panic trapped the worker; its replacement (the spare) serves the fix.
      await page.applyFix('Declare Autodiff');
      assert.equal(await page.text('output-values'), '11, 12');
      assert.equal(await page.train(), 'completed');
      const readme = await page.exportFile('README.md');
      assert.match(readme, /```text\nshape of y = \[2\]\ny = 11, 12\n```/);
      await page.page.close();
    } finally {
      host.stop();
    }
  });
});
