// Module-worker bootstrap for the expander (burn's macro code compiled to wasm, see
// crates/macro-expander). The page starts it only when the editor opens, so a visit that never
// opens the editor never downloads it.
//
// Messages in: `{ id, texts: [string] }`. Out: `{ id, answers: [Uint8Array] }`, each answer a
// postcard-encoded `Expansion` (transferred, not copied), or `{ id, crashed: string }` when the
// wasm trapped (a stack overflow, a panic): the page then replaces this worker, whose wasm
// instance is not to be trusted after a trap. `{ licenses: true }` answers `{ licenses: string }`.
import init, { expand, licenses } from './expander-worker.js';

const ready = init();

self.addEventListener('message', async ({ data }) => {
  try {
    await ready;
  } catch (error) {
    self.postMessage({ id: data.id, crashed: `the expander could not start: ${error}` });
    return;
  }
  if (data.licenses) {
    self.postMessage({ licenses: licenses() });
    return;
  }
  try {
    const answers = data.texts.map((text) => expand(text));
    self.postMessage({ id: data.id, answers }, answers.map((answer) => answer.buffer));
  } catch (error) {
    self.postMessage({ id: data.id, crashed: String(error) });
  }
});
