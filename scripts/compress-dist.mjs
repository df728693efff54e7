// Writes a brotli (.br) and a gzip (.gz) copy beside every text and wasm file of dist/, so a
// static host (and e2e/serve.mjs) can send them precompressed at the best ratio, with no work
// per request. The gzip copies are zopfli's: a gzip stream any browser reads, about 4 % smaller
// than zlib's level 9 on the wasm files (BENCHMARKS.md has the figures), for a few seconds per
// megabyte, once per build. Usage: node scripts/compress-dist.mjs dist [file…] (default: every
// compressible file).
import { execFile } from 'node:child_process';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompressSync, constants } from 'node:zlib';

const [dir = 'dist', ...named] = process.argv.slice(2);
const COMPRESSIBLE = /\.(wasm|js|css|html|svg|json)$/;
// zopfli's iterations: on the page's wasm 5 give the size the default 15 give, in half the time.
const ZOPFLI = ['--i5', '--gzip', '-c'];

const run = promisify(execFile);
const names = named.length ? named : (await readdir(dir)).filter((name) => COMPRESSIBLE.test(name));

async function compress(name) {
  const path = join(dir, name);
  const bytes = await readFile(path);
  const brotli = brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
  await writeFile(`${path}.br`, brotli);
  const { stdout: gzip } = await run('zopfli', [...ZOPFLI, path], { encoding: 'buffer', maxBuffer: 1 << 30 });
  await writeFile(`${path}.gz`, gzip);
  console.log(`${name}: ${bytes.length} bytes, brotli ${brotli.length}, gzip ${gzip.length}`);
}

// Largest first, two at a time (zopfli is single-threaded).
const sizes = new Map(await Promise.all(names.map(async (name) => [name, (await stat(join(dir, name))).size])));
const queue = [...names].sort((a, b) => sizes.get(b) - sizes.get(a));
await Promise.all([0, 1].map(async () => {
  while (queue.length) await compress(queue.shift());
}));
