import { chromium } from '@playwright/test';
import { CHROMIUM, WEBGPU_ARGS } from '/work/main/e2e/playwright.config.js';
const browser = await chromium.launch({ executablePath: CHROMIUM, args: WEBGPU_ARGS });
const page = await browser.newPage();
await page.addInitScript(() => localStorage.setItem('tour', 'closed'));
for (const q of process.argv.slice(2)) {
  await page.goto('http://127.0.0.1:4199/index.html?' + q);
  await page.getByTestId('engine-status').filter({ hasText: /Engine ready/ }).waitFor({ timeout: 90000 });
  await page.waitForTimeout(2000);
  const t0 = Date.now();
  await page.getByTestId('train-button').click();
  await page.locator('[data-testid=train-status]:not([data-state=running])').waitFor({ timeout: 300000 });
  const wall = Date.now() - t0;
  const facts = await page.locator('section.training dl.facts').innerText().catch(() => '');
  console.log(q, 'wall', wall, 'ms |', (await page.getByTestId('train-status').innerText()), '|', facts.replace(/\n/g, ' '));
}
await browser.close();
