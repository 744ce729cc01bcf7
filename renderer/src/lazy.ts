/**
 * Parts of a screen that are not needed for its first paint (a table below the fold, a dialog, the
 * next step of a form) are their own chunks. A part whose code cannot be loaded says so where it
 * would have been, as a screen that cannot be loaded does (AppShell), instead of leaving a gap.
 */
import { defineAsyncComponent, defineComponent, h } from 'vue'
import type { Component } from 'vue'
import ResultError from './components/ResultError.vue'

const PartNotLoaded = defineComponent({
  name: 'PartNotLoaded',
  setup() {
    return () =>
      h(ResultError, {
        title: 'Part of this screen not loaded',
        error: {
          code: 'internal',
          message: 'This part of the screen could not be loaded. Reload the window (or restart the app) and try again.',
        },
      })
  },
})

export function lazyPart(loader: () => Promise<Component | { default: Component }>, loading?: Component): Component {
  return defineAsyncComponent({
    loader,
    errorComponent: PartNotLoaded,
    ...(loading ? { loadingComponent: loading, delay: 0 } : {}),
  })
}
