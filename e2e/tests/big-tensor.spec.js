// A tensor too long to read value by value: the page shows what a person reads of it (the
// engine's summary over every value, the last values), draws only the page of values asked for,
// and hands over the whole tensor as CSV.
import { test, expect } from '@playwright/test';
import { Playground } from '../pages/playground.js';
import { BigTensor } from '../pages/big-tensor.js';

/** Rust's shortest round-trip text of an f32 that is an integer, as the page writes it. */
const exact = (value) => String(value);

test('a million values: the summary, the last values, any page on request, and the CSV', async ({ page }) => {
  test.setTimeout(120_000);
  const playground = new Playground(page);
  await playground.open('?op=scale&grad=off&require_grad=off&declares_autodiff=no&fix=none&param=2');
  const x = Array.from({ length: 1 << 20 }, (_, i) => (i % 7) - 3);
  const y = x.map((value) => 2 * value);
  await playground.typeTensor(x.join(','));
  expect(await playground.outcomeKind()).toBe('completed');
  expect(await playground.text('output-meta')).toBe('[1048576] F32');
  expect(await playground.text('output-difference')).toBe('0');

  const output = new BigTensor(playground, 'output');
  const summary = (await output.summary()).match(/^min (\S+) · max (\S+) · mean ≈ (\S+) · no NaN or inf$/);
  expect(summary, await output.summary()).not.toBeNull();
  expect(Number(summary[1])).toBe(Math.min(...y.slice(0, 7)));
  expect(Number(summary[2])).toBe(Math.max(...y.slice(0, 7)));
  const mean = y.reduce((sum, value) => sum + value, 0) / y.length;
  // Three significant digits.
  expect(Math.abs(Number(summary[3]) - mean)).toBeLessThanOrEqual(Math.abs(mean) * 0.005);
  expect(await output.lastValues()).toBe(`… (${y.length - 16} before), ${y.slice(-16).map(exact).join(', ')}`);

  // Only the first values and a few rows are in the page, not a million values.
  expect(await playground.outcomePanel.evaluate((element) => element.textContent.length)).toBeLessThan(4_000);

  // The page answers while the tensor is shown: each click draws the page asked for.
  await output.openBrowser();
  expect(await output.pageLabel()).toBe('Values 1–64 of 1,048,576');
  await output.pressPage('Next');
  expect(await output.pageLabel()).toBe('Values 65–128 of 1,048,576');
  const lines = await output.pageLines();
  expect(lines).toHaveLength(8);
  expect(lines[0]).toBe(`[64] ${y.slice(64, 72).map(exact).join(', ')}`);
  await output.pressPage('Last');
  expect(await output.pageLabel()).toBe('Values 1,048,513–1,048,576 of 1,048,576');
  expect((await output.pageLines()).at(-1)).toBe(`[1048568] ${y.slice(-8).map(exact).join(', ')}`);
  await expect(output.browser.getByRole('button', { name: 'Next', exact: true })).toBeDisabled();
  expect(await playground.outcomePanel.evaluate((element) => element.textContent.length)).toBeLessThan(5_000);

  const { name, text } = await output.download();
  expect(name).toBe('y.csv');
  const rows = text.trimEnd().split('\n');
  expect(rows).toHaveLength(y.length);
  expect(rows.map(Number)).toEqual(y);
});

test('infinities are counted, the rest summarised, and a NaN difference says where it is', async ({ page }) => {
  const playground = new Playground(page);
  await playground.open('?op=scale&grad=off&require_grad=off&declares_autodiff=no&fix=none&param=2');
  // 2 × ±3e38 overflows f32 on both sides, so the output and the reference are ±inf there and
  // their difference is NaN (inf − inf); the other 68 values are 2 × 1.
  const x = [3e38, -3e38, ...Array(68).fill(1)];
  await playground.typeTensor(x.join(','));
  expect(await playground.outcomeKind()).toBe('completed');
  const output = new BigTensor(playground, 'output');
  expect(await output.summary()).toBe(
    'min 2 · max 2 · mean ≈ 2 · 0 NaN · 2 inf (min, max and mean of the finite values)',
  );
  expect(await playground.text('output-difference')).toBe('NaN');
  expect(await playground.text('output-difference-at')).toBe('at [0]');
  await output.openBrowser();
  expect((await output.pageLines())[0]).toBe('[0] inf, -inf, 2, 2, 2, 2, 2, 2');
});

test('a 2-D gradient: the summary and the rows of every value, by coordinates', async ({ page }) => {
  const playground = new Playground(page);
  // Rows separated by `;`, as the field reads a 2-D tensor; no zeros (leaky_relu's kink).
  const rows = Array.from({ length: 20 }, (_, row) => Array.from({ length: 5 }, (_, column) => row - column + 0.5).join(','));
  await playground.open('?op=leaky_relu&grad=on&require_grad=on&declares_autodiff=yes&fix=none&param=0.5');
  await playground.typeTensor(rows.join('; '));
  expect(await playground.outcomeKind()).toBe('completed');
  expect(await playground.text('output-meta')).toBe('[20, 5] F32');
  const gradient = new BigTensor(playground, 'gradient');
  // ∂ sum(leaky_relu(x)) / ∂x is 1 where x > 0 and the slope elsewhere.
  const slopes = rows.flatMap((row) => row.split(',').map(Number)).map((value) => (value > 0 ? 1 : 0.5));
  const mean = slopes.reduce((sum, value) => sum + value, 0) / slopes.length;
  expect(await gradient.summary()).toBe(`min 0.5 · max 1 · mean ≈ ${Number(mean.toPrecision(3))} · no NaN or inf`);
  expect(await gradient.lastValues()).toBe(`… (95 before), ${slopes.slice(-5).join(', ')}`);
  await gradient.openBrowser();
  await gradient.pressPage('Last');
  expect(await gradient.pageLabel()).toBe('Values 65–100 of 100');
  // Value 64 of a [20, 5] tensor is row 12, column 4.
  expect((await gradient.pageLines())[0]).toBe(`[${Math.floor(64 / 5)}, ${64 % 5}] ${slopes.slice(64, 72).join(', ')}`);
});
