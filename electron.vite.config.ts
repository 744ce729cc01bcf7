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
        },
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
    plugins: [vue()],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      rollupOptions: { input: { index: resolve(__dirname, 'renderer/index.html') } },
    },
  },
})
