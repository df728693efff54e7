// Reliability: a soak through the UI, hostile inputs and links, the Content-Security-Policy, and
// WebGPU or the worker missing, degraded or failing. Each case asserts exact outcomes.
import { test, expect } from '@playwright/test';
import { writeFile, mkdir } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { Playground } from '../pages/playground.js';
import { engineWorker, freezeEngine, instrumentEngine } from '../pages/instrumented-engine.js';
import { leakVerdict, soak } from '../soak.js';

const SOAK_RUNS = Number(process.env.SOAK_RUNS ?? 100);

test('soak: every cell that runs, in turn, exact, on one worker whose footprint stays flat', async ({ page }) => {
  test.setTimeout(60_000 + SOAK_RUNS * 3_000);
  await instrumentEngine(page);
  const playground = new Playground(page);
  await playground.open();
  const samples = await soak(playground, SOAK_RUNS);
  await mkdir('artifacts', { recursive: true });
  await writeFile('artifacts/soak.json', JSON.stringify({ runs: SOAK_RUNS, samples }, null, 2));
  // One worker served the whole soak, so the samples see its memory over time, not a fresh
  // worker's each time.
  expect(leakVerdict(samples)).toEqual([]);
});

test("the soak's leak check fails on a synthetic leak", async ({ page }) => {
  test.setTimeout(240_000);
  await instrumentEngine(page, { leak: true });
  const playground = new Playground(page);
  await playground.open();
  const samples = await soak(playground, 60);
  const verdict = leakVerdict(samples);
  expect(verdict.some((problem) => problem.startsWith('wasm_memory_bytes grew'))).toBe(true);
  expect(verdict.some((problem) => problem.startsWith('live_gpu_buffers grew'))).toBe(true);
});

/** Inputs and what the page must show for them (scale, factor 2). */
function hostileInputs() {
  const cases = [
    { text: '', error: 'Enter at least one number.' },
    { text: '   \n\t ', error: 'Enter at least one number.' },
    { text: ',,;;', error: 'Enter at least one number.' },
    { text: '１２', error: 'Value 1 (`１２`) is not a number.' },
    { text: '٣', error: 'Value 1 (`٣`) is not a number.' },
    { text: '1e309', error: 'Value 1 (`1e309`) is not finite; use a finite number.' },
    { text: 'NaN', error: 'Value 1 (`NaN`) is not finite; use a finite number.' },
    { text: '1, -inf', error: 'Value 2 (`-inf`) is not finite; use a finite number.' },
    { text: '1e39', error: 'Value 1 (`1e39`) is outside the f32 range (±3.4e38).' },
    { text: '<script>alert(1)</script>', error: 'Value 1 (`<script>alert(1)</script…`) is not a number.' },
    { text: '1, 2; 3', error: 'Row 2 has 1 value, but row 1 has 2: every row needs the same length.' },
    { text: '1 2 3\n4 5', error: 'Row 2 has 2 values, but row 1 has 3: every row needs the same length.' },
    { text: '[1, 2]', error: 'Value 1 (`[1`) is not a number.' },
    { text: '0x10', error: 'Value 1 (`0x10`) is not a number.' },
    { text: '1_000', error: 'Value 1 (`1_000`) is not a number.' },
    { text: '-0', output: '-0' },
    { text: '1e-3', output: '0.002' },
    { text: '+3.5, .5, 5.', output: '7, 1, 10' },
    { text: '1; 2; 3', output: '2, 4, 6' },
  ];
  // Random valid vectors (exact binary fractions, so products are exact) and random garbage.
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let i = 0; cases.length < 200; i++) {
    if (i % 2 === 0) {
      const xs = Array.from({ length: 1 + Math.floor(next() * 6) }, () => Math.round((next() - 0.5) * 64) / 4);
      cases.push({ text: xs.join(', '), output: xs.map((x) => x * 2).join(', ') });
    } else {
      const junk = String.fromCharCode(...Array.from({ length: 1 + Math.floor(next() * 5) }, () => 0x41 + Math.floor(next() * 26)));
      const position = 1 + Math.floor(next() * 3);
      const xs = Array.from({ length: position - 1 }, (_, k) => k + 1);
      cases.push({ text: [...xs, junk].join(', '), error: `Value ${position} (\`${junk}\`) is not a number.` });
    }
  }
  return cases;
}

