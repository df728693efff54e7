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
  }

  /** Opens the page (optionally with a query) and waits for the engine. */
  async open(query = '') {
    await this.page.goto(`/index.html${query}`);
    await this.waitForEngine();
    await this.settled();
  }

  async waitForEngine() {
    await expect(this.engineStatus).toContainText(/Engine ready|not available/, { timeout: 90_000 });
  }

  /** Waits until no run is pending. */
  async settled() {
    await expect(this.outcomePanel).toHaveAttribute('aria-busy', 'false', { timeout: 60_000 });
  }

  async selectOp(name) {
    await this.page.getByRole('radio', { name: new RegExp(`^${name} `) }).check();
    await this.settled();
  }

  async setDeclaresAutodiff(on) {
    await this.page.getByRole('checkbox', { name: /declares the Autodiff selector/ }).setChecked(on);
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

  /** @param {'none'|'detach'|'builtin'} fix */
  async selectFix(fix) {
    const names = { none: /^None:/, detach: /^No-grad:/, builtin: /^Builtin:/ };
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

  async typeParam(text) {
    await this.paramField.fill(text);
    await this.settled();
  }

  async run() {
    await this.page.locator('form.controls').getByRole('button', { name: 'Run', exact: true }).click();
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

  /** Text of the highlighted deciding lines of the generated routing. */
  async focusLines() {
    return this.page.getByTestId('routing-focus').allInnerTexts();
  }

  /** Text of every line of the highlighted arm. */
  async armText() {
    return (await this.page.locator('.routing [data-arm="true"], .routing .line-focus').allInnerTexts()).join('\n');
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
