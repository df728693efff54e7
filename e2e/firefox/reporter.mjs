// A node:test reporter that writes every test that ran, as JSON, for the documents' counts
// (scripts/doc-counts.mjs): `[{ file, name, passed }]`, suites left out.
import { writeFileSync, mkdirSync } from 'node:fs';
import { relative } from 'node:path';

export default async function* jsonReporter(source) {
  const tests = [];
  for await (const event of source) {
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.details?.type !== 'suite') {
      tests.push({
        file: event.data.file ? relative(process.cwd(), event.data.file) : null,
        name: event.data.name,
        passed: event.type === 'test:pass',
      });
    }
  }
  mkdirSync('artifacts', { recursive: true });
  writeFileSync('artifacts/firefox.json', `${JSON.stringify(tests, null, 2)}\n`);
  yield '';
}
