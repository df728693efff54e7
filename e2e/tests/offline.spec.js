// Offline after the first visit: the service worker keeps the build; with the network gone, a
// reload loads the page and its engine from this browser's cache, runs a scenario and trains —
// and the page says it is offline.
import { test, expect } from '@playwright/test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Playground } from '../pages/playground.js';
import { startStaticHost } from '../static-host.mjs';

/** The files the service worker keeps only once a visit uses them (as src/ui/sw.js says). */
const LAZY = /^(engine-(worker|bootstrap)-fusion|expander-|editor-)/;

const DIST = fileURLToPath(new URL('../../dist', import.meta.url));

test.use({ serviceWorkers: 'allow' });

test('loaded once, then offline: reload, run a scenario, train', async ({ page, context }) => {
  const playground = new Playground(page);
  await playground.open('?op=scale&declares_autodiff=yes&grad=on&require_grad=on&fix=none&x=1,-2&param=3&steps=10');
  // The service worker registers once the engine is in, caches the build and takes control.
  await expect.poll(() => controlled(page), { timeout: 60_000 }).toBe(true);
  await context.setOffline(true);
  await page.reload();
  await playground.waitForEngine();
  await playground.settled();
  await expect(page.getByTestId('offline-notice')).toHaveText(
    "You are offline. The playground runs from this browser's cache: the page and its engine were kept from your last visit.",
  );
  expect(await playground.text('output-values')).toBe('3, -6');
  expect(await playground.text('gradient-values')).toBe('3, 3');
  await playground.typeParam('4');
  expect(await playground.text('output-values')).toBe('4, -8');
  const panel = page.locator('section.training');
  await panel.getByTestId('train-button').click();
  await expect(panel.getByTestId('train-status')).toHaveAttribute('data-state', 'completed', { timeout: 120_000 });
  await expect(panel.getByTestId('train-status')).toHaveText('Trained 10 steps.');
  await context.setOffline(false);
  await expect(page.getByTestId('offline-notice')).toHaveCount(0);
});

/** Whether an activated service worker controls the page. */
function controlled(page) {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    return registration?.active?.state === 'activated' && navigator.serviceWorker.controller !== null;
  });
}

/** The state of the context's service worker of build `id`, if it has one. */
async function workerOfBuild(context, id) {
  for (const worker of context.serviceWorkers()) {
    const state = await worker.evaluate((id) => (BUILD.id === id ? self.serviceWorker.state : null), id).catch(() => null);
    if (state) return state;
  }
  return null;
}

/** The build's id and files as its service worker lists them, and the caches the page sees. */
function cacheState(page) {
  return page.evaluate(async () => {
    const source = await (await fetch('sw.js')).text();
    const build = JSON.parse(source.match(/const BUILD = (\{.*\});/)[1]);
    const names = await caches.keys();
    const scope = new URL('.', location.href).pathname;
    const kept = {};
    for (const name of names) {
      kept[name] = (await (await caches.open(name)).keys()).map((request) => new URL(request.url).pathname.slice(scope.length)).sort();
    }
    return { id: build.id, files: Object.keys(build.files).sort(), names, kept };
  });
}

