// ESLint flat config: typescript-eslint for all TypeScript, eslint-plugin-vue for the renderer,
// and layering rules: shared/ stays free of electron and node imports (it runs on both sides),
// renderer/ never imports from electron/ (it reaches main only through the IPC contract), and a
// service imports another service only through that service's public module (decision 094).
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import pluginVue from 'eslint-plugin-vue'
import globals from 'globals'
import localRules from './eslint-rules/service-boundaries.mjs'

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'dist/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      // The configs vite, vitest and electron-vite bundle beside their source for a moment while they
      // load: the lint runs beside the build and the tests (decision 122) and must not read one half-gone.
      '**/*.config.ts.*.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...pluginVue.configs['flat/recommended'],
  {
    files: ['**/*.vue'],
    languageOptions: { parserOptions: { parser: tseslint.parser } },
  },
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
      eqeqeq: ['error', 'always'],
    },
  },
  {
    // services/<x> reaches services/<y> only through <y>'s public module: its index.ts, or the one
    // PUBLIC_MODULES names (bulk: runs.ts). The exceptions are written down with their reasons in
    // eslint-rules/service-boundaries.mjs, beside the rule.
    files: ['electron/main/services/**/*.ts'],
    plugins: { local: localRules },
    rules: { 'local/service-boundaries': 'error' },
  },
  {
    // CommonJS scripts (a `node --require` hook) load modules the CommonJS way.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['renderer/**/*.{ts,vue}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'vue/multi-word-component-names': 'off',
      'vue/max-attributes-per-line': 'off',
      'vue/singleline-html-element-content-newline': 'off',
      'vue/html-self-closing': 'off',
      'vue/html-indent': 'off',
      'vue/html-closing-bracket-newline': 'off',
      'vue/multiline-html-element-content-newline': 'off',
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/electron/**', 'electron', 'electron/*'],
              message: 'The renderer reaches main only through renderer/src/api and the IPC contract.',
            },
            { group: ['node:*'], message: 'The renderer runs in a sandboxed browser context: no Node modules.' },
          ],
        },
      ],
    },
  },
  {
    // Only renderer/src/api reaches main: nothing else may read the preload's API off window.
    files: ['renderer/**/*.{ts,vue}'],
    ignores: ['renderer/src/api/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'window', property: 'payoutDesk', message: 'Use the stores, which use renderer/src/api.' },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'payoutDesk', message: 'Use the stores, which use renderer/src/api.' },
      ],
    },
  },
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['electron', 'electron/*'], message: 'shared/ runs in main and renderer: no electron imports.' },
            { group: ['node:*'], message: 'shared/ runs in main and renderer: no node:* imports.' },
            { group: ['**/electron/**', '**/renderer/**'], message: 'shared/ must not depend on either side.' },
          ],
          paths: [
            'fs',
            'path',
            'os',
            'crypto',
            'child_process',
            'http',
            'https',
            'net',
            'url',
            'util',
            'buffer',
            'stream',
          ].map((name) => ({
            name,
            message: 'shared/ runs in main and renderer: no Node modules.',
          })),
        },
      ],
    },
  },
)
