// "Write your own declaration": burn's own macro code, compiled to wasm, expands what the person
// types; its errors are shown where they point; a declaration the engine was built with runs.
import { readFileSync } from 'node:fs';
import { test, expect } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { Playground } from '../pages/playground.js';
import { Editor, naming, placeOf } from '../pages/editor.js';
import { unzip } from '../unzip.js';

const QUERY = '?op=shift_ids&grad=on&declares_autodiff=no&fix=none';
const ATTRIBUTE = '#[backend_extension(';

/** The edited declarations (tests/golden/editor-cases.txt) and rustc's errors for each
 * (editor-cases.json, checked against rustc by tests/expansion.rs). */
const golden = (name) => readFileSync(new URL(`../../tests/golden/${name}`, import.meta.url), 'utf8');
const CASES = golden('editor-cases.txt')
  .split(/^=== /m)
  .slice(1)
  .map((chunk) => {
    const newline = chunk.indexOf('\n');
    return { name: chunk.slice(0, newline), text: chunk.slice(newline + 1) };
  });
const RUSTC_ERRORS = JSON.parse(golden('editor-cases.json'));

/** The page on shift_ids declared without Autodiff, in a grad context, with the editor open. */
async function openEditor(page) {
  const playground = new Playground(page);
  await playground.open(QUERY);
  const editor = new Editor(playground);
  await editor.open();
  return { playground, editor };
}

test('the scenario declaration expands, is found in the catalog, and a typed selector changes both', async ({ page }) => {
  const { playground, editor } = await openEditor(page);
  const text = await editor.text();
  expect(text).toContain('#[backend_extension(Cube, Flex)]');
  expect(text).toContain('pub trait ShiftIdsOps');
  await expect(editor.verdict).toHaveText(
    "burn-backend-extension 0.22.1's own code expanded this declaration without an error. That is all that was checked: rustc's type and borrow checks run only when the expansion is built.",
  );
  await expect(editor.runsHere).toContainText('#[backend_extension(Cube, Flex)] of shift_ids');
  await expect(editor.runsHere.getByRole('button')).toHaveText('Run it again');
  await expect(editor.code).toContainText('impl ShiftIdsOps for burn::backend::Dispatch');
  // Without the Autodiff selector the routing has no arm for an autodiff backend.
  await expect(editor.code).not.toContainText('burn::backend::Autodiff<');
  const before = await editor.code.textContent();

  await editor.replace('Cube, Flex)]', 'Cube, Flex, Autodiff)]');
  await expect(editor.code).toContainText('burn::backend::Autodiff<');
  const after = await editor.code.textContent();
  expect(after).not.toBe(before);
  await expect(editor.runsHere).toContainText('#[backend_extension(Cube, Flex, Autodiff)] of shift_ids');
  await editor.runsHere.getByRole('button', { name: 'Run it here' }).click();
  await playground.settled();
  await expect(page.locator('input[name="declares-autodiff"][value="yes"]')).toBeChecked();
  expect(page.url()).toContain('declares_autodiff=yes');
});

