// Writes what a build is into the files that need it, after wasm-opt and compression (the sizes
// are those of the precompressed copies dist/ ships; the two files written here are compressed
// again after it):
// - dist/sw.js, the service worker (from src/ui/sw.js), with the build's file list and id, so a
//   visit can be served from the cache of exactly one build;
// - dist/engine-loader.js, with each engine wasm's sizes (raw, gzip, brotli), so the download
//   progress can show the total that crosses the network, and the service worker's cache name, so
//   the page can keep there what it downloaded itself.
// Usage: node scripts/write-build-manifest.mjs dist
import { createHash } from 'node:crypto';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const dir = process.argv[2] ?? 'dist';
const ROOT = new URL('../', import.meta.url);
const OWN = new Set(['sw.js']);

const files = {};
const hash = createHash('sha256');
for (const name of (await readdir(dir)).sort()) {
  // Precompressed copies, the service worker itself, and trunk's hidden lock file are not the build.
  if (/\.(br|gz)$/.test(name) || OWN.has(name) || name.startsWith('.')) continue;
  const bytes = await readFile(join(dir, name));
  hash.update(name).update(bytes);
  // A file with no precompressed copy is sent as it is.
  const copy = (extension) => stat(join(dir, `${name}.${extension}`)).then((copy) => copy.size, () => bytes.length);
  files[name] = { raw: bytes.length, gzip: await copy('gz'), br: await copy('br') };
}
const build = { id: hash.digest('hex').slice(0, 16), files };

const worker = (await readFile(new URL('src/ui/sw.js', ROOT), 'utf8')).replace('const BUILD = null;', `const BUILD = ${JSON.stringify(build)};`);
await writeFile(join(dir, 'sw.js'), worker);

const engines = Object.fromEntries(
  Object.entries(files).filter(([name]) => /^engine-worker(-fusion)?_bg\.wasm$/.test(name)),
);
const loaderPath = join(dir, 'engine-loader.js');
const loader = (await readFile(loaderPath, 'utf8'))
  .replace('const ENGINE_SIZES = null;', `const ENGINE_SIZES = ${JSON.stringify(engines)};`)
  .replace('const CACHE_NAME = null;', `const CACHE_NAME = ${JSON.stringify(`playground-${build.id}`)};`);
await writeFile(loaderPath, loader);
console.log(`build ${build.id}: ${Object.keys(files).length} files; engines ${JSON.stringify(engines)}`);
