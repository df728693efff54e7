// Screenshots of each kind of outcome, light and dark, desktop and phone, for people to look at
// (not a test: nothing is compared). Writes e2e/artifacts/screenshots/ and, with --docs, the
// README's docs/screenshot.png. Needs a built dist/. Usage: node screenshots.mjs [--docs]
import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { chromium } from '@playwright/test';
import { CHROMIUM, WEBGPU_ARGS } from './playwright.config.js';

const PORT = 4174;
const SHOTS = [
  { name: 'panic-autodiff-not-supported', query: '' },
  { name: 'panic-backend-not-supported', query: '?op=scale&declares_autodiff=no&grad=on&require_grad=on&fix=none' },
  { name: 'panic-cfg-off', query: '?op=shift_ids&declares_autodiff=cfg_off&grad=on&fix=none' },
  { name: 'completed-with-gradient', query: '?op=scale&declares_autodiff=yes&grad=on&require_grad=on&fix=none' },
  { name: 'completed-without-autodiff', query: '?op=leaky_relu&declares_autodiff=no&grad=on&require_grad=on&fix=without_autodiff' },
  { name: 'invalid-input', query: '?op=scale&x=1,%20two&param=' },
];
const VIEWPORTS = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } };

const server = spawn('node', ['serve.mjs', '../dist', String(PORT)], { cwd: import.meta.dirname, stdio: 'ignore' });
const browser = await chromium.launch({ executablePath: CHROMIUM, args: WEBGPU_ARGS });
try {
  await new Promise((resolve) => setTimeout(resolve, 500));
  await mkdir(`${import.meta.dirname}/artifacts/screenshots`, { recursive: true });
  for (const [device, viewport] of Object.entries(VIEWPORTS)) {
    const page = await browser.newPage({ viewport });
    for (const { name, query } of SHOTS) {
      await page.goto(`http://127.0.0.1:${PORT}/index.html${query}`);
      await page.getByTestId('engine-status').filter({ hasText: /Engine ready|not available/ }).waitFor({ timeout: 90_000 });
      await page.locator('section[aria-labelledby="outcome-heading"][aria-busy="false"]').waitFor();
      for (const scheme of ['light', 'dark']) {
        await page.emulateMedia({ colorScheme: scheme });
        const path = `${import.meta.dirname}/artifacts/screenshots/${name}-${device}-${scheme}.png`;
        await page.screenshot({ path, fullPage: true });
        console.log(path);
      }
      if (process.argv.includes('--docs') && device === 'desktop' && name === 'panic-backend-not-supported') {
        await page.emulateMedia({ colorScheme: 'light' });
        await page.screenshot({ path: `${import.meta.dirname}/../docs/screenshot.png` });
      }
    }
    await page.close();
  }
} finally {
  await browser.close();
  server.kill();
}
