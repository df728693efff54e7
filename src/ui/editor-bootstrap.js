// Loads the editor's own wasm (bin `editor-ui`: "Write your own declaration", see
// src/ui/editor_view.rs) and mounts it in its box. The page adds this script only when the box
// first opens, after putting the box, its link and its callbacks in `window.playgroundEditor`
// (src/ui/editor_shell.rs), so a visit that never opens the editor downloads none of it.
const { host, link, started, failed } = window.playgroundEditor;
try {
  const { default: init, mount_editor } = await import('./editor-ui.js');
  await init();
  mount_editor(host, link);
  started();
} catch (error) {
  failed(String(error));
}