test('where each generated line comes from: a selection marks the lines that carry it, the backend arms are labelled, a focused line says its origin', async ({ page }) => {
  const { editor } = await openEditor(page);
  const lines = await editor.codeLines();
  // The macro gives every `Cube` it prints the span of the attribute's `Cube`.
  await editor.select('Cube', ATTRIBUTE);
  const cube = naming(lines, 'Cube');
  await expect(editor.carried).toHaveText(`${cube.length} of the ${lines.length} generated lines carry \`Cube\` (marked).`);
  expect(await editor.carryingLines()).toEqual(cube);
  // Each backend's arms, labelled from the selectors their lines carry.
  expect(await editor.servedLabels()).toEqual(['arm for `Cube`', 'arm for `Flex`', 'arm for `Cube`', 'arm for `Flex`']);
  const zeroArm = lines.findIndex((line) => line.trim().startsWith('(0usize, __has_float_input) =>'));
  await expect(editor.line(zeroArm).locator('.code-serves')).toHaveText('arm for `Cube`');

  // A generated line that names a backend, focused: what it carries, and the arm it is in.
  const typeLine = lines.findIndex((line) => line.trim() === 'type _B = burn::backend::Cube;');
  await editor.line(typeLine).click();
  await expect(editor.lineOrigin).toHaveText(
    `Line ${typeLine + 1}: from \`Cube\` in your attribute. It is in the arm for \`Cube\` (of your selectors, its lines carry only \`Cube\`).`,
  );
  expect(await editor.sourceMarks()).toEqual(['Cube']);
  // Enter selects in the field what the line carries.
  await page.keyboard.press('Enter');
  await expect(editor.field).toBeFocused();
  expect(await editor.selection()).toBe('Cube');
  expect(await editor.sourceMarks()).toEqual([]);

  // The arrow keys move between lines; the last is the impl's closing brace, the macro's own.
  await editor.code.focus();
  await page.keyboard.press('End');
  await expect(editor.line(lines.length - 1)).toBeFocused();
  await expect(editor.lineOrigin).toHaveText(`Line ${lines.length}: written by the macro; no token on it comes from your text.`);
  await page.keyboard.press('ArrowUp');
  await expect(editor.line(lines.length - 2)).toBeFocused();

  // The macro writes the code it generates for Autodiff with tokens of its own.
  await editor.replace('Cube, Flex)]', 'Cube, Flex, Autodiff)]');
  await expect(editor.code).toContainText('burn::backend::Autodiff<');
  await editor.select('Autodiff', ATTRIBUTE);
  await expect(editor.carried).toHaveText(
    'No generated line carries `Autodiff`: the macro copied none of its tokens into the code it generated.',
  );
  expect(await editor.carryingLines()).toEqual([]);
});

test('a selector the macro does not know is underlined at its place, with the macro\'s message', async ({ page }) => {
  const { editor } = await openEditor(page);
  await editor.replace('Cube, Flex)]', 'Cuda, Flex)]');
  const text = await editor.text();
  expect(await editor.errorItems()).toEqual([`${placeOf(text, 'Cuda')}: Unsupported backend \`Cuda\``]);
  expect(await editor.marked()).toEqual(['Cuda']);
  await expect(editor.verdict).toHaveText("burn-backend-extension 0.22.1's own code rejected this declaration.");
  await expect(editor.code).toHaveCount(0);
  // The place button puts the caret on what the error points at.
  await editor.errors.getByRole('button').click();
  await expect(editor.field).toBeFocused();
  const selected = await editor.field.evaluate((field) => field.value.slice(field.selectionStart, field.selectionEnd));
  expect(selected).toBe('Cuda');
});

test('every edited declaration of the case file: the errors rustc gives it, at rustc\'s places', async ({ page }) => {
  const { editor } = await openEditor(page);
  expect(CASES.length).toBe(Object.keys(RUSTC_ERRORS).length);
  for (const { name, text } of CASES) {
    await editor.fill(text);
    const shown = (await editor.errors.count()) ? await editor.errorItems() : [];
    // "line 3, column 5: message" as rustc's "3:5: message".
    const asRustc = shown.map((item) => item.replace(/^line (\d+), column (\d+): /, '$1:$2: ')).sort();
    expect(asRustc, name).toEqual(RUSTC_ERRORS[name]);
    if (!RUSTC_ERRORS[name].length) await expect(editor.code, name).toBeVisible();
  }
});

test('edits faster than the expander: the newest text\'s expansion is the one that stays', async ({ page }) => {
  const { editor } = await openEditor(page);
  const text = await editor.text();
  // Three edits in one task: the first goes out, the other two wait; only the last is expanded
  // after it, and shown. Every code the page shows meanwhile is recorded.
  await editor.field.evaluate((field, texts) => {
    window.__shownCodes = [];
    const panel = document.querySelector('.editor-panel');
    new MutationObserver(() => {
      const code = panel.querySelector('[data-testid="editor-code"]');
      if (code) window.__shownCodes.push(code.textContent);
    }).observe(panel, { childList: true, subtree: true, characterData: true });
    for (const value of texts) {
      field.value = value;
      field.dispatchEvent(new Event('input', { bubbles: true }));
    }
  }, ['shift_one', 'shift_two', 'shift_three'].map((name) => text.replace('fn shift_ids(', `fn ${name}(`)));
  await editor.expanded();
  await expect(editor.code).toContainText('fn shift_three(');
  const shown = await page.evaluate(() => window.__shownCodes);
  expect(shown.some((code) => code.includes('fn shift_three('))).toBe(true);
  expect(shown.filter((code) => code.includes('fn shift_one(') || code.includes('fn shift_two('))).toEqual([]);
});

