// Page object for the playground: every action is what a person does (click a labelled control,
// type in a field), every reading is what a person sees.
import { expect } from '@playwright/test';

export class Playground {
  /** @param {import('@playwright/test').Page} page */
  constructor(page) {
    this.page = page;
    this.engineStatus = page.getByTestId('engine-status');
    this.outcomePanel = page.locator('section[aria-labelledby="outcome-heading"]');
    this.tensorField = page.locator('#tensor-input');
    this.paramField = page.locator('#param-input');
    this.codeBox = page.locator('.routing pre.code');
    this.runStatus = this.outcomePanel.getByTestId('run-status');
  }

  /**
   * Opens the page (optionally with a query) and waits for the engine. The guided tour, which
   * opens by itself on a first visit, is marked as seen first, unless `tour` is set.
   */
  async open(query = '', { tour = false } = {}) {
    if (!tour && !this.tourDismissed) {
      await this.page.addInitScript(() => localStorage.setItem('tour', 'closed'));
      this.tourDismissed = true;
    }
    await this.page.goto(`/index.html${query}`);
    await this.waitForEngine();
    await this.settled();
  }

  async waitForEngine() {
    await expect(this.engineStatus).toContainText(/Engine (\(burn built with fusion\) )?ready|not available/, { timeout: 90_000 });
  }

  /** Waits until no run is pending. */
  async settled() {
    await expect(this.outcomePanel).toHaveAttribute('aria-busy', 'false', { timeout: 60_000 });
  }

  /** Loads a link's query through the page's own navigation (back/forward state), not a reload. */
  async navigate(query) {
    await this.page.evaluate((query) => {
      history.pushState(null, '', `?${query}`);
      dispatchEvent(new PopStateEvent('popstate'));
    }, query);
    await this.settled();
  }

  async selectOp(name) {
    await this.page.getByRole('radio', { name: new RegExp(`^${name} `) }).check();
    await this.settled();
  }

  /** @param {'no'|'yes'|'cfg_off'|'cfg_on'} choice what the declaration says about `Autodiff` */
  async setAutodiff(choice) {
    await this.page.locator(`input[name="declares-autodiff"][value="${choice}"]`).check();
    await this.settled();
  }

  /** Lists `Autodiff` (with its impl), or not. */
  async setDeclaresAutodiff(on) {
    await this.setAutodiff(on ? 'yes' : 'no');
  }

  async setDeclaresFlex(on) {
    await this.page.getByRole('checkbox', { name: /declares the Flex selector/ }).setChecked(on);
    await this.settled();
  }

  async setGradContext(on) {
    await this.page.getByRole('checkbox', { name: /Grad context/ }).setChecked(on);
    await this.settled();
  }

  async setRequireGrad(on) {
    const box = this.page.getByRole('checkbox', { name: 'x.require_grad()' });
    if (await box.isEnabled()) {
      await box.setChecked(on);
      await this.settled();
    }
  }

  /** @param {'none'|'without_autodiff'|'builtin'} fix */
  async selectFix(fix) {
    const names = { none: /^None:/, without_autodiff: /^Without autodiff:/, builtin: /^Builtin:/ };
    await this.page.getByRole('radio', { name: names[fix] }).check();
    await this.settled();
  }

  /** @param {'gpu'|'cpu'} backend */
  async selectBackend(backend) {
    const names = { gpu: /^WebGPU/, cpu: /^CPU/ };
    await this.page.getByRole('radio', { name: names[backend] }).check();
    await this.settled();
  }

  async typeTensor(text) {
    await this.tensorField.fill(text);
    await this.settled();
  }

  /** Types `text` into the tensor field unless it already holds it (typing reruns after a pause). */
  async ensureTensor(text) {
    if ((await this.tensorField.inputValue()) !== text) await this.typeTensor(text);
  }

  /** Types `text` into the parameter field unless it already holds it. */
  async ensureParam(text) {
    if ((await this.paramField.inputValue()) !== text) await this.typeParam(text);
  }

  async typeParam(text) {
    await this.paramField.fill(text);
    await this.settled();
  }

  /** Presses Run, without waiting for the answer. */
  async pressRun() {
    await this.page.locator('form.controls').getByRole('button', { name: 'Run', exact: true }).click();
  }

  async run() {
    await this.pressRun();
    await this.settled();
  }

  /** How many outcomes the page has shown so far. */
  async runsShown() {
    return Number(await this.outcomePanel.getAttribute('data-runs'));
  }

  /** The outcome card's kind: completed, panicked or failed. */
  async outcomeKind() {
    return this.outcomePanel.locator('[data-outcome]').getAttribute('data-outcome');
  }

  text(testId) {
    return this.outcomePanel.getByTestId(testId).innerText();
  }

  /**
   * Text of the highlighted deciding lines of the generated routing, without line numbers. Read
   * as `textContent`: lines outside the code box's view skip rendering (`content-visibility`), and
   * `innerText` is empty for them until the next frame.
   */
  async focusLines() {
    return this.page.getByTestId('routing-focus').evaluateAll(CODE_TEXTS);
  }

