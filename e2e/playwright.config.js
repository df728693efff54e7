// Playwright drives Debian's Chromium (never a downloaded browser). `--enable-unsafe-webgpu` is
// the one flag WebGPU needs there; SwiftShader then provides a software adapter.
import { defineConfig } from '@playwright/test';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/lib/chromium/chromium';
export const BASE_ARGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
export const WEBGPU_ARGS = [...BASE_ARGS, '--enable-unsafe-webgpu'];
const PORT = Number(process.env.E2E_PORT ?? 4173);

export default defineConfig({
  testDir: './tests',
  outputDir: './artifacts/results',
  timeout: 120_000,
  expect: { timeout: 30_000 },
  // One browser at a time: the machine has 2 cores and SwiftShader is CPU-bound.
  workers: 1,
  // The list for people; JSON for the documents' counts (scripts/doc-counts.mjs).
  reporter: [['list'], ['json', { outputFile: 'artifacts/chromium.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    launchOptions: { executablePath: CHROMIUM, args: WEBGPU_ARGS },
    viewport: { width: 1280, height: 900 },
    // The release build registers a service worker that then answers the build's requests from
    // its cache, where page.route cannot see them (the instrumented engine, failed loads): it
    // is blocked, except in the tests about it (offline.spec.js).
    serviceWorkers: 'block',
  },
  webServer: {
    command: `node serve.mjs ../dist ${PORT}`,
    url: `http://127.0.0.1:${PORT}/index.html`,
    reuseExistingServer: false,
  },
});
