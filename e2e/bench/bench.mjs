// Benchmarks the built playground (`dist/`) in real headless Chromium and writes the figures to
// bench/results.json and the "Latest run" section of BENCHMARKS.md.
//
// Run through `bash scripts/bench.sh`, which builds dist/ first. Every figure is measured in this
// run; ratios compare figures of this run only.
import { chromium } from '@playwright/test';
import { spawn } from 'node:child_process';
import { readFile, readdir, stat, writeFile, mkdir } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { BASE_ARGS, CHROMIUM, WEBGPU_ARGS } from '../playwright.config.js';
import { Playground } from '../pages/playground.js';
import { runBaseline } from './webgpu-baseline.mjs';

const ROOT = join(import.meta.dirname, '..', '..');
const DIST = join(ROOT, 'dist');
const PORT = 4181;
const BASE = `http://127.0.0.1:${PORT}/index.html`;
const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const SIZES = [1024, 65536, 1048576];

/**
 * A fresh browser context that resolves the playground's relative URLs, whose pages mark their
 * first outcome painted (markFirstPaint).
 */
async function newVisitor(browser, options = {}) {
  const context = await browser.newContext({ baseURL: `http://127.0.0.1:${PORT}`, ...options });
  // The guided tour opens by itself on a first visit: measured pages are returning visitors.
  await context.addInitScript(() => localStorage.setItem('tour', 'closed'));
  await context.addInitScript(markFirstPaint);
  return context;
}

/** A page in a fresh context (newVisitor) that can time its clicks (installTimer). */
async function newPage(browser) {
  const context = await newVisitor(browser, { viewport: { width: 1280, height: 900 } });
  await context.addInitScript(installTimer);
  return context.newPage();
}

/**
 * Installed in every page: `__benchClick(selector)` clicks the element and times it to the next
 * outcome, both in the DOM (the outcome section's `data-runs` counter moves) and painted (two
 * animation frames later, so it includes the wait for the display's next frames).
 */
function installTimer() {
  window.__benchClick = async (selector) => {
    const section = document.querySelector('section[aria-labelledby="outcome-heading"]');
    const before = Number(section.dataset.runs);
    const started = performance.now();
    document.querySelector(selector).click();
    await new Promise((resolve) => {
      const observer = new MutationObserver(() => {
        if (Number(section.dataset.runs) > before) {
          observer.disconnect();
          resolve();
        }
      });
      observer.observe(section, { attributes: true, attributeFilter: ['data-runs'] });
    });
    const dom = performance.now() - started;
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const painted = performance.now() - started;
    // The engine's own time for this run, and where it went (absent when it panicked): the rest
    // is messaging and UI.
    const timing = document.querySelector('[data-testid="timing"]')?.dataset;
    const ms = (key) => (timing ? Number(timing[key]) : null);
    return {
      dom,
      painted,
      engine: ms('engineMs'),
      call: ms('callMs'),
      reference: ms('referenceMs'),
      read: ms('readMs'),
      compare: ms('compareMs'),
    };
  };
}

const stats = (samples) => {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { runs: sorted.length, median_ms: round(at(0.5)), p95_ms: round(at(0.95)) };
};
const round = (value) => Math.round(value * 100) / 100;

/** Clicks the Run button `runs` times, each timed by `__benchClick`. */
async function clickToPaint(page, runs) {
  return page.evaluate(async (runs) => {
    const samples = [];
    for (let i = 0; i < runs; i++) samples.push(await window.__benchClick('.run-button'));
    return samples;
  }, runs);
}

/** Median/p95 painted, and the medians of the other series of clickToPaint. */
async function latency(page, runs) {
  const samples = await clickToPaint(page, runs);
  const median = (key) => stats(samples.map((sample) => sample[key])).median_ms;
  return {
    ...stats(samples.map((sample) => sample.painted)),
    dom_median_ms: median('dom'),
    engine_median_ms: median('engine'),
    engine_parts_median_ms: {
      call: median('call'),
      reference: median('reference'),
      read: median('read'),
      compare: median('compare'),
    },
  };
}

