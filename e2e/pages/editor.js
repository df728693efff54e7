// Page object for "Write your own declaration": the editor, what burn's macro answered, and the
// offer to run a declaration the engine was built with.
import { expect } from '@playwright/test';

export class Editor {
  /** @param {import('./playground.js').Playground} playground */
  constructor(playground) {
    this.page = playground.page;
    this.box = this.page.locator('#editor');
    this.field = this.page.locator('#editor-text');
    this.status = this.page.getByTestId('editor-status');
    this.loading = this.page.getByTestId('editor-loading');
    this.verdict = this.page.getByTestId('editor-verdict');
    this.errors = this.page.getByTestId('editor-errors');
    this.code = this.page.getByTestId('editor-code');
    this.runsHere = this.page.getByTestId('editor-runs-here');
    this.notBuilt = this.page.getByTestId('editor-not-built');
    this.takeHome = this.page.getByTestId('editor-export');
    this.versions = this.page.getByTestId('editor-versions');
    this.versionNote = this.page.getByTestId('editor-version-note');
    this.versionCatalog = this.page.getByTestId('editor-version-catalog');
    this.versionSummary = this.page.getByTestId('editor-version-summary');
    this.versionDiff = this.page.getByTestId('editor-version-diff');
    this.carried = this.page.getByTestId('editor-carried');
    this.lineOrigin = this.page.getByTestId('editor-line-origin');
  }

  /** Selects the first `needle` of the field's text after `from`, as a person's drag does. */
  async select(needle, from = '') {
    await this.field.evaluate((field, [needle, from]) => {
      const start = field.value.indexOf(needle, Math.max(0, field.value.indexOf(from)));
      if (start < 0) throw new Error(`the editor has no ${needle}`);
      field.focus();
      field.setSelectionRange(start, start + needle.length);
    }, [needle, from]);
  }

  /** What the field selects now. */
  selection() {
    return this.field.evaluate((field) => field.value.slice(field.selectionStart, field.selectionEnd));
  }

  /** Each generated line's code, without its number or its label. */
  codeLines() {
    return this.code.locator('.line').evaluateAll((lines) =>
      lines.map((line) => {
        const copy = line.cloneNode(true);
        copy.querySelectorAll('.line-number, .code-serves').forEach((part) => part.remove());
        return copy.textContent.replace(/\n$/, '');
      }),
    );
  }

  /** The indices of the generated lines marked as carrying the field's selection. */
  carryingLines() {
    return this.code.locator('.line-carries').evaluateAll((lines) => lines.map((line) => Number(line.dataset.line)));
  }

  /** The labels of the impls and arms that serve one selector, in order. */
  servedLabels() {
    return this.code.locator('.code-serves').allTextContents();
  }

  /** Generated line `index` (from 0). */
  line(index) {
    return this.code.locator(`.line[data-line="${index}"]`);
  }

  /** The texts the field's highlighted copy marks as carried by the focused generated line. */
  sourceMarks() {
    return this.page.locator('.editor-overlay .editor-source').allInnerTexts();
  }

  /** Chooses the version of burn's macro code the box shows (`0.22` or `0.23`). */
  async chooseVersion(value) {
    await this.versions.locator(`input[value="${value}"]`).check();
  }

  /** The diff's added and removed lines, as read. */
  async diffLines(kind) {
    return this.versionDiff.locator(`.line-${kind}`).allTextContents();
  }

  /** Downloads "Take it home"'s project; its suggested name and its saved path. */
  async downloadProject(path) {
    const [download] = await Promise.all([
      this.page.waitForEvent('download'),
      this.takeHome.getByTestId('editor-export-button').click(),
    ]);
    await download.saveAs(path);
    return download.suggestedFilename();
  }

  /** Opens the box (the expander loads then) and waits for the first expansion. */
  async open() {
    await this.box.locator('summary').first().click();
    await this.expanded();
  }

  /** Waits until the text shown is expanded. */
  async expanded() {
    await expect(this.status).toHaveText('Expanded.', { timeout: 60_000 });
  }

  text() {
    return this.field.inputValue();
  }

  /** Replaces the whole text, as a paste does, and waits for its expansion. */
  async fill(text) {
    await this.field.fill(text);
    await this.expanded();
  }

  /** Replaces the first `from` of the text with `to`. */
  async replace(from, to) {
    const text = await this.text();
    if (!text.includes(from)) throw new Error(`the editor has no ${from}`);
    await this.fill(text.replace(from, to));
  }

  /** The error list: each item's place button and message, as read. */
  errorItems() {
    return this.errors.locator('li').allInnerTexts();
  }

  /** The texts the highlighted copy marks as errors. */
  marked() {
    return this.page.locator('.editor-overlay .editor-mark').allInnerTexts();
  }
}

/** The indices of the lines of `lines` that name `word` as a whole identifier. */
export function naming(lines, word) {
  const pattern = new RegExp(`(^|[^A-Za-z0-9_])${word}($|[^A-Za-z0-9_])`);
  return lines.flatMap((line, index) => (pattern.test(line) ? [index] : []));
}

/** The 1-based line and column of the first `needle` in `text`, as the editor names places. */
export function placeOf(text, needle) {
  const before = text.slice(0, text.indexOf(needle)).split('\n');
  return `line ${before.length}, column ${before.at(-1).length + 1}`;
}
