import { createRouter, createWebHashHistory } from 'vue-router'
import type { Component } from 'vue'
import { APP_NAME, screens } from './screens'
import PayoutsView from './views/PayoutsView.vue'
import BulkView from './views/BulkView.vue'
import HistoryView from './views/HistoryView.vue'
import AvailabilityView from './views/AvailabilityView.vue'
import CardsView from './views/CardsView.vue'
import ChargesView from './views/ChargesView.vue'
import SettingsView from './views/SettingsView.vue'

declare module 'vue-router' {
  interface RouteMeta {
    title?: string
  }
}

// Views are imported eagerly: the app is small and loads from disk, and a lazy chunk that fails to
// load from file:// would leave an accountant looking at a blank screen.
const viewOf: Record<string, Component> = {
  payouts: PayoutsView,
  bulk: BulkView,
  history: HistoryView,
  availability: AvailabilityView,
  cards: CardsView,
  charges: ChargesView,
  settings: SettingsView,
}

export function createAppRouter() {
  const router = createRouter({
    // Hash history: the renderer is loaded from file:// in Electron, where path URLs cannot resolve.
    history: createWebHashHistory(),
    routes: [
      { path: '/', redirect: '/payouts' },
      ...screens.map((screen) => ({
        path: screen.path,
        name: screen.name,
        component: viewOf[screen.name] as Component,
        meta: { title: screen.title },
      })),
      { path: '/:unknown(.*)*', redirect: '/payouts' },
    ],
  })
  router.afterEach((to) => {
    document.title = to.meta.title ? `${to.meta.title} — ${APP_NAME}` : APP_NAME
  })
  return router
}
