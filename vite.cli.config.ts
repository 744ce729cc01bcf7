/**
 * The command-line tools, built to plain CommonJS under out/cli (`npm run build`), so they start
 * from JavaScript with nothing compiled at start: `node out/cli/check-sheet.js`. Dependencies stay
 * in node_modules (loaded when used: SheetJS only for a workbook); our own code is bundled.
 */
import { resolve } from 'node:path'
import { defineConfig } from 'vite'

export default defineConfig({
  build: {
    ssr: true,
    outDir: resolve(__dirname, 'out/cli'),
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    reportCompressedSize: false,
    rollupOptions: {
      input: { 'check-sheet': resolve(__dirname, 'scripts/check-sheet.ts') },
      output: {
        format: 'cjs',
        entryFileNames: '[name].js',
        chunkFileNames: 'chunks/[name]-[hash].js',
        // Packages loaded on first use (SheetJS, chardet) are required as CommonJS, like the rest.
        dynamicImportInCjs: false,
      },
    },
  },
})
