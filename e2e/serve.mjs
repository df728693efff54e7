// The static server for the built playground (`dist/`) in the browser tests and benchmarks,
// local only: sirv (a maintained static-file handler) behind Node's http server.
//
// sirv gives correct MIME types (wasm streaming compilation insists on application/wasm),
// validators (ETag, so a second visit revalidates instead of downloading the wasm again), and
// the precompressed `.br`/`.gz` files `dist/` ships, chosen by Accept-Encoding — as a static host
// would serve them. Whatever the request (a malformed escape, a path outside dist/, an absurd
// URL), it gets a response; the server never stops. Usage: node serve.mjs [dir] [port]
import { createServer } from 'node:http';
import { join, resolve } from 'node:path';
import sirv from 'sirv';

const root = resolve(process.argv[2] ?? join(import.meta.dirname, '..', 'dist'));
const port = Number(process.argv[3] ?? process.env.PORT ?? 4173);

const files = sirv(root, { dev: false, etag: true, brotli: true, gzip: true, maxAge: 0 });

// Links carry the scenario in the query: allow long ones (the page itself refuses oversized
// fields).
const server = createServer({ maxHeaderSize: 1 << 20 }, (request, response) => {
  const notFound = () => {
    if (!response.headersSent) response.writeHead(404, { 'content-type': 'text/plain' });
    response.end('not found');
  };
  try {
    // Revalidate every time (a static host's usual `no-cache`), with the ETag saving the body.
    response.setHeader('cache-control', 'no-cache');
    files(request, response, notFound);
  } catch {
    // sirv throws on a path it cannot decode (a malformed percent-escape).
    if (!response.headersSent) response.writeHead(400, { 'content-type': 'text/plain' });
    response.end('bad request');
  }
});
server.on('clientError', (_error, socket) => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n'));
server.listen(port, '127.0.0.1', () => console.log(`serving ${root} on http://127.0.0.1:${port}`));