function values(count) {
  return Array.from({ length: count }, (_, i) => ((i % 1000) - 500) / 8).join(',');
}

async function opLatency(browser) {
  const page = await newPage(browser);
  const playground = new Playground(page);
  await playground.open();
  // Each cell is named by its settings; the route is the one the page showed for it.
  const cells = [
    { name: 'grad off', query: 'grad=off&require_grad=off&declares_autodiff=no&fix=none' },
    { name: 'grad on, Autodiff declared', query: 'grad=on&require_grad=on&declares_autodiff=yes&fix=none' },
    { name: 'grad on, without-autodiff fix', query: 'grad=on&require_grad=on&declares_autodiff=no&fix=without_autodiff' },
    { name: 'grad on, builtin fix', query: 'grad=on&require_grad=on&declares_autodiff=no&fix=builtin' },
  ];
  const results = [];
  for (const op of ['scale', 'leaky_relu', 'shift_ids']) {
    for (const cell of cells) {
      await playground.open(`?op=${op}&${cell.query}`);
      if ((await playground.outcomeKind()) !== 'completed') throw new Error(`${op} ${cell.name} did not complete`);
      const route = await playground.text('route');
      results.push({ op, cell: cell.name, route, ...(await latency(page, RUNS)) });
    }
  }
  await page.close();
  return results;
}

async function sizeLatency(browser) {
  const page = await newPage(browser);
  const playground = new Playground(page);
  const results = [];
  for (const size of SIZES) {
    await playground.open('?op=scale&grad=off&require_grad=off&declares_autodiff=no&fix=none&param=2.5');
    await playground.typeTensor(values(size));
    if ((await playground.outcomeKind()) !== 'completed') throw new Error(`scale at ${size} did not complete`);
    const runs = size >= 1048576 ? Math.min(RUNS, 20) : RUNS;
    results.push({ elements: size, ...(await latency(page, runs)) });
  }
  const baseline = (await runBaseline(page, SIZES, RUNS)).map(stats);
  await page.close();
  return SIZES.map((size, i) => ({
    elements: size,
    playground: results[i],
    raw_webgpu: baseline[i],
    ratio: round(results[i].median_ms / baseline[i].median_ms),
    ratio_in_dom: round(results[i].dom_median_ms / baseline[i].median_ms),
    ratio_engine: round(results[i].engine_median_ms / baseline[i].median_ms),
  }));
}

/**
 * From the click that fixes a panicking scenario to its correct result painted, against a reload.
 * Twice: with the spare worker warm (the steady state: a person reads the panic before fixing
 * it), and back to back (the spare of the previous recovery still starting).
 */
async function recovery(browser) {
  const page = await newPage(browser);
  const playground = new Playground(page);
  await playground.open('?op=scale&grad=on&require_grad=on&declares_autodiff=yes&fix=none');
  const spareWarm = () => page.locator('[data-testid="engine-status"][data-spare="warm"]').waitFor({ timeout: 60_000 });
  const measure = async (waitForSpare) => {
    const samples = [];
    for (let i = 0; i < Math.min(RUNS, 20); i++) {
      if (waitForSpare) await spareWarm();
      await playground.setDeclaresAutodiff(false);
      if ((await playground.outcomeKind()) !== 'panicked') throw new Error('expected a panic');
      samples.push(
        (await page.evaluate(() => window.__benchClick('input[name="declares-autodiff"][value="yes"]'))).painted,
      );
      if ((await playground.outcomeKind()) !== 'completed') throw new Error('expected a result');
    }
    return stats(samples);
  };
  const warm = await measure(true);
  const backToBack = await measure(false);
  const reloads = [];
  for (let i = 0; i < 5; i++) reloads.push(await firstResult(page, page.url()));
  await page.close();
  const reload = stats(reloads);
  return {
    recovery: warm,
    back_to_back: backToBack,
    page_reload: reload,
    ratio: round(warm.median_ms / reload.median_ms),
  };
}

