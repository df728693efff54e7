// Writes a brotli (.br) and a gzip (.gz) copy beside every text and wasm file of dist/, so a
// static host (and e2e/serve.mjs) can send them precompressed at the best ratio, with no work
// per request. Usage: node scripts/compress-dist.mjs dist
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dir = process.argv[2] ?? 'dist';
const COMPRESSIBLE = /\.(wasm|js|css|html|svg|json)$/;

for (const name of await readdir(dir)) {
  if (!COMPRESSIBLE.test(name)) continue;
  const bytes = await readFile(join(dir, name));
  const brotli = brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
  const gzip = gzipSync(bytes, { level: 9 });
  await writeFile(join(dir, `${name}.br`), brotli);
  await writeFile(join(dir, `${name}.gz`), gzip);
  console.log(`${name}: ${bytes.length} bytes, brotli ${brotli.length}, gzip ${gzip.length}`);
}
