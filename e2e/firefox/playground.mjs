// Page object for the playground in Firefox (puppeteer-core): the actions a person takes and the
// readings a person makes, as in pages/playground.js for Chromium.
import assert from 'node:assert/strict';

const OUTCOME = 'section[aria-labelledby="outcome-heading"]';
const LONG = { timeout: 120_000, polling: 'mutation' };

export class FirefoxPlayground {
  /** @param {import('puppeteer-core').Page} page @param {string} base the page's folder URL */
  constructor(page, base) {
    this.page = page;
    this.base = base;
  }

  /** Opens the page with `query`, the tour marked as seen, and waits for the engine and the run. */
  async open(query = '') {
    await this.page.evaluateOnNewDocument(() => localStorage.setItem('tour', 'closed'));
    await this.page.goto(`${this.base}index.html${query}`);
    await this.waitForEngine();
    await this.settled();
  }

  async waitForEngine() {
    await this.page.waitForFunction(
      () => /Engine ready|not available/.test(document.querySelector('[data-testid="engine-status"]')?.textContent ?? ''),
      LONG,
    );
  }

  /** Waits until no run is pending. */
  async settled() {
    await this.page.waitForFunction(
      (outcome) => document.querySelector(outcome)?.getAttribute('aria-busy') === 'false',
      LONG,
      OUTCOME,
    );
  }

  /** Loads a link's query through the page's own navigation (back/forward state). */
  async navigate(query) {
    await this.page.evaluate((query) => {
      history.pushState(null, '', `?${query}`);
      dispatchEvent(new PopStateEvent('popstate'));
    }, query);
    await this.settled();
  }

  engineStatus() {
    return this.page.$eval('[data-testid="engine-status"]', (element) => element.textContent);
  }

  async outcomeKind() {
    return this.page.$eval(`${OUTCOME} [data-outcome]`, (element) => element.getAttribute('data-outcome'));
  }

  /** The text of the outcome panel's element with this test id, or null. */
  text(testId) {
    return this.page.evaluate(
      (outcome, testId) => document.querySelector(`${outcome} [data-testid="${testId}"]`)?.innerText ?? null,
      OUTCOME,
      testId,
    );
  }

  /** Highlighted deciding lines of the routing, without line numbers. */
  focusLines() {
    return this.page.$$eval('[data-testid="routing-focus"]', (lines) =>
      lines.map((line) => line.textContent.replace(/^\s*\d+\s*/, '').trim()),
    );
  }

  armFirstLine() {
    return this.page.evaluate(() => {
      const first = document.querySelector('.routing [data-arm="true"], .routing [data-testid="routing-focus"]');
      return first ? first.textContent.replace(/^\s*\d+\s*/, '').trim() : null;
    });
  }

  /** Whether the first highlighted line is inside its code box's visible rectangle. */
  highlightVisible() {
    return this.page.waitForFunction(
      () => {
        const line = document.querySelector('[data-testid="routing-focus"]');
        const box = document.querySelector('.routing pre.code');
        if (!line || !box) return false;
        const l = line.getBoundingClientRect();
        const b = box.getBoundingClientRect();
        const top = b.top + box.clientTop;
        const left = b.left + box.clientLeft;
        return l.top >= top && l.bottom <= top + box.clientHeight && l.left >= left && l.left < left + box.clientWidth;
      },
      { timeout: 30_000, polling: 'raf' },
    );
  }

  /** Asserts that the page shows what the golden table says for `row`. */
  async expectGoldenRow(row) {
    assert.equal(await this.outcomeKind(), row.outcome, row.name);
    assert.deepEqual(await this.focusLines(), row.highlight_focus, `${row.name}: highlighted lines`);
    assert.equal(await this.armFirstLine(), row.highlight_arm ?? null, `${row.name}: highlighted arm`);
    if (row.outcome === 'panicked') {
      assert.equal(await this.text('panic-message'), row.panic_message, row.name);
      assert.equal(await this.text('panic-location'), row.panic_location, row.name);
      assert.equal(await this.text('panic-meaning'), row.panic_meaning, row.name);
      return;
    }
    assert.equal(await this.text('route'), row.route, row.name);
    assert.equal(await this.text('output-values'), row.output, row.name);
    assert.equal(await this.text('output-meta'), row.output_meta, row.name);
    assert.equal(await this.text('gradient-values'), row.gradient ?? null, row.name);
  }

  /** Clicks the button with exactly this text inside `scope` (a selector). */
  async click(scope, text) {
    const button = await this.page.waitForSelector(`${scope} ::-p-text(${text})`);
    await button.click();
  }