/**
 * Navigation start to the first outcome painted: marked in the page itself (`bench-painted`, two
 * animation frames after the outcome is in the DOM, as `__benchClick` times a run), so the
 * figure holds no wait of the test driver's. With `phases`, also pushes when each step of the
 * visit was reached (ms after navigation start): the page's and the engine's wasm fetched, and
 * the page's marks (src/ui/browser.rs, src/ui/engine-loader.js).
 */
async function firstResult(page, url, phases = null) {
  await page.goto(url);
  await page.locator('[data-outcome]').waitFor({ timeout: 120_000 });
  const painted = await page.evaluate(
    () =>
      new Promise((resolve) => {
        const read = () => performance.getEntriesByName('bench-painted', 'mark')[0]?.startTime;
        if (read() !== undefined) return resolve(read());
        new PerformanceObserver((list, observer) => {
          observer.disconnect();
          resolve(list.getEntries()[0].startTime);
        }).observe({ type: 'mark', buffered: true, name: 'bench-painted' });
      }),
  );
  if (phases) phases.push(await page.evaluate(readPhases));
  return painted;
}

/** Installed in every navigated page: marks `bench-painted` when the first outcome is painted. */
function markFirstPaint() {
  new MutationObserver((_, observer) => {
    if (!document.querySelector('[data-outcome]')) return;
    observer.disconnect();
    requestAnimationFrame(() => requestAnimationFrame(() => performance.mark('bench-painted')));
  }).observe(document, { childList: true, subtree: true });
}

/** In the page: when each step of the visit was reached. */
function readPhases() {
  const fetched = (pattern) =>
    performance.getEntriesByType('resource').find((entry) => pattern.test(new URL(entry.name).pathname))?.responseEnd ?? null;
  const mark = (name) => performance.getEntriesByName(name, 'mark')[0]?.startTime ?? null;
  return {
    page_wasm_fetched: fetched(/playground-[0-9a-f]+_bg\.wasm$/),
    page_started: mark('page-started'),
    // Fetched by the first engine worker, which reports it (engine-loader.js); by the page itself
    // when that worker could not.
    engine_wasm_fetched: mark('engine-fetched') ?? fetched(/engine-worker_bg\.wasm$/),
    engine_compiled: mark('engine-compiled'),
    engine_worker_started: mark('engine-worker-started'),
    engine_ready: mark('engine-ready'),
    first_outcome: mark('first-outcome'),
  };
}

/** The median of each step over `phases`. */
function phaseMedians(phases) {
  return Object.fromEntries(
    Object.keys(phases[0] ?? {}).map((key) => {
      const values = phases.map((phase) => phase[key]).filter((value) => value !== null);
      return [key, values.length ? stats(values).median_ms : null];
    }),
  );
}

async function navigation(browser) {
  const cold = [];
  const cached = [];
  const offline = [];
  const phases = { cold: [], cached: [], service_worker: [] };
  for (let i = 0; i < 3; i++) {
    // The browser's HTTP cache only (revalidated with ETags): service workers blocked.
    const context = await newVisitor(browser, { serviceWorkers: 'block' });
    const page = await context.newPage();
    cold.push(await firstResult(page, BASE, phases.cold));
    cached.push(await firstResult(page, BASE, phases.cached));
    cached.push(await firstResult(page, BASE, phases.cached));
    await context.close();
    // The service worker's cache: a first visit installs it, later visits load from it.
    const kept = await newVisitor(browser, { serviceWorkers: 'allow' });
    const visitor = await kept.newPage();
    await firstResult(visitor, BASE);
    // Until an activated service worker controls the page (its cache holds the whole build).
    for (let controlled = false; !controlled; ) {
      controlled = await visitor.evaluate(async () => {
        const registration = await navigator.serviceWorker.getRegistration();
        return registration?.active?.state === 'activated' && navigator.serviceWorker.controller !== null;
      });
      if (!controlled) await visitor.waitForTimeout(100);
    }
    await firstResult(visitor, BASE);
    offline.push(await firstResult(visitor, BASE, phases.service_worker));
    offline.push(await firstResult(visitor, BASE, phases.service_worker));
    await kept.close();
  }
  return {
    cold: stats(cold),
    cached: stats(cached),
    service_worker: stats(offline),
    phases: Object.fromEntries(Object.entries(phases).map(([kind, list]) => [kind, phaseMedians(list)])),
  };
}