test('a new build replaces the cached one whole, once no page of the old one is open', async ({ context }) => {
  // A plain static host (no compression: the service worker fetches the .gz copies and
  // decompresses them), serving a copy of dist/ that the test can rebuild.
  const host = await startStaticHost(DIST, Number(process.env.OFFLINE_HOST_PORT ?? 4193));
  try {
    const first = await context.newPage();
    await first.addInitScript(() => localStorage.setItem('tour', 'closed'));
    await first.goto(`${host.url}index.html`);
    const playground = new Playground(first);
    await playground.waitForEngine();
    await expect.poll(() => controlled(first), { timeout: 60_000 }).toBe(true);
    const old = await cacheState(first);
    // One cache, named after the build, holding exactly the build's files but the fusion
    // engine's, the editor's and its expander's (three each), which it keeps only once a visit
    // uses them.
    const eager = old.files.filter((name) => !LAZY.test(name));
    expect(old.files.length - eager.length).toBe(9);
    expect(old.names).toEqual([`playground-${old.id}`]);
    expect(old.kept[`playground-${old.id}`]).toEqual(eager);
    expect(old.files).toContain('engine-worker_bg.wasm');
    expect(old.files).toContain('index.html');

    // A new build goes up: its service worker lists another id (as a real new build's does).
    const next = '0123456789abcdef';
    const worker = join(host.folder, 'sw.js');
    writeFileSync(worker, readFileSync(worker, 'utf8').replace(`"id":"${old.id}"`, `"id":"${next}"`));
    await first.evaluate(async () => (await navigator.serviceWorker.ready).update());
    await expect.poll(() => workerOfBuild(context, next), { timeout: 60_000 }).toBe('installed');
    // While the old build's page is open, both builds are kept: the old one serves it.
    const during = await cacheState(first);
    expect(during.names.sort()).toEqual([`playground-${next}`, `playground-${old.id}`].sort());
    // The last page of the old build closes: the new build's worker takes over.
    await first.close();
    await expect.poll(() => workerOfBuild(context, next), { timeout: 60_000 }).toBe('activated');

    // The next visit: served by the new build, and the old build's cache is gone.
    const second = await context.newPage();
    await second.goto(`${host.url}index.html`);
    await new Playground(second).waitForEngine();
    await expect.poll(() => controlled(second), { timeout: 60_000 }).toBe(true);
    const after = await cacheState(second);
    expect(after.names).toEqual([`playground-${next}`]);
    expect(after.kept[`playground-${next}`]).toEqual(eager);
  } finally {
    host.stop();
  }
});

/**
 * A host that sends nothing but the bytes and their type: no validators, no cache headers, no
 * compression (its `.gz` files are files like any other). Counts the body bytes it served per
 * file.
 */
async function startBareHost(port) {
  const { createServer } = await import('node:http');
  const { existsSync, statSync } = await import('node:fs');
  const types = { wasm: 'application/wasm', js: 'text/javascript', css: 'text/css', html: 'text/html', gz: 'application/gzip' };
  const served = {};
  const server = createServer((request, response) => {
    const name = decodeURIComponent(new URL(request.url, 'http://host').pathname.slice(1)) || 'index.html';
    const path = join(DIST, name);
    if (name.includes('..') || !existsSync(path) || !statSync(path).isFile()) {
      response.writeHead(404);
      response.end();
      return;
    }
    const body = readFileSync(path);
    response.writeHead(200, { 'content-type': types[name.split('.').pop()] ?? 'application/octet-stream', 'content-length': body.length });
    if (request.method === 'HEAD') {
      response.end();
      return;
    }
    served[name] = (served[name] ?? 0) + body.length;
    response.end(body);
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${port}/`, served, stop: () => server.close() };
}

test('a first visit from a host without cache headers downloads each wasm once, service worker included', async ({ browser }) => {
  const host = await startBareHost(4191);
  const context = await browser.newContext({ serviceWorkers: 'allow' });
  try {
    const page = await context.newPage();
    const playground = new Playground(page);
    await page.goto(`${host.url}index.html?op=scale&declares_autodiff=yes&grad=on&require_grad=on&fix=none`);
    await playground.waitForEngine();
    await playground.settled();
    expect(await playground.outcomeKind()).toBe('completed');
    // Installed: every file of the build (but the fusion engine and the expander, kept only once
    // used) is in its cache.
    await expect.poll(() => controlled(page), { timeout: 60_000 }).toBe(true);
    const wasm = Object.keys(JSON.parse(readFileSync(join(DIST, 'sw.js'), 'utf8').match(/const BUILD = (\{.*\});/)[1]).files)
      .filter((name) => name.endsWith('.wasm') && !LAZY.test(name));
    expect(wasm.length, 'the page\'s wasm and the engine\'s').toBe(2);
    const once = Object.fromEntries(wasm.map((name) => [name, readFileSync(join(DIST, name)).length]));
    const served = Object.fromEntries(wasm.map((name) => [name, (host.served[name] ?? 0) + (host.served[`${name}.gz`] ?? 0)]));
    expect(served, 'bytes served for each wasm, raw and .gz together').toEqual(once);
  } finally {
    await context.close();
    host.stop();
  }
});
