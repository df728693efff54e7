// Adds a Content-Security-Policy to dist/index.html: scripts only from the site itself plus the
// one inline loader trunk writes (allowed by its SHA-256, so no other inline script runs),
// WebAssembly compilation ('wasm-unsafe-eval', which wasm needs and nothing else gets), and no
// plugins, foreign bases or form targets. Usage: node scripts/add-csp.mjs dist/index.html
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';

const path = process.argv[2] ?? 'dist/index.html';
let html = await readFile(path, 'utf8');
html = html.replace(/\s*<meta http-equiv="Content-Security-Policy"[^>]*>/, '');
const hashes = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
  ([, body]) => `'sha256-${createHash('sha256').update(body).digest('base64')}'`,
);
const policy = [
  "default-src 'self'",
  `script-src 'self' 'wasm-unsafe-eval' ${hashes.join(' ')}`,
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');
html = html.replace(
  /<meta charset="utf-8"\s*\/?>/,
  (charset) => `${charset}\n    <meta http-equiv="Content-Security-Policy" content="${policy}" />`,
);
await writeFile(path, html);
console.log(`Content-Security-Policy: ${policy}`);