  /** Starts training and waits for the run to end; returns its end state. */
  async train() {
    await (await this.page.waitForSelector('section.training [data-testid="train-button"]:not([disabled])')).click();
    const status = 'section.training [data-testid="train-status"]';
    await this.page.waitForFunction(
      (status) => {
        const state = document.querySelector(status)?.getAttribute('data-state');
        return state !== undefined && state !== null && state !== 'running';
      },
      LONG,
      status,
    );
    return this.page.$eval(status, (element) => element.getAttribute('data-state'));
  }

  async applyFix(label) {
    await this.click(`${OUTCOME} .fix[data-fix="${label}"]`, label);
    await this.settled();
  }

  /** Replaces the text of the field `selector`, as one paste would. */
  async replaceText(selector, text) {
    await this.page.$eval(
      selector,
      (field, text) => {
        field.value = text;
        field.dispatchEvent(new Event('input', { bubbles: true }));
      },
      text,
    );
  }

  /** Replaces the tensor field's text, as typing it would, and waits for the run. */
  async typeTensor(text) {
    await this.replaceText('#tensor-input', text);
    // The run starts after the typing pause; wait until it has, then until it ends.
    await this.page.waitForFunction((outcome) => document.querySelector(outcome)?.getAttribute('aria-busy') === 'true', LONG, OUTCOME);
    await this.settled();
  }

  /** Opens `name`'s values browser (`output` or `gradient`) and presses its `button`. */
  async browseValues(name, button) {
    const browser = `${OUTCOME} [data-testid="${name}-browse"]`;
    await (await this.page.waitForSelector(`${browser} summary`)).click();
    await this.click(`${browser} .values-pager`, button);
    return this.text(`${name}-page-label`);
  }

  /** The text of the exported project's file `path`, as its box shows it once opened (in
   * `panel`: the scenario's export, or the editor's). */
  async exportFile(path, panel = 'section.export') {
    const details = `${panel} details[data-file="${path}"]`;
    await (await this.page.waitForSelector(`${details} summary`)).click();
    await this.page.waitForFunction((details) => document.querySelector(`${details} pre`)?.textContent.length > 0, {}, details);
    return this.page.$eval(`${details} pre`, (element) => element.textContent);
  }

  /** Opens "Write your own declaration" and waits for its first expansion. */
  async openEditor() {
    await (await this.page.waitForSelector('#editor summary')).click();
    await this.editorExpanded();
  }

  async editorExpanded() {
    await this.page.waitForFunction(
      () => document.querySelector('[data-testid="editor-status"]')?.textContent === 'Expanded.',
      LONG,
    );
  }

  editorText() {
    return this.page.$eval('#editor-text', (field) => field.value);
  }

  /** Replaces the editor's text, as a paste does, and waits for its expansion. */
  async fillEditor(text) {
    await this.replaceText('#editor-text', text);
    await this.editorExpanded();
  }

  /** The editor's listed errors, each as read. */
  editorErrors() {
    return this.page.$$eval('[data-testid="editor-errors"] li', (items) => items.map((item) => item.innerText));
  }

  /** The text of the editor's element with this test id, once it is there (its text content:
   * the generated code's lines out of view skip layout, and so have no rendered text). The
   * catalog match comes after the first expansion: the catalog is expanded next. */
  /** Selects the first `needle` of the editor's text after `from`, as a drag does. */
  async selectInEditor(needle, from) {
    await this.page.$eval(
      '#editor-text',
      (field, needle, from) => {
        const start = field.value.indexOf(needle, field.value.indexOf(from));
        field.focus();
        field.setSelectionRange(start, start + needle.length);
      },
      needle,
      from,
    );
  }

  /** Each generated line's code, without its number or label, and whether it is marked. */
  generatedLines() {
    return this.page.$$eval('[data-testid="editor-code"] .line', (lines) =>
      lines.map((line) => {
        const copy = line.cloneNode(true);
        copy.querySelectorAll('.line-number, .code-serves').forEach((part) => part.remove());
        return { code: copy.textContent.replace(/\n$/, ''), carries: line.classList.contains('line-carries') };
      }),
    );
  }

  /** Waits until the element with `testId` reads `text`, and returns what it reads. */
  async waitForPart(testId, text) {
    await this.page.waitForFunction(
      (testId, text) => document.querySelector(`[data-testid="${testId}"]`)?.textContent === text,
      { timeout: 10_000, polling: 'mutation' },
      testId,
      text,
    );
    return this.editorPart(testId);
  }

  async editorPart(testId) {
    const element = await this.page.waitForSelector(`[data-testid="${testId}"]`, { timeout: 60_000 });
    return element.evaluate((element) => element.textContent);
  }
}
