// The numbers README.md and RELIABILITY.md quote, counted from what the tests ran: the golden
// tables' cells, and the browser tests' own reports (e2e/artifacts/chromium.json from Playwright,
// e2e/artifacts/firefox.json from the Firefox project's reporter).
//
// In the documents each number sits between markers: <!-- count:NAME -->123<!-- /count -->.
//   node scripts/doc-counts.mjs          checks every marked number (exit 1 on a mismatch)
//   node scripts/doc-counts.mjs --write  writes the counted numbers into the documents
//   node scripts/doc-counts.mjs --counts prints the counts of the last runs, on one line
import { readFileSync, writeFileSync } from 'node:fs';

const ROOT = new URL('../', import.meta.url);
const read = (path) => readFileSync(new URL(path, ROOT), 'utf8');
const json = (path) => JSON.parse(read(path));

const matrix = json('tests/golden/matrix.json');
const training = json('tests/golden/training.json');
const fusionMatrix = json('tests/golden/matrix-fusion.json');
const fusionTraining = json('tests/golden/training-fusion.json');
const cells = new Set(Object.keys(matrix.cells));
const fusionCells = new Set(Object.keys(fusionMatrix.cells));

/** Every test in Playwright's JSON report: `{ file, title, ok }`. */
function chromiumTests() {
  const report = json('e2e/artifacts/chromium.json');
  const tests = [];
  const walk = (suite, file) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        tests.push({ file: spec.file ?? file, title: spec.title, ok: test.status === 'expected' });
      }
    }
    for (const child of suite.suites ?? []) walk(child, child.file ?? file);
  };
  for (const suite of report.suites) walk(suite, suite.file);
  return tests;
}

function counts() {
  const chromium = chromiumTests();
  const firefox = json('e2e/artifacts/firefox.json');
  const golden = (tests, table = cells) => tests.filter((test) => table.has(test.title ?? test.name)).length;
  const fusionRows = Object.values(fusionMatrix.cells);
  const inFile = (tests, name) => tests.filter((test) => (test.file ?? '').endsWith(name));
  const phone = inFile(chromium, 'phone.spec.js');
  return {
    'matrix-cells': cells.size,
    'editor-cases': Object.keys(json('tests/golden/editor-cases.json')).length,
    'training-cells': Object.keys(training).length,
    'fusion-matrix-cells': fusionCells.size,
    'fusion-not-built-cells': fusionRows.filter((row) => row.outcome === 'not-built').length,
    'fusion-training-cells': Object.keys(fusionTraining).length,
    'chromium-fusion-cells': golden(inFile(chromium, 'fusion.spec.js'), fusionCells),
    'chromium-tests': chromium.length,
    'chromium-desktop-cells': golden(inFile(chromium, 'matrix.spec.js')),
    'chromium-phone-cells': golden(phone),
    'firefox-tests': firefox.length,
    'firefox-shipped-tests': inFile(firefox, 'shipped.test.mjs').length,
    'firefox-webgpu-cells': golden(inFile(firefox, 'webgpu.test.mjs').map((test) => ({ title: test.name }))),
    'browser-tests': chromium.length + firefox.length,
    'browser-failures': chromium.filter((test) => !test.ok).length + firefox.filter((test) => !test.passed).length,
  };
}

if (process.argv.includes('--counts')) {
  const { 'browser-tests': tests, 'browser-failures': failures } = counts();
  console.log(`${tests} browser tests, ${failures} failed`);
  process.exit(0);
}

const MARKER = /<!-- count:([a-z0-9-]+) -->([^<]*)<!-- \/count -->/g;
const DOCUMENTS = ['README.md', 'RELIABILITY.md'];
const counted = counts();
let problems = 0;
for (const document of DOCUMENTS) {
  const text = read(document);
  const updated = text.replace(MARKER, (whole, name, shown) => {
    if (!(name in counted)) {
      console.error(`${document}: unknown count "${name}"`);
      problems += 1;
      return whole;
    }
    const value = counted[name].toLocaleString('en-US');
    if (shown !== value) {
      if (!process.argv.includes('--write')) console.error(`${document}: ${name} says ${shown}, the runs counted ${value}`);
      problems += 1;
    }
    return `<!-- count:${name} -->${value}<!-- /count -->`;
  });
  if (process.argv.includes('--write')) writeFileSync(new URL(document, ROOT), updated);
}
if (process.argv.includes('--write')) {
  console.log(JSON.stringify(counted, null, 2));
} else if (problems > 0) {
  process.exit(1);
} else {
  console.log(`doc counts match the runs: ${JSON.stringify(counted)}`);
}