test('a declaration of another signature expands but is not offered a run', async ({ page }) => {
  const { editor } = await openEditor(page);
  await editor.replace('fn shift_ids(', 'fn shift_ids_twice(');
  await expect(editor.code).toContainText('fn shift_ids_twice(');
  await expect(editor.notBuilt).toContainText('The engine runs only the declarations it was built with: the catalog\'s 13 lines for each of its 3 ops.');
  await expect(editor.runsHere).toHaveCount(0);
});

test('a declaration the engine was not built with is taken home: its text, an impl per listed backend, todo!() where no op has its signature', async ({ page }, testInfo) => {
  const { editor } = await openEditor(page);
  const { text } = CASES.find(({ name }) => name === 'two methods');
  await editor.fill(text);
  await expect(editor.notBuilt).toBeVisible();
  await expect(editor.takeHome).toBeVisible();
  const path = testInfo.outputPath('two-ops.zip');
  expect(await editor.downloadProject(path)).toBe('two-ops.zip');
  const files = unzip(path);
  expect(Object.keys(files).sort()).toEqual(['two-ops/Cargo.toml', 'two-ops/README.md', 'two-ops/src/main.rs']);
  const main = files['two-ops/src/main.rs'];
  expect(main).toContain(text.trim());
  for (const target of ['Cube', 'Flex']) {
    expect(main).toContain(`#[allow(unused_variables)]\nimpl TwoOps for ${target} {\n    fn double(x: FloatTensor<Self>) -> FloatTensor<Self> {\n        todo!()\n    }`);
  }
  expect(main).toContain('impl<B: Backend + TwoOps, C: CheckpointStrategy> TwoOps for Autodiff<B, C> {');
  expect(files['two-ops/README.md']).toContain(
    '`TwoOps` is implemented for Cube, Flex and Autodiff<B, C>. `double` is `todo!()`: write its body. `negate_ids` is `todo!()`: write its body.',
  );
  await expect(editor.takeHome.getByTestId('editor-export-status')).toHaveText('Downloaded two-ops.zip.');
  // Text the macro rejects has nothing to take home.
  await editor.replace('Cube, Flex, Autodiff)]', 'Cuda, Flex, Autodiff)]');
  await expect(editor.takeHome).toBeHidden();
});

test('the version example: 0.23.0-pre.1 routes it differently, as the diff against 0.22.1 shows; its catalog change is read from both', async ({ page }) => {
  const { editor } = await openEditor(page);
  await expect(editor.versions.locator('label')).toHaveText(['burn 0.22.1, runs here', 'burn 0.23.0-pre.1, expansion only']);
  await page.getByTestId('editor-version-example').click();
  await editor.expanded();
  const { text } = CASES.find(({ name }) => name === 'an int and a float input');
  expect(await editor.text()).toBe(text);
  await expect(editor.versions.locator('input[value="0.23"]')).toBeChecked();
  await expect(editor.versionNote).toHaveText(
    "burn-backend-extension 0.23.0-pre.1's expansion, to read: the engine runs 0.22.1's routing, and a project taken home pins 0.22.1.",
  );
  await expect(editor.versionCatalog).toHaveText(
    "burn-backend-extension 0.23.0-pre.1's backend catalog drops `NdArray` and `LibTorch` and adds `Group` against 0.22.1's: a selector it drops is an error there.",
  );
  await expect(editor.versionSummary).toContainText('burn-backend-extension 0.23.0-pre.1 against 0.22.1:');
  // 0.22.1 decides on the routing tensor being a float; 0.23.0-pre.1 on a float input's own context.
  const added = (await editor.diffLines('added')).join('\n');
  const removed = (await editor.diffLines('removed')).join('\n');
  expect(added).toContain('let mut __has_autodiff_float_input = false;');
  expect(removed).toContain('let __routing_tensor_is_float = true;');
  // Runs and exports are 0.22.1's: offered there, not here.
  await expect(editor.takeHome).toHaveCount(0);
  await editor.chooseVersion('0.22');
  await expect(editor.versionDiff).toHaveCount(0);
  await expect(editor.takeHome).toBeVisible();
  // A selector 0.23.0-pre.1 dropped: an error there, not in 0.22.1.
  await editor.replace('Cube, Flex, Autodiff)]', 'Cube, NdArray, Autodiff)]');
  await expect(editor.errors).toHaveCount(0);
  await editor.chooseVersion('0.23');
  expect(await editor.errorItems()).toEqual([`${placeOf(await editor.text(), 'NdArray')}: Unsupported backend \`NdArray\``]);
});