/** Every file a visitor downloads, raw and as dist/ ships it precompressed (.gz, .br). */
async function transferSizes() {
  const files = (await readdir(DIST)).filter((name) => /\.(wasm|js|css|html)$/.test(name));
  const size = async (path) => (await stat(path).catch(() => null))?.size ?? null;
  const rows = [];
  for (const name of files.sort()) {
    const path = join(DIST, name);
    rows.push({
      file: name,
      raw_bytes: await size(path),
      gzip_bytes: await size(`${path}.gz`),
      brotli_bytes: await size(`${path}.br`),
    });
  }
  // A first visit fetches the page's wasm and the engine without fusion; the fusion engine only
  // when a visitor turns fusion on, the editor (its UI and the expander) only when it opens.
  const lazy = (row) => /^(engine-worker-fusion|expander-|editor-)/.test(row.file);
  const wasm = rows.filter((row) => row.file.endsWith('.wasm') && !lazy(row));
  const sum = (list, key) => list.reduce((total, row) => total + row[key], 0);
  const engine = (name) => rows.find((row) => row.file === name);
  return {
    files: rows,
    engines: {
      without_fusion: engine('engine-worker_bg.wasm'),
      with_fusion: engine('engine-worker-fusion_bg.wasm'),
    },
    total_wasm_gzip_bytes: sum(wasm, 'gzip_bytes'),
    total_wasm_brotli_bytes: sum(wasm, 'brotli_bytes'),
    total_gzip_bytes: sum(rows, 'gzip_bytes'),
    total_brotli_bytes: sum(rows, 'brotli_bytes'),
  };
}

/**
 * Counts, in every worker of the page, the GPU kernel launches (`dispatchWorkgroups`) and queue
 * submits the engine makes: WebGPU's own entry points, wrapped in place.
 */
async function countGpuWork(page) {
  for (const worker of page.workers()) {
    await worker.evaluate(() => {
      if (self.gpuCounts || typeof GPUComputePassEncoder === 'undefined') return;
      const counts = { dispatches: 0, submits: 0 };
      self.gpuCounts = counts;
      const dispatch = GPUComputePassEncoder.prototype.dispatchWorkgroups;
      GPUComputePassEncoder.prototype.dispatchWorkgroups = function (...args) {
        counts.dispatches += 1;
        return dispatch.apply(this, args);
      };
      const submit = GPUQueue.prototype.submit;
      GPUQueue.prototype.submit = function (...args) {
        counts.submits += 1;
        return submit.apply(this, args);
      };
    });
  }
}

/** The counts since the last call, summed over the page's workers (then reset). */
async function takeGpuCounts(page) {
  let dispatches = 0;
  let submits = 0;
  for (const worker of page.workers()) {
    const counts = await worker.evaluate(() => {
      const counts = self.gpuCounts ?? { dispatches: 0, submits: 0 };
      const taken = { ...counts };
      counts.dispatches = 0;
      counts.submits = 0;
      return taken;
    });
    dispatches += counts.dispatches;
    submits += counts.submits;
  }
  return { dispatches, submits };
}

/**
 * Training: milliseconds per step (the engine's own time for the run, over its steps; both the
 * custom and the builtin model step), for each op with `Autodiff` declared, at the page's default
 * settings (the step count read from its field), against the single run of the same op and
 * declaration (grad on, `require_grad`) measured on the same page, so on the same engine: the
 * engine without burn's fusion and the one with it (the op then lists `Fusion` with
 * `#[fusion(dtype = x, shape = x)]`).
 * Also the GPU kernel launches and queue submits per step, counted in the worker.
 */
