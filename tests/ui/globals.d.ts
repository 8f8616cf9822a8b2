// What the page reads from `window` besides the DOM: Tauri's own internals, present only inside
// the app (ipc.js checks for them), and the browser tests' fake backend, which stands in for
// them (fake-tauri.js).
interface Window {
  __TAURI_INTERNALS__?: unknown;
}
