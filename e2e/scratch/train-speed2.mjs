import { chromium } from '@playwright/test';
import { CHROMIUM, WEBGPU_ARGS } from '/work/main/e2e/playwright.config.js';
const browser = await chromium.launch({ executablePath: CHROMIUM, args: WEBGPU_ARGS });
const page = await browser.newPage();
await page.addInitScript(() => localStorage.setItem('tour', 'closed'));
await page.goto('http://127.0.0.1:4199/index.html?' + process.argv[2]);
await page.getByTestId('engine-status').filter({ hasText: /Engine ready/ }).waitFor({ timeout: 90000 });
await page.waitForTimeout(2000);
for (let i = 0; i < 3; i++) {
  await page.getByTestId('train-button').click();
  await page.waitForTimeout(100);
  await page.locator('[data-testid=train-status]:not([data-state=running])').waitFor({ timeout: 300000 });
  const facts = await page.locator('section.training dl.facts').innerText().catch(() => '');
  console.log(i, facts.match(/Time\n?(.*)/)?.[1]);
}
await browser.close();