test('broken text: an unclosed brace, deep nesting, text that is not Rust, an empty editor, too much text', async ({ page }) => {
  const { editor } = await openEditor(page);
  const declaration = await editor.text();

  const unclosed = declaration.trimEnd().replace(/}$/, '');
  await editor.fill(unclosed);
  const brace = unclosed.indexOf('{');
  const lines = unclosed.slice(0, brace).split('\n');
  expect(await editor.errorItems()).toEqual([`line ${lines.length}, column ${lines.at(-1).length + 1}: this \`{\` is never closed`]);
  await expect(editor.verdict).toHaveText('The text is not Rust tokens: burn\'s macro was not run on it.');

  await editor.fill(`${'('.repeat(10_000)}${')'.repeat(10_000)}`);
  expect(await editor.errorItems()).toEqual(['line 1, column 101: Brackets nest more than 100 deep here: the expander stops before parsing.']);

  await editor.fill('this is not Rust at all');
  expect((await editor.errorItems()).length).toBe(1);
  await expect(editor.verdict).toHaveText('The text is not a list of Rust items: burn\'s macro was not run on it.');

  await editor.fill('');
  expect(await editor.errorItems()).toEqual(['the whole text: The text is empty: write a trait with `#[backend_extension(...)]` on it.']);

  // More than the editor keeps: cut, said so, and the cut text expanded.
  await editor.fill(`// ${'x'.repeat(70_000)}`);
  await expect(page.getByText('The editor keeps at most 64 KiB: the text was cut there.')).toBeVisible();
  expect((await editor.text()).length).toBe(64 * 1024);

  // And the next edit expands as before.
  await editor.fill(declaration);
  await expect(editor.runsHere).toContainText('#[backend_extension(Cube, Flex)] of shift_ids');
});

test('a worker that fails is reported, the text kept, and the next edit starts another', async ({ page }) => {
  const playground = new Playground(page);
  await playground.open(QUERY);
  await page.route('**/expander-worker_bg.wasm', (route) => route.fulfill({ status: 500, body: 'down' }));
  const editor = new Editor(playground);
  await editor.box.locator('summary').first().click();
  await expect(editor.status).toContainText("The expander's worker stopped on this text", { timeout: 30_000 });
  await expect(editor.status).toContainText('your text is kept');
  const text = await editor.text();
  expect(text).toContain('pub trait ShiftIdsOps');
  await page.unroute('**/expander-worker_bg.wasm');
  await editor.field.press('End');
  await editor.field.pressSequentially(' ');
  await editor.expanded();
  expect(await editor.text()).toBe(`${text} `);
  await expect(editor.runsHere).toContainText('#[backend_extension(Cube, Flex)] of shift_ids');
});

test('an editor whose wasm does not load is reported in its box, and opening the box again loads it', async ({ page }) => {
  const playground = new Playground(page);
  await playground.open(QUERY);
  await page.route('**/editor-ui_bg.wasm', (route) => route.fulfill({ status: 500, body: 'down' }));
  const editor = new Editor(playground);
  const summary = editor.box.locator('summary').first();
  await summary.click();
  await expect(editor.loading).toContainText('The editor did not load (', { timeout: 30_000 });
  await expect(editor.loading).toContainText('Close and open the box to try again.');
  // The page itself is untouched: the scenario still runs.
  await playground.run();
  expect(await playground.outcomeKind()).toBe('panicked');
  await page.unroute('**/editor-ui_bg.wasm');
  await summary.click();
  await summary.click();
  await editor.expanded();
  await expect(editor.loading).toHaveText('');
  await expect(editor.runsHere).toContainText('#[backend_extension(Cube, Flex)] of shift_ids');
});

