// vueuc (under naive-ui) bundles the @juggle/resize-observer polyfill but uses the browser's own
// ResizeObserver wherever there is one, which Electron's Chromium always has. The build points the
// polyfill here (electron.vite.config.ts), so its 8 kB are not loaded with the first screen.
export const ResizeObserver = window.ResizeObserver