async function training(browser) {
  const rows = [];
  for (const fusion of [false, true]) {
    const page = await newPage(browser);
    const playground = new Playground(page);
    for (const op of ['scale', 'leaky_relu', 'shift_ids']) {
      const link = `?op=${op}&declares_autodiff=yes&grad=on&require_grad=on&fix=none${fusion ? '&fusion=on&declares_fusion=shape' : ''}`;
      await playground.open(link);
      if ((await playground.outcomeKind()) !== 'completed') throw new Error(`${link} did not complete`);
      const single = (await latency(page, RUNS)).engine_median_ms;
      await countGpuWork(page);
      const steps = Number(await page.locator('#train-steps').inputValue());
      const samples = [];
      const counts = [];
      for (let i = 0; i < 3; i++) {
        await takeGpuCounts(page);
        await page.getByTestId('train-button').click();
        await page.locator('[data-testid="train-status"][data-state="completed"]').waitFor({ timeout: 600_000 });
        counts.push(await takeGpuCounts(page));
        const time = await page.locator('section.training dl.facts').innerText();
        samples.push(Number(time.match(/Time\s+([\d.]+) ms/)[1]) / steps);
        await page.locator('[data-testid="train-status"]').evaluate((status) => status.removeAttribute('data-state'));
      }
      const perStep = stats(samples).median_ms;
      const last = counts[counts.length - 1];
      rows.push({
        op,
        fusion,
        steps,
        ms_per_step: perStep,
        steps_per_second: round(1000 / perStep),
        dispatches_per_step: round(last.dispatches / steps),
        submits_per_step: round(last.submits / steps),
        single_run_engine_ms: single,
        ratio: round(perStep / single),
      });
    }
    await page.close();
  }
  const worst = (list) => list.reduce((a, b) => (a.ratio > b.ratio ? a : b)).ratio;
  return {
    rows,
    ratio: worst(rows.filter((row) => !row.fusion)),
    ratio_fusion: worst(rows.filter((row) => row.fusion)),
  };
}

/** The editor's case of `name` (tests/golden/editor-cases.txt). */
async function editorCase(name) {
  const file = await readFile(join(ROOT, 'tests', 'golden', 'editor-cases.txt'), 'utf8');
  const [, text] = file.split(`=== ${name}\n`);
  return text.split(/^=== /m)[0];
}

/**
 * The editor: burn's macro in its worker expanding the largest edited declaration (the Fusion
 * one: its `Fusion<B>` impl is most of what the macro writes) with both versions it holds, as
 * every edit is, timed inside the page from the message to the answer; and a keystroke in the
 * editor to its expansion painted.
 */
async function editor(browser) {
  const page = await newPage(browser);
  const playground = new Playground(page);
  await playground.open();
  const largest = "Fusion with the input's dtype and shape";
  const text = await editorCase(largest);
  const worker = await page.evaluate(async ({ text, runs }) => {
    const worker = new Worker('./expander-bootstrap.js', { type: 'module' });
    const ask = (id) =>
      new Promise((resolve) => {
        worker.onmessage = ({ data }) => resolve(data);
        worker.postMessage({ id, texts: [text] });
      });
    let started = performance.now();
    await ask(0);
    const first = performance.now() - started;
    const samples = [];
    for (let id = 1; id <= runs; id++) {
      started = performance.now();
      await ask(id);
      samples.push(performance.now() - started);
    }
    worker.terminate();
    return { first, samples };
  }, { text, runs: RUNS });
  await page.locator('#editor summary').first().click();
  await page.getByTestId('editor-status').filter({ hasText: 'Expanded.' }).waitFor({ timeout: 60_000 });
  const keystrokes = await page.evaluate(async (runs) => {
    const field = document.querySelector('#editor-text');
    const status = document.querySelector('[data-testid="editor-status"]');
    const base = field.value;
    const samples = [];
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      field.value = i % 2 ? base : `${base} `;
      field.dispatchEvent(new Event('input', { bubbles: true }));
      await new Promise((resolve) => {
        const done = () => status.textContent === 'Expanded.';
        const observer = new MutationObserver(() => {
          if (done()) {
            observer.disconnect();
            resolve();
          }
        });
        observer.observe(status, { childList: true, characterData: true, subtree: true });
      });
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      samples.push(performance.now() - started);
    }
    return samples;
  }, RUNS);
  await page.close();
  return {
    largest_case: largest,
    first_expansion_ms: round(worker.first),
    expansion: stats(worker.samples),
    keystroke_to_painted: stats(keystrokes),
  };
}

