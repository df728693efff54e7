// Debian's Firefox (firefox-esr), driven by puppeteer-core over WebDriver BiDi (Playwright's own
// Firefox build cannot be downloaded here, and Playwright cannot drive a stock Firefox). Two
// profiles: as shipped on Linux (no WebGPU at all: `navigator.gpu` is undefined), and with WebGPU
// turned on by preference (Gecko's WebGPU is wgpu, over Mesa's Vulkan driver here).
import puppeteer from 'puppeteer-core';

export const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

/** The preferences of each profile. */
export const PROFILES = {
  shipped: {},
  webgpu: { 'dom.webgpu.enabled': true, 'gfx.webgpu.ignore-blocklist': true },
};

/** Launches headless Firefox with `profile`'s preferences. */
export function launch(profile) {
  return puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: true,
    extraPrefsFirefox: PROFILES[profile],
  });
}

/** The test server for dist/ (the same one the Chromium tests use). */
export const PORT = Number(process.env.FIREFOX_E2E_PORT ?? 4183);
export const BASE = `http://127.0.0.1:${PORT}/`;
