// Page object for the rows of a tensor too long to show at once (the output `y`, or the
// gradient): its summary, its last values, the pages of every value, its CSV download.
import { readFileSync } from 'node:fs';

export class BigTensor {
  /**
   * @param {import('./playground.js').Playground} playground
   * @param {'output' | 'gradient'} name
   */
  constructor(playground, name) {
    this.page = playground.page;
    this.panel = playground.outcomePanel;
    this.name = name;
    this.browser = this.panel.getByTestId(`${name}-browse`);
  }

  summary() {
    return this.panel.getByTestId(`${this.name}-summary`).innerText();
  }

  lastValues() {
    return this.panel.getByTestId(`${this.name}-last`).innerText();
  }

  async openBrowser() {
    await this.browser.locator('summary').click();
  }

  async pressPage(label) {
    await this.browser.getByRole('button', { name: label, exact: true }).click();
  }

  pageLabel() {
    return this.panel.getByTestId(`${this.name}-page-label`).innerText();
  }

  /** The open page's lines, each `[coordinates] values`. */
  async pageLines() {
    return this.panel.getByTestId(`${this.name}-page`).locator('.values-line').allInnerTexts();
  }

  /** Downloads the CSV; resolves to its file name and its text. */
  async download() {
    const [download] = await Promise.all([
      this.page.waitForEvent('download'),
      this.panel.getByTestId(`${this.name}-download`).click(),
    ]);
    return { name: download.suggestedFilename(), text: readFileSync(await download.path(), 'utf8') };
  }
}
