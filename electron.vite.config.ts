import { resolve } from 'node:path'
import { defineConfig, externalizeDepsPlugin } from 'electron-vite'
import vue from '@vitejs/plugin-vue'

// Main and preload are CommonJS (no "type" in package.json): a sandboxed preload must not be ESM.
export default defineConfig({
  main: {
    plugins: [externalizeDepsPlugin()],
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'electron/main/index.ts'),
          // The bulk import worker (worker_threads) is its own file: import-service.ts starts it.
          'bulk-import-worker': resolve(__dirname, 'electron/main/services/bulk/import/import-worker.ts'),
          // The PDF worker: documents/pdf-renderer.ts starts it for each run summary and advice job.
          'pdf-worker': resolve(__dirname, 'electron/main/services/documents/pdf-worker.ts'),
          // The file reader (decision 100): files/file-reader.ts starts it for each file a person hands over.
          'file-reader-worker': resolve(__dirname, 'electron/main/services/files/file-reader-worker.ts'),
          // The payee book (decision 116): payees/payees-service.ts starts it once, on first use.
          'payee-book-worker': resolve(__dirname, 'electron/main/services/payees/payee-book-worker.ts'),
        },
        // A package loaded on first use (SheetJS, chardet: `await import(...)`) is required, not
        // imported as ESM, so main and its worker load every package the one way, as CommonJS.
        output: { dynamicImportInCjs: false },
      },
    },
  },
  preload: {
    // A sandboxed preload can require only 'electron' (and a few builtins): bundle zod into it.
    plugins: [externalizeDepsPlugin({ exclude: ['zod'] })],
    build: {
      outDir: 'out/preload',
      rollupOptions: { input: { index: resolve(__dirname, 'electron/preload/index.ts') } },
    },
  },
  renderer: {
    root: resolve(__dirname, 'renderer'),
    plugins: [
      // Every component here is <script setup>, as are naive-ui's (setup and render): Vue's support
      // for data/methods/computed options is left out of the bundle.
      vue({ features: { optionsAPI: false } }),
    ],
    resolve: {
      // Code naive-ui brings that this app never runs (see each shim): not loaded with any screen.
      alias: {
        '@juggle/resize-observer': resolve(__dirname, 'renderer/src/shims/resize-observer.ts'),
        'async-validator': resolve(__dirname, 'renderer/src/shims/async-validator.ts'),
      },
    },
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      // electron-vite leaves the renderer unminified; minified, the first screen loads about half
      // the JavaScript. Names stay readable in stacks through the source maps of a MAPS=1 build.
      minify: true,
      sourcemap: Boolean(process.env['MAPS']),
      rollupOptions: { input: { index: resolve(__dirname, 'renderer/index.html') } },
    },
  },
})
