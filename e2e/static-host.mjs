// A plain static host that knows nothing of the project: Python's http.server, serving a parent
// folder that holds the built dist/ at a sub-path (`/burn/playground/`). No precompressed files
// are chosen, no custom headers are sent: what any static host does at the least. The browser
// tests load the playground from it, in Chromium and in Firefox.
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const SUB_PATH = '/burn/playground/';

/**
 * Copies `dist` under a fresh folder at SUB_PATH and serves that folder with `python3 -m
 * http.server` on `port`. Resolves with the page's URL and a `stop()`.
 */
export async function startStaticHost(dist, port) {
  const root = mkdtempSync(join(tmpdir(), 'static-host-'));
  cpSync(dist, join(root, SUB_PATH), { recursive: true });
  const server = spawn('python3', ['-m', 'http.server', String(port), '--bind', '127.0.0.1', '--directory', root], {
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}${SUB_PATH}`;
  for (let attempt = 0; ; attempt++) {
    try {
      const response = await fetch(`${url}index.html`);
      if (response.ok) break;
    } catch (error) {
      if (attempt > 100) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    /** The served copy of dist/ on disk. */
    folder: join(root, SUB_PATH),
    stop() {
      server.kill();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