test('≥200 hostile inputs through the real fields: a clear message or a correct result', async ({ page }) => {
  test.setTimeout(600_000);
  const playground = new Playground(page);
  await playground.open('?op=scale&declares_autodiff=no&grad=off&require_grad=off&fix=none&param=2');
  const cases = hostileInputs();
  expect(cases.length).toBeGreaterThanOrEqual(200);
  for (const { text, error, output } of cases) {
    await playground.typeTensor(text);
    if (error) {
      expect(await playground.fieldError('tensor'), JSON.stringify(text)).toBe(error);
    } else {
      expect(await playground.fieldError('tensor'), JSON.stringify(text)).toBe('');
      expect(await playground.text('output-values'), JSON.stringify(text)).toBe(output);
    }
  }
  // Sizes: ten million values, and ten megabytes of text, typed into the field.
  await playground.typeTensor('1,'.repeat(10_000_000));
  expect(await playground.fieldError('tensor')).toBe('The text is 20000000 bytes long; the limit is 16777216 bytes.');
  await playground.typeTensor('1 '.repeat(5_000_000));
  expect(await playground.fieldError('tensor')).toBe('Too many values: the limit is 1048576.');
  // Parameter field.
  for (const [param, message] of [
    ['', 'Enter at least one number.'],
    ['1 2', 'Enter exactly one number (found 2).'],
    ['inf', 'Value 1 (`inf`) is not finite; use a finite number.'],
  ]) {
    await playground.typeParam(param);
    expect(await playground.fieldError('param')).toBe(message);
  }
  // The page is alive and still computes.
  await playground.typeParam('2');
  await playground.typeTensor('1, 2');
  expect(await playground.text('output-values')).toBe('2, 4');
});

test('hostile links: unknown keys, wrong types, huge values and scripts are ignored with notices', async ({ page }) => {
  const script = '<script>window.__pwned=1</script>';
  const params = new URLSearchParams();
  for (const key of ['op', 'declares_autodiff', 'declares_flex', 'grad', 'require_grad', 'fix', 'backend']) params.set(key, script);
  params.set('x', 'x'.repeat(70_000));
  params.set('param', script);
  params.set(script, '1');
  const playground = new Playground(page);
  await playground.open(`?${params}`);
  const notices = await page.getByTestId('url-notices').locator('li').allInnerTexts();
  expect(notices).toEqual([
    'Ignored “op” in the link: its value is not one the playground takes.',
    'Ignored “declares_autodiff” in the link: its value is not one the playground takes.',
    'Ignored “declares_flex” in the link: its value is not one the playground takes.',
    'Ignored “grad” in the link: its value is not one the playground takes.',
    'Ignored “require_grad” in the link: its value is not one the playground takes.',
    'Ignored “fix” in the link: its value is not one the playground takes.',
    'Ignored “backend” in the link: its value is not one the playground takes.',
    'Ignored x: it is too long to load from a link.',
    'Ignored “<script>window.__pwned=1</script…” in the link: not a playground setting.',
  ]);
  // The parameter text is kept as text, explained next to its field, never run or rendered.
  await expect(playground.paramField).toHaveValue(script);
  expect(await playground.fieldError('param')).toBe('Value 1 (`<script>window.__pwned=1…`) is not a number.');
  expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
  await expect(page.locator('main script')).toHaveCount(0);
});

test('the Content-Security-Policy allows the app and refuses inline script', async ({ page }) => {
  const violations = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  const playground = new Playground(page);
  await playground.open('?op=scale&declares_autodiff=yes&grad=on&require_grad=on');
  expect(await playground.outcomeKind()).toBe('completed');
  const policy = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  expect(policy).toContain("script-src 'self' 'wasm-unsafe-eval' 'sha256-");
  expect(policy).not.toContain('unsafe-inline');
  expect(violations).toEqual([]);
  const ran = await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.__inline = 1';
    document.body.append(script);
    return window.__inline;
  });
  expect(ran).toBeUndefined();
});

test("every integrity attribute in index.html is the digest of the file as served", async ({ request }) => {
  const html = await (await request.get('/index.html')).text();
  const links = [...html.matchAll(/<link\b[^>]*\bintegrity="(sha384)-([^"]+)"[^>]*>/g)].map(([tag, algorithm, digest]) => ({
    href: tag.match(/\bhref="([^"]+)"/)[1],
    algorithm,
    digest,
  }));
  // The stylesheet, the icon, the page's script and its wasm.
  expect(links.map(({ href }) => href.replace(/-[0-9a-f]{14,16}(?=[._])/, '')).sort()).toEqual([
    './favicon.svg',
    './main.css',
    './playground.js',
    './playground_bg.wasm',
  ]);
  for (const { href, algorithm, digest } of links) {
    const body = await (await request.get(href, { headers: { 'accept-encoding': 'identity' } })).body();
    expect(createHash(algorithm).update(body).digest('base64'), href).toBe(digest);
  }
});

