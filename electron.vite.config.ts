import { resolve } from 'node:path'
import { defineConfig, externalizeDepsPlugin } from 'electron-vite'
import vue from '@vitejs/plugin-vue'
import type { Plugin } from 'vite'

const FIRST_SCREEN = resolve(__dirname, 'renderer/src/views/PayoutsView.vue')

/**
 * The first screen's code is a lazy route like every other screen's, so the browser would only ask
 * for it once the entry has run and the router has resolved `/`. This lists its chunks in
 * index.html as <link rel="modulepreload">, so they download and compile beside the entry, and its
 * styles as stylesheets (the dynamic import would otherwise wait for them after the entry has run).
 */
function preloadFirstScreen(view: string): Plugin {
  return {
    name: 'payout-desk:preload-first-screen',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle, chunk: entry }) {
        if (!bundle || !entry) return []
        // Its chunk, which may hold more than the view (rollup gives it no facade then).
        const screen = Object.values(bundle).find(
          (output) => output.type === 'chunk' && output.moduleIds.includes(view),
        )
        if (!screen) throw new Error(`preload-first-screen: no chunk holds ${view}`)
        const files = new Set<string>()
        const visit = (file: string): void => {
          const output = bundle[file]
          if (file === entry.fileName || files.has(file) || output?.type !== 'chunk') return
          files.add(file)
          output.imports.forEach(visit)
        }
        visit(screen.fileName)
        const styles = new Set<string>()
        for (const file of files) {
          const output = bundle[file]
          if (output?.type === 'chunk') output.viteMetadata?.importedCss.forEach((css) => styles.add(css))
        }
        return [
          ...[...files].map((file) => ({
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: `./${file}` },
            injectTo: 'head' as const,
          })),
          ...[...styles].map((file) => ({
            tag: 'link',
            attrs: { rel: 'stylesheet', crossorigin: true, href: `./${file}` },
            injectTo: 'head' as const,
          })),
        ]
      },
    },
  }
}

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
    plugins: [
      // Every component here is <script setup>, as are naive-ui's (setup and render): Vue's support
      // for data/methods/computed options is left out of the bundle.
      vue({ features: { optionsAPI: false } }),
      preloadFirstScreen(FIRST_SCREEN),
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
