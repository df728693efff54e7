// Rewrites the `integrity` attributes trunk put in dist/index.html from the files as shipped:
// trunk hashes each file as it wrote it, and optimize_dist (scripts/lib.sh) then rewrites the wasm
// with wasm-opt, so the page's preload would name a digest no file has (Chromium ignores
// integrity on a fetch preload today; a browser that checks it would refuse the preload and
// download the file again). Usage: node scripts/refresh-integrity.mjs dist/index.html
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

const path = process.argv[2] ?? 'dist/index.html';
const html = await readFile(path, 'utf8');
const tags = [...html.matchAll(/<link\b[^>]*>/g)].map(([tag]) => tag);
let refreshed = html;
let count = 0;
for (const tag of tags) {
  const href = tag.match(/\bhref="([^"]+)"/)?.[1];
  const integrity = tag.match(/\bintegrity="(sha(256|384|512))-[^"]*"/);
  if (!href || !integrity) continue;
  const algorithm = integrity[1];
  const digest = createHash(algorithm)
    .update(await readFile(join(dirname(path), href)))
    .digest('base64');
  refreshed = refreshed.replace(tag, tag.replace(integrity[0], `integrity="${algorithm}-${digest}"`));
  count += 1;
}
await writeFile(path, refreshed);
console.log(`integrity of ${count} links refreshed`);