test('an adapter without timestamp-query: a plain message, the CPU runs, results are correct', async ({ page }) => {
  await instrumentEngine(page, { hideTimestampQuery: true });
  const playground = new Playground(page);
  await playground.open('?op=scale&declares_autodiff=yes&grad=on&require_grad=on&x=1,-2&param=3');
  await expect(playground.engineStatus).toContainText('lacks the `timestamp-query` feature');
  await expect(playground.engineStatus).toContainText('burn-flex');
  expect(await playground.text('device')).toBe('CPU · Flex (CPU)');
  expect(await playground.text('output-values')).toBe('3, -6');
  expect(await playground.text('gradient-values')).toBe('3, 3');
});

test('the GPU device lost mid-session: a plain message, a new device, the next run correct', async ({ page }) => {
  await instrumentEngine(page);
  const playground = new Playground(page);
  await playground.open('?op=scale&declares_autodiff=yes&grad=on&require_grad=on&x=1,-2&param=3');
  expect(await playground.text('output-values')).toBe('3, -6');
  await (await engineWorker(page)).evaluate(() => self.__gpuDevice.destroy());
  await expect(playground.engineStatus).toContainText('The GPU device was lost');
  await playground.waitForEngine();
  await expect(playground.engineStatus).toContainText('Engine ready on WebGPU');
  await playground.typeParam('4');
  expect(await playground.text('output-values')).toBe('4, -8');
  expect(await playground.text('device')).toMatch(/^WebGPU · /);
});

test('a browser that refuses to create the engine worker: the refusal is said, with its reason', async ({ page }) => {
  // Both the loader's early worker and the page's own are refused (as a policy blocking workers would).
  await page.addInitScript(() => {
    const Original = window.Worker;
    window.Worker = function (url, options) {
      if (String(url).includes('engine-bootstrap')) throw new TypeError('workers are blocked here');
      return new Original(url, options);
    };
  });
  const playground = new Playground(page);
  await page.goto('/index.html?op=scale&declares_autodiff=no&grad=off&require_grad=off&x=1,2&param=2');
  await expect(playground.engineStatus).toContainText('The engine worker could not start: ', { timeout: 60_000 });
  await expect(playground.engineStatus).toContainText('workers are blocked here');
  await expect(playground.engineStatus).toBeVisible();
});

test('the worker script failing to load: a clear failure, no endless spinner, a retry that works', async ({ page }) => {
  await page.route('**/engine-bootstrap.js', (route) => route.abort());
  const playground = new Playground(page);
  await page.goto('/index.html?op=scale&declares_autodiff=no&grad=off&require_grad=off&x=1,2&param=2');
  await expect(playground.engineStatus).toContainText(
    'The engine worker failed to start 3 times in a row: its script could not be loaded',
    { timeout: 60_000 },
  );
  await playground.settled();
  expect(await playground.outcomeKind()).toBe('failed');
  await expect(page.locator('.spinner')).toHaveCount(0);
  // Later runs are answered at once with the same failure, never left "Running…".
  await playground.typeParam('3');
  expect(await playground.outcomeKind()).toBe('failed');
  await expect(playground.outcomePanel.getByTestId('run-status')).toHaveText('');
  // The script is back: Try again starts the engine and runs the scenario.
  await page.unroute('**/engine-bootstrap.js');
  await page.getByRole('button', { name: 'Try again' }).click();
  await playground.waitForEngine();
  await playground.settled();
  expect(await playground.text('output-values')).toBe('3, 6');
});

test('the engine failing to download: the reason is said, and a retry loads it', async ({ page }) => {
  // The first engine worker downloads the engine (engine-boot.js); the retry is the page's own.
  await page.route('**/engine-worker_bg.wasm', (route) => route.fulfill({ status: 503, body: 'down' }));
  const playground = new Playground(page);
  await page.goto('/index.html?op=scale&declares_autodiff=no&grad=off&require_grad=off&x=1,2&param=2');
  await expect(playground.engineStatus).toContainText(
    'The engine could not be loaded: engine-worker_bg.wasm: HTTP 503',
    { timeout: 60_000 },
  );
  await page.unroute('**/engine-worker_bg.wasm');
  await page.getByRole('button', { name: 'Try again' }).click();
  await playground.waitForEngine();
  await playground.settled();
  expect(await playground.text('output-values')).toBe('2, 4');
});