async function main() {
  const server = spawn('node', [join(import.meta.dirname, '..', 'serve.mjs'), DIST, String(PORT)], { stdio: 'ignore' });
  await new Promise((resolve) => setTimeout(resolve, 500));
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: WEBGPU_ARGS });
  try {
    const info = await (async () => {
      const page = await newPage(browser);
      const playground = new Playground(page);
      await playground.open();
      // The adapter as the engine named it (the banner's data-adapter), not the banner's
      // sentence, which may carry a note about a replaced worker.
      const adapter = await (await page.waitForFunction(
        () => document.querySelector('[data-testid="engine-status"][data-adapter]')?.getAttribute('data-adapter'),
        null,
        { timeout: 90_000 },
      )).jsonValue();
      await page.close();
      return { browser: `Chromium ${browser.version()}`, adapter };
    })();
    const figures = {
      date: new Date().toISOString(),
      machine: `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB`,
      ...info,
      runs_per_cell: RUNS,
      transfer: await transferSizes(),
      navigation: await navigation(browser),
      op_latency: await opLatency(browser),
      size_latency: await sizeLatency(browser),
      panic_recovery: await recovery(browser),
      build: JSON.parse(process.env.BENCH_BUILD_TIMES ?? '{}'),
    };
    figures.editor = await editor(browser);
    figures.training = await training(browser);
    await mkdir(join(ROOT, 'bench'), { recursive: true });
    await writeFile(join(ROOT, 'bench', 'results.json'), JSON.stringify(figures, null, 2) + '\n');
    await writeMarkdown(figures);
    console.log(JSON.stringify(figures, null, 2));
  } finally {
    await browser.close();
    server.kill();
  }
}

const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;

/** Each budget the playground holds itself to, against this run's figures. */
function budgets(f) {
  const at64k = f.size_latency.find((row) => row.elements === 65536);
  const at1m = f.size_latency.find((row) => row.elements === 1048576);
  const engine = (op) =>
    f.op_latency.find((row) => row.op === op && row.cell === 'grad off').engine_median_ms;
  const mb = (bytes) => `${(bytes / 1e6).toFixed(2)} MB`;
  return [
    ['first visit wasm (page + engine), gzip', '≤ 1.8 MB (stretch 1.5 MB)', mb(f.transfer.total_wasm_gzip_bytes), f.transfer.total_wasm_gzip_bytes <= 1.8e6],
    ['first visit wasm, brotli', 'none (recorded)', mb(f.transfer.total_wasm_brotli_bytes), null],
    ...(f.transfer.engines.with_fusion
      ? [['fusion engine, gzip (fetched only with fusion on)', 'none (recorded)', mb(f.transfer.engines.with_fusion.gzip_bytes), null]]
      : []),
    ['scale at 64 K: engine ÷ raw WebGPU', '≤ 2×', `${at64k.ratio_engine}×`, at64k.ratio_engine <= 2],
    ['scale at 64 K: in DOM ÷ raw WebGPU', '≤ 2×', `${at64k.ratio_in_dom}×`, at64k.ratio_in_dom <= 2],
    ['scale at 1 M: in DOM ÷ raw WebGPU', '≤ 1.5×', `${at1m.ratio_in_dom}×`, at1m.ratio_in_dom <= 1.5],
    ...(() => {
      const ratio = round(engine('leaky_relu') / engine('scale'));
      return [['leaky_relu ÷ scale, engine time', '≤ 1.5×', `${ratio}×`, ratio <= 1.5]];
    })(),
    ['panic → next result', '≤ 150 ms', `${f.panic_recovery.recovery.median_ms} ms`, f.panic_recovery.recovery.median_ms <= 150],
    ['panic → next result ÷ full reload', '≤ 0.12×', `${f.panic_recovery.ratio}×`, f.panic_recovery.ratio <= 0.12],
    ['first result, cold', '≤ 1.0 s', `${f.navigation.cold.median_ms} ms`, f.navigation.cold.median_ms <= 1000],
    ['first result, cached', '≤ 500 ms', `${f.navigation.cached.median_ms} ms`, f.navigation.cached.median_ms <= 500],
    ...(() => {
      const ratio = round(f.navigation.service_worker.median_ms / f.navigation.cold.median_ms);
      return [['first result, service-worker cache ÷ cold', '≤ 0.3×', `${ratio}× (${f.navigation.service_worker.median_ms} of ${f.navigation.cold.median_ms} ms)`, ratio <= 0.3]];
    })(),
    ...(() => {
      const editor = f.transfer.files.find((row) => row.file === 'editor-ui_bg.wasm');
      return editor ? [['editor wasm, gzip (fetched only when the editor opens)', 'none (recorded)', `${(editor.gzip_bytes / 1e3).toFixed(1)} KB`, null]] : [];
    })(),
    ...(() => {
      const expander = f.transfer.files.find((row) => row.file === 'expander-worker_bg.wasm');
      return expander
        ? [['expander wasm, gzip (fetched only when the editor opens; burn 0.22.1 and 0.23.0-pre.1)', '≤ 250 KB for both versions', `${(expander.gzip_bytes / 1e3).toFixed(1)} KB`, expander.gzip_bytes <= 250e3]]
        : [];
    })(),
    ...(f.editor
      ? [
          ['expansion of the largest edited declaration, in the browser (by both versions)', '≤ 30 ms', `${f.editor.expansion.median_ms} ms`, f.editor.expansion.median_ms <= 30],
          ['keystroke in the editor → its expansion painted', '≤ 100 ms', `${f.editor.keystroke_to_painted.median_ms} ms`, f.editor.keystroke_to_painted.median_ms <= 100],
        ]
      : []),
    ...(f.build.ui_rebuild_s !== undefined
      ? [['rebuild after a UI-only edit', '≤ 30 s', `${f.build.ui_rebuild_s} s`, f.build.ui_rebuild_s <= 30]]
      : []),
    ...(f.training
      ? [
          ['training step ÷ one single run (worst op)', '≤ 2×', `${f.training.ratio}×`, f.training.ratio <= 2],
          ['the same, both on the engine with fusion', '≤ 2×', `${f.training.ratio_fusion}×`, f.training.ratio_fusion <= 2],
        ]
      : []),
  ];
}

