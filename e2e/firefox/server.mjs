// Starts the tests' static server (serve.mjs, as the Chromium tests use it) on `port` for dist/.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export async function startServer(port) {
  const serve = fileURLToPath(new URL('../serve.mjs', import.meta.url));
  const dist = fileURLToPath(new URL('../../dist', import.meta.url));
  const server = spawn(process.execPath, [serve, dist, String(port)], { stdio: 'ignore' });
  for (let attempt = 0; ; attempt++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/index.html`)).ok) break;
    } catch (error) {
      if (attempt > 100) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { stop: () => server.kill() };
}

/** dist/, for the static host. */
export const DIST = fileURLToPath(new URL('../../dist', import.meta.url));
