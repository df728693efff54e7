// The static server the tests and benchmarks use (serve.mjs) answers every request, whatever it
// holds, and keeps serving afterwards.
import { test, expect } from '@playwright/test';
import { connect } from 'node:net';

const PORT = Number(process.env.E2E_PORT ?? 4173);

/** Sends `raw` as the request line and headers; resolves with the status line of the answer. */
function rawRequest(raw) {
  return new Promise((resolve, reject) => {
    const socket = connect(PORT, '127.0.0.1', () => socket.end(raw));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('end', () => resolve(answer.split('\r\n')[0]));
    socket.on('error', reject);
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer')));
  });
}

const REQUESTS = [
  ['a malformed percent-escape', 'GET /%E0%A4%A HTTP/1.1', /^HTTP\/1\.1 40[04]/],
  ['a lone percent sign', 'GET /% HTTP/1.1', /^HTTP\/1\.1 40[04]/],
  ['an encoded NUL', 'GET /index.html%00 HTTP/1.1', /^HTTP\/1\.1 40[04]/],
  ['a path outside dist/', 'GET /../../../../etc/passwd HTTP/1.1', /^HTTP\/1\.1 40[04]/],
  ['an encoded path outside dist/', 'GET /..%2F..%2F..%2Fetc%2Fpasswd HTTP/1.1', /^HTTP\/1\.1 40[04]/],
  ['a 100 kB path', `GET /${'a'.repeat(100_000)} HTTP/1.1`, /^HTTP\/1\.1 (404|414|431|400)/],
  ['a request that is not HTTP', 'HELLO', /^HTTP\/1\.1 400/],
  ['an unknown method', 'BREW /index.html HTTP/1.1', /^HTTP\/1\.1 (400|404|405|501)/],
];

for (const [what, line, status] of REQUESTS) {
  test(`the test server answers ${what} and keeps serving`, async ({ request }) => {
    expect(await rawRequest(`${line}\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`)).toMatch(status);
    const page = await request.get('/index.html');
    expect(page.status()).toBe(200);
  });
}

test('the test server serves wasm as application/wasm, precompressed when asked', async ({ request }) => {
  const wasm = await request.get('/engine-worker_bg.wasm', { headers: { 'accept-encoding': 'br' } });
  expect(wasm.status()).toBe(200);
  expect(wasm.headers()['content-type']).toBe('application/wasm');
  expect(wasm.headers()['content-encoding']).toBe('br');
});