async function writeMarkdown(f) {
  const lines = [
    `Measured ${f.date} on ${f.machine}; ${f.browser}; WebGPU adapter: ${f.adapter}.`,
    '',
    '| budget | target | this run | |',
    '|---|---|---|---|',
    ...budgets(f).map(([what, target, value, met]) => `| ${what} | ${target} | ${value} | ${met === null ? '' : met ? 'met' : '**missed**'} |`),
    '',
    '| transfer | raw | gzip, zopfli (.gz) | brotli 11 (.br) |',
    '|---|---|---|---|',
    ...f.transfer.files.map((row) => `| ${row.file} | ${kib(row.raw_bytes)} | ${kib(row.gzip_bytes)} | ${kib(row.brotli_bytes)} |`),
    `| **first visit wasm** (page + engine without fusion) | | **${kib(f.transfer.total_wasm_gzip_bytes)}** | **${kib(f.transfer.total_wasm_brotli_bytes)}** |`,
    '',
    '| first result after navigation | median | p95 |',
    '|---|---|---|',
    `| cold (new browser profile) | ${f.navigation.cold.median_ms} ms | ${f.navigation.cold.p95_ms} ms |`,
    `| HTTP cache (revalidated) | ${f.navigation.cached.median_ms} ms | ${f.navigation.cached.p95_ms} ms |`,
    `| service-worker cache | ${f.navigation.service_worker.median_ms} ms | ${f.navigation.service_worker.p95_ms} ms |`,
    '',
    '| where a first result goes (median, ms after navigation start) | cold | HTTP cache | service-worker cache |',
    '|---|---|---|---|',
    ...[
      ['page wasm fetched', 'page_wasm_fetched'],
      ['page wasm started (`page-started`)', 'page_started'],
      ['engine wasm fetched', 'engine_wasm_fetched'],
      ['engine compiled (`engine-compiled`)', 'engine_compiled'],
      ['engine worker started (`engine-worker-started`)', 'engine_worker_started'],
      ['engine ready: adapter and device (`engine-ready`)', 'engine_ready'],
      ['first outcome in the page (`first-outcome`)', 'first_outcome'],
    ].map(([label, key]) => {
      const at = (kind) => (f.navigation.phases[kind][key] === null ? '—' : `${f.navigation.phases[kind][key]}`);
      return `| ${label} | ${at('cold')} | ${at('cached')} | ${at('service_worker')} |`;
    }),
    '',
    `| op latency, click → painted (${f.runs_per_cell} runs) | median | p95 | median, click → in DOM | median, in the engine |`,
    '|---|---|---|---|---|',
    ...f.op_latency.map(
      (row) => `| ${row.op} · ${row.cell} → ${row.route} | ${row.median_ms} ms | ${row.p95_ms} ms | ${row.dom_median_ms} ms | ${row.engine_median_ms} ms |`,
    ),
    '',
    '| scale, elements | playground, painted | playground, in DOM | of which in the engine | engine: call · reference · read · compare | raw WebGPU | ratio (painted) | ratio (in DOM) | ratio (engine) |',
    '|---|---|---|---|---|---|---|---|---|',
    ...f.size_latency.map((row) => {
      const parts = row.playground.engine_parts_median_ms;
      return `| ${row.elements} | ${row.playground.median_ms} ms | ${row.playground.dom_median_ms} ms | ${row.playground.engine_median_ms} ms | ${parts.call} · ${parts.reference} · ${parts.read} · ${parts.compare} ms | ${row.raw_webgpu.median_ms} ms | ${row.ratio}× | ${row.ratio_in_dom}× | ${row.ratio_engine}× |`;
    }),
    '',
    '| panic recovery | median | p95 |',
    '|---|---|---|',
    `| fix click → correct result painted, spare warm | ${f.panic_recovery.recovery.median_ms} ms | ${f.panic_recovery.recovery.p95_ms} ms |`,
    `| the same, back to back (spare still starting) | ${f.panic_recovery.back_to_back.median_ms} ms | ${f.panic_recovery.back_to_back.p95_ms} ms |`,
    `| full page reload to the same state | ${f.panic_recovery.page_reload.median_ms} ms | ${f.panic_recovery.page_reload.p95_ms} ms |`,
    `| ratio | ${f.panic_recovery.ratio}× | |`,
    '',
    `| training (${f.training.rows[0].steps} steps, custom + builtin model each step) | burn | ms per step | steps per second | GPU dispatches per step | queue submits per step | one single run on the same engine, in the engine | ratio (step ÷ single run) |`,
    '|---|---|---|---|---|---|---|---|',
    ...f.training.rows.map(
      (row) =>
        `| ${row.op} | ${row.fusion ? 'with fusion' : 'without fusion'} | ${row.ms_per_step} ms | ${row.steps_per_second} | ${row.dispatches_per_step} | ${row.submits_per_step} | ${row.single_run_engine_ms} ms | ${row.ratio}× |`,
    ),
  ];
  if (f.build.cold_trunk_build_s !== undefined || f.build.ui_rebuild_s !== undefined) {
    lines.push('', '| build | seconds |', '|---|---|');
    if (f.build.cold_trunk_build_s !== undefined) lines.push(`| cold trunk build --release | ${f.build.cold_trunk_build_s} |`);
    if (f.build.ui_rebuild_s !== undefined) lines.push(`| rebuild after a one-line UI change | ${f.build.ui_rebuild_s} |`);
  }
  const path = join(ROOT, 'BENCHMARKS.md');
  const begin = '<!-- latest-run:begin -->';
  const end = '<!-- latest-run:end -->';
  let document = await readFile(path, 'utf8').catch(() => `# Benchmarks\n\n## Latest run\n\n${begin}\n${end}\n`);
  const before = document.slice(0, document.indexOf(begin) + begin.length);
  const after = document.slice(document.indexOf(end));
  document = `${before}\n${lines.join('\n')}\n${after}`;
  await writeFile(path, document);
}

await main();
