// "Take it home": the scenario downloads as a Cargo project whose files say exactly what the
// page ran, and each file can be read and copied.
import { test, expect } from '@playwright/test';
import { Playground } from '../pages/playground.js';
import { unzip } from '../unzip.js';

test('the scenario downloads as a Cargo project with the declaration and call it ran', async ({ page }, testInfo) => {
  const playground = new Playground(page);
  await playground.open('?op=scale&declares_autodiff=cfg_off&grad=on&require_grad=on&fix=none&x=1,-2&param=3');
  expect(await playground.text('panic-message')).toBe('not implemented: Backend not supported for custom op `scale`');
  const panel = page.locator('section.export');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    panel.getByTestId('export-button').click(),
  ]);
  const name = 'scale-cube-flex-autodiff-cfg-grad-no-fix';
  expect(download.suggestedFilename()).toBe(`${name}.zip`);
  const path = testInfo.outputPath(`${name}.zip`);
  await download.saveAs(path);
  const files = unzip(path);
  expect(Object.keys(files).sort()).toEqual([`${name}/Cargo.toml`, `${name}/README.md`, `${name}/src/main.rs`]);
  const main = files[`${name}/src/main.rs`];
  expect(main).toContain('#[backend_extension(Cube, Flex, Autodiff: cfg(feature = "autodiff"))]');
  expect(main).toContain('#[cfg(feature = "autodiff")]\nimpl<B: ScaleOps, C: CheckpointStrategy> ScaleOps for Autodiff<B, C> {');
  expect(main).toContain('#[cfg(feature = "autodiff")]\n#[derive(Debug)]\nstruct ScaleBackward;');
  expect(main).toContain('let values: Vec<f32> = vec![1.0, -2.0];');
  expect(main).toContain('let device = device.autodiff();');
  expect(main).toContain('let x = x.require_grad();');
  expect(main).toContain('let y = scale(x.clone(), 3.0);');
  expect(main).not.toContain('trace::');
  const manifest = files[`${name}/Cargo.toml`];
  expect(manifest).toContain('burn = { version = "=0.22.1"');
  expect(manifest).toContain('[features]\n');
  const readme = files[`${name}/README.md`];
  expect(readme).toContain('cargo run --features autodiff');
  // What the page showed for the scenario, as `cargo run` shows it.
  expect(readme).toContain(
    'panicked on WebGPU, with the message\n`cargo run` panics with:\n\n```text\nnot implemented: Backend not supported for custom op `scale`\n```',
  );

  // Each file can be read on the page, and copied.
  const mainFile = panel.locator('details[data-file="src/main.rs"]');
  await mainFile.locator('summary').click();
  await expect(mainFile.locator('pre')).toContainText('fn main() {');
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await mainFile.getByRole('button', { name: 'Copy' }).click();
  await expect(mainFile.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(main);
});

test('an input that does not parse cannot be exported, and says why', async ({ page }) => {
  const playground = new Playground(page);
  await playground.open('?op=scale&x=1,two');
  await expect(page.locator('section.export').getByTestId('export-button')).toBeDisabled();
  await expect(page.locator('section.export')).toContainText('A field above does not parse');
});

test('a big input is written into the exported main.rs only when that file is opened', async ({ page }) => {
  const playground = new Playground(page);
  await playground.open('?op=scale&grad=off&require_grad=off&declares_autodiff=no&fix=none&param=2');
  const values = Array.from({ length: 65536 }, (_, i) => (i % 7) - 3);
  await playground.typeTensor(values.join(','));
  expect(await playground.outcomeKind()).toBe('completed');
  const panel = page.locator('section.export');
  // Closed, the files hold nothing: the run did not write 64 K values into the page again.
  expect(await panel.evaluate((element) => element.textContent.length)).toBeLessThan(5_000);
  const mainFile = panel.locator('details[data-file="src/main.rs"]');
  await mainFile.locator('summary').click();
  await expect(mainFile.locator('pre')).toContainText('fn main() {');
  const main = await mainFile.locator('pre').textContent();
  const literal = main.match(/let values: Vec<f32> = vec!\[([^\]]*)\]/s)[1];
  const written = literal.split(',').map((value) => value.trim()).filter((value) => value !== '');
  expect(written.map(Number)).toEqual(values);
});
