// Page object for the training panel: every action is what a person does, every reading what a
// person sees — and the record of every state the panel rendered, for tests that must know what
// happened while a run was in progress.
import { expect } from '@playwright/test';

export class Training {
  constructor(playground) {
    this.page = playground.page;
    this.playground = playground;
    this.panel = this.page.locator('section.training');
    this.status = this.panel.getByTestId('train-status');
    this.chart = this.panel.getByTestId('loss-chart');
  }

  /**
   * Records, from before the page loads, every state the training panel renders: the run's state
   * and how many points its chart holds, in order (`window.__trainingStates`).
   */
  static async record(page) {
    await page.addInitScript(() => {
      window.__trainingStates = [];
      new MutationObserver(() => {
        const status = document.querySelector('[data-testid="train-status"]');
        const chart = document.querySelector('[data-testid="loss-chart"]');
        const state = { state: status?.getAttribute('data-state') ?? null, points: Number(chart?.getAttribute('data-points') ?? -1) };
        const last = window.__trainingStates.at(-1);
        if (!last || last.state !== state.state || last.points !== state.points) window.__trainingStates.push(state);
      }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-state', 'data-points'] });
    });
  }

  states() {
    return this.page.evaluate(() => window.__trainingStates);
  }

  async settings({ steps, lr, optimizer } = {}) {
    if (steps !== undefined) await this.page.locator('#train-steps').fill(steps);
    if (lr !== undefined) await this.page.locator('#train-lr').fill(lr);
    if (optimizer !== undefined) await this.page.locator('#train-optimizer').selectOption(optimizer);
  }

  async train() {
    await this.panel.getByTestId('train-button').click();
  }

  /** Waits for the run to end; returns its end state (completed, stopped, diverged, panicked). */
  async ended() {
    await expect(this.status).not.toHaveAttribute('data-state', 'running', { timeout: 120_000 });
    return this.status.getAttribute('data-state');
  }

  points() {
    return this.chart.getAttribute('data-points').then(Number);
  }

  text(testId) {
    return this.panel.getByTestId(testId).innerText();
  }

  /** The implementations the run lists for step 1. */
  impls() {
    return this.panel.getByTestId('train-impls').locator('li').allInnerTexts();
  }
}