  /** Text of the marked lines of the `Fusion<B>` impl (the call its queue ran, the line that
   * queued it), read as `focusLines` reads its lines. */
  async queuedLines() {
    return this.page.getByTestId('queued-focus').evaluateAll(CODE_TEXTS);
  }

  /** The note above the generated code: what its marks show. */
  routingNote() {
    return this.page.locator('.routing > p.note').first().innerText();
  }

  /** The first line of the highlighted arm, without its line number. */
  async armFirstLine() {
    // Only the routing's own marks: the queued lines of the `Fusion<B>` impl are marked apart.
    const first = this.page
      .locator('.routing [data-arm="true"], .routing [data-testid="routing-focus"]')
      .first();
    if ((await first.count()) === 0) return null;
    return first.evaluate(CODE_TEXT);
  }

  /** Asserts that the page shows what the golden table says for `row`. */
  async expectGoldenRow(row) {
    expect(await this.outcomeKind(), row.name).toBe(row.outcome);
    expect(await this.focusLines(), `${row.name}: highlighted lines`).toEqual(row.highlight_focus);
    expect(await this.armFirstLine(), `${row.name}: highlighted arm`).toBe(row.highlight_arm ?? null);
    if (row.outcome === 'panicked') {
      expect(await this.text('panic-message')).toBe(row.panic_message);
      expect(await this.text('panic-location')).toBe(row.panic_location);
      expect(await this.text('panic-meaning')).toBe(row.panic_meaning);
      expect(await this.fixes(), `${row.name}: fixes`).toEqual(
        (row.fixes ?? []).map(({ label, changes }) => ({ label, changes })),
      );
      return;
    }
    expect(await this.text('route')).toBe(row.route);
    expect(await this.text('output-values')).toBe(row.output);
    expect(await this.text('reference-values')).toBe(row.output);
    expect(await this.text('output-difference')).toBe('0');
    expect(await this.text('output-meta')).toBe(row.output_meta);
    if (row.gradient) {
      expect(await this.text('gradient-values')).toBe(row.gradient);
      expect(await this.text('reference-gradient-values')).toBe(row.gradient);
    } else {
      await expect(this.outcomePanel.getByTestId('gradient-values')).toHaveCount(0);
    }
  }

  /**
   * Asserts that the first highlighted line of the routing is inside its code box's visible
   * rectangle (the box scrolls, not the page), when the row highlights anything.
   */
  async expectHighlightVisible(row) {
    if (row.highlight_focus.length === 0) return;
    const focus = this.page.getByTestId('routing-focus').first();
    await expect
      .poll(async () => {
        const [line, box] = await Promise.all([focus.boundingBox(), this.codeBox.evaluate(visibleRect)]);
        return line !== null && line.y >= box.top && line.y + line.height <= box.bottom
          && line.x >= box.left && line.x < box.right;
      }, { message: `${row.name}: the highlighted line is inside its code box` })
      .toBe(true);
  }

  /** The page's width beyond the viewport, in pixels (0: nothing scrolls sideways). */
  async sidewaysOverflow() {
    return this.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  }

  /** The fixes the panic card offers: each button's label and, for each place it changes, the
   * code before and after. */
  async fixes() {
    return this.outcomePanel.locator('.fix').evaluateAll((fixes) =>
      fixes.map((fix) => ({
        label: fix.querySelector('.fix-button').textContent,
        changes: [...fix.querySelectorAll('[data-testid="fix-change"]')].map((change) => ({
          before: change.querySelector('[data-testid="fix-before"]').textContent,
          after: change.querySelector('[data-testid="fix-after"]').textContent,
        })),
      })),
    );
  }

  /** Clicks the fix button labelled `label` on the panic card. */
  async applyFix(label) {
    await this.outcomePanel.getByRole('button', { name: label, exact: true }).click();
    await this.settled();
  }

  /** The gallery card with this id. */
  card(id) {
    return this.page.locator(`[data-card="${id}"]`);
  }

  fieldError(field) {
    return this.page.locator(field === 'tensor' ? '#tensor-error' : '#param-error').innerText();
  }
}

/**
 * A code line's text as written: without its line number, and without the words a diff adds for
 * screen readers ("added", "removed"). Read as `textContent`: lines outside the code box's view
 * skip rendering (`content-visibility`), and `innerText` is empty for them until the next frame.
 * (A function the page evaluates: it must stand alone.)
 */
const CODE_TEXT = (line) =>
  [...line.childNodes]
    .filter((node) => !node.classList?.contains('line-number') && !node.classList?.contains('visually-hidden'))
    .map((node) => node.textContent)
    .join('')
    .trim();
/** CODE_TEXT of each line. */
const CODE_TEXTS = (lines) =>
  lines.map((line) =>
    [...line.childNodes]
      .filter((node) => !node.classList?.contains('line-number') && !node.classList?.contains('visually-hidden'))
      .map((node) => node.textContent)
      .join('')
      .trim(),
  );

/** The part of an element's box its content is visible in (its client area), in page pixels. */
function visibleRect(element) {
  const rect = element.getBoundingClientRect();
  const top = rect.top + element.clientTop;
  const left = rect.left + element.clientLeft;
  return { top, left, bottom: top + element.clientHeight, right: left + element.clientWidth };
}