test('the link holds the edited text: opened elsewhere, the editor opens with it and expands it', async ({ page, context }) => {
  const { editor } = await openEditor(page);
  await editor.replace('fn shift_ids(', 'fn shift_linked(');
  const text = await editor.text();
  const link = page.url();
  expect(new URL(link).searchParams.get('code')).toBe(text);

  const other = await context.newPage();
  const playground = new Playground(other);
  await playground.open(new URL(link).search);
  const opened = new Editor(playground);
  await opened.expanded();
  expect(await opened.text()).toBe(text);
  await expect(opened.code).toContainText('fn shift_linked(');
});

test('a link whose editor text is too long gives a notice, and the editor the op\'s own declaration', async ({ page }) => {
  const playground = new Playground(page);
  await playground.open(`${QUERY}&code=${'x'.repeat(5000)}`);
  await expect(page.getByText('Ignored code: it is too long to load from a link.')).toBeVisible();
  const editor = new Editor(playground);
  await editor.open();
  expect(await editor.text()).toContain('pub trait ShiftIdsOps');
  await expect(editor.runsHere).toContainText('#[backend_extension(Cube, Flex)] of shift_ids');
});

test('the text is kept across a reload of the tab', async ({ page }) => {
  const { playground, editor } = await openEditor(page);
  await editor.replace('fn shift_ids(', 'fn shift_kept(');
  const text = await editor.text();
  await page.reload();
  await playground.waitForEngine();
  await editor.open();
  expect(await editor.text()).toBe(text);
  await expect(editor.code).toContainText('fn shift_kept(');
});

test('Tab indents; Esc, then Tab, leaves the editor', async ({ page }) => {
  const { editor } = await openEditor(page);
  await editor.field.focus();
  await editor.field.evaluate((field) => field.setSelectionRange(0, 0));
  await page.keyboard.press('Tab');
  await expect(editor.field).toBeFocused();
  expect((await editor.text()).startsWith('    ')).toBe(true);
  await page.keyboard.press('Escape');
  await page.keyboard.press('Tab');
  await expect(editor.field).not.toBeFocused();
});

test('at 390 px the editor scrolls inside itself, not the page, and axe finds nothing in either theme', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const { playground, editor } = await openEditor(page);
  await editor.replace('Cube, Flex)]', 'Cuda, Flex)]');
  expect(await playground.sidewaysOverflow()).toBe(0);
  for (const theme of ['light', 'dark']) {
    await page.evaluate((theme) => document.documentElement.setAttribute('data-theme', theme), theme);
    const results = await new AxeBuilder({ page }).include('.editor-panel').analyze();
    expect(results.violations, `${theme}: ${JSON.stringify(results.violations, null, 2)}`).toEqual([]);
  }
});

/** The editor's files: its UI's wasm and bootstrap, and its expander's. */
const EDITOR_FILE = /(expander-(worker|bootstrap)|editor-(ui|bootstrap))/;

/** Every path this browser's caches hold. */
function cachedPaths(page) {
  return page.evaluate(async () => {
    const paths = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) paths.push(new URL(request.url).pathname);
    }
    return paths;
  });
}

test('a first visit never downloads the editor or its expander; opening the editor does, and the service worker keeps them', async ({ browser }) => {
  const context = await browser.newContext({ serviceWorkers: 'allow' });
  const page = await context.newPage();
  const requested = [];
  context.on('request', (request) => requested.push(new URL(request.url()).pathname));
  const playground = new Playground(page);
  await playground.open(QUERY);
  await expect
    .poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.state ?? null), { timeout: 60_000 })
    .toBe('activated');
  expect(requested.filter((path) => EDITOR_FILE.test(path))).toEqual([]);
  expect((await cachedPaths(page)).filter((path) => EDITOR_FILE.test(path))).toEqual([]);

  // Controlled by the service worker now (a reload), the editor's first opening fetches it.
  await page.reload();
  await playground.waitForEngine();
  const editor = new Editor(playground);
  await editor.open();
  for (const wasm of ['editor-ui_bg.wasm', 'expander-worker_bg.wasm']) {
    await expect
      .poll(async () => (await cachedPaths(page)).filter((path) => path.endsWith(wasm)).length, { timeout: 30_000 })
      .toBe(1);
  }
  await context.close();
});
