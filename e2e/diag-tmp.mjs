import { chromium } from '@playwright/test';
import { CHROMIUM, WEBGPU_ARGS } from './playwright.config.js';
const browser = await chromium.launch({ executablePath: CHROMIUM, args: WEBGPU_ARGS });
const page = await browser.newPage();
await page.addInitScript(() => localStorage.setItem('tour', 'closed'));
await page.goto('http://127.0.0.1:4198/?op=scale&declares_autodiff=no&grad=on&require_grad=on&fix=builtin');
await page.waitForTimeout(7000);
console.log('outcome:', (await page.locator('section[aria-labelledby="outcome-heading"]').innerText()).slice(0, 200).replace(/\n+/g, ' | '));
await browser.close();