test("an invalid field marks the outcome shown as the previous valid scenario's", async ({ page }) => {
  const playground = new Playground(page);
  await playground.open('?op=scale&declares_autodiff=no&grad=off&require_grad=off&x=1,2&param=2');
  expect(await playground.text('output-values')).toBe('2, 4');
  await expect(playground.outcomePanel.getByTestId('stale-note')).toHaveCount(0);
  await playground.typeTensor('1, two');
  await expect(playground.outcomePanel.getByTestId('stale-note')).toHaveText(
    'A field above does not parse, so nothing ran: this is the outcome of the previous valid scenario.',
  );
  await expect(playground.outcomePanel.locator('.outcome')).toHaveClass(/outcome-stale/);
  await playground.typeTensor('1, 3');
  expect(await playground.text('output-values')).toBe('2, 6');
  await expect(playground.outcomePanel.getByTestId('stale-note')).toHaveCount(0);
});

test('an input too large for a link: the link keeps the rest and says so; history never throws', async ({ page }) => {
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const playground = new Playground(page);
  await playground.open('?op=scale&declares_autodiff=no&grad=off&require_grad=off&param=2');
  const big = Array.from({ length: 40_000 }, (_, i) => i % 7).join(', ');
  await playground.typeTensor(big);
  expect(await playground.text('output-meta')).toBe('[40000] F32');
  await expect(page.getByTestId('share-limit')).toContainText('longer than a link can carry');
  const url = new URL(page.url());
  expect(url.searchParams.get('x')).toBeNull();
  expect(url.searchParams.get('param')).toBe('2');
  expect(page.url().length).toBeLessThan(1000);
  // Small again: the link carries the field again and the note goes.
  await playground.typeTensor('1, 2');
  expect(new URL(page.url()).searchParams.get('x')).toBe('1, 2');
  await expect(page.getByTestId('share-limit')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('"Running…" is said only of a run unanswered after 100 ms: a quick answer never flashes it', async ({ page }) => {
  await instrumentEngine(page);
  const playground = new Playground(page);
  await playground.open('?op=scale&declares_autodiff=no&grad=off&require_grad=off&x=1,2&param=2');
  // Every text the run status takes from now on.
  await page.evaluate(() => {
    const status = document.querySelector('[data-testid="run-status"]');
    window.__statusTexts = [];
    new MutationObserver(() => window.__statusTexts.push(status.textContent)).observe(status, {
      childList: true,
      characterData: true,
      subtree: true,
    });
  });
  // The page's timers stand still from here: only the test moves its clock.
  await page.clock.install();
  await page.clock.pauseAt(Date.now() + 1_000);
  await playground.run();
  expect(await playground.text('output-values')).toBe('2, 4');
  expect(await page.evaluate(() => window.__statusTexts.filter((text) => text !== ''))).toEqual([]);
  // The next run waits 5 s of real time for its answer.
  await freezeEngine(page, 5_000);
  // Typed, then run at once (the pause after typing is a timer, and timers stand still).
  await playground.paramField.fill('3');
  await playground.pressRun();
  await expect(playground.outcomePanel).toHaveAttribute('aria-busy', 'true');
  await page.clock.runFor(99);
  await expect(playground.runStatus).toHaveText('');
  await page.clock.runFor(1);
  await expect(playground.runStatus).toHaveText('Running…');
  await playground.settled();
  expect(await playground.text('output-values')).toBe('3, 6');
  await expect(playground.runStatus).toHaveText('');
});

test('a run that never answers: a timeout with a clear message, a restart, then correct runs', async ({ page }) => {
  test.setTimeout(120_000);
  await instrumentEngine(page);
  const playground = new Playground(page);
  await playground.open('?op=scale&declares_autodiff=no&grad=off&require_grad=off&x=1,2&param=2');
  await freezeEngine(page, 10 * 60_000);
  await playground.run();
  expect(await playground.outcomeKind()).toBe('failed');
  expect(await playground.text('failure-message')).toBe(
    'The engine did not answer within 30 s, so it was stopped and restarted. Run again to retry.',
  );
  await playground.waitForEngine();
  await playground.run();
  expect(await playground.text('output-values')).toBe('2, 4');
});
