import { createRouter, createWebHashHistory } from 'vue-router'
import type { RouteComponent } from 'vue-router'
import { APP_NAME, screens } from './screens'
import PayoutsView from './views/PayoutsView.vue'

declare module 'vue-router' {
  interface RouteMeta {
    title?: string
  }
}

type LazyView = () => Promise<RouteComponent | { default: RouteComponent }>

// One chunk per screen: the first window loads the shell and Payouts only, not the data tables,
// charts and spreadsheet readers of the other screens. The chunks sit next to index.html, so they
// load from file:// in Electron exactly as the entry does. Payouts, the screen every window opens
// on, is part of the entry: as a lazy route it came as a dozen small chunks (the parts it shares
// with other screens), asked for only once the entry had run; one file is ready sooner
// (decision 25, docs/decisions/).
const viewOf: Record<string, RouteComponent | LazyView> = {
  payouts: PayoutsView,
  bulk: () => import('./views/BulkView.vue'),
  payees: () => import('./views/PayeesView.vue'),
  history: () => import('./views/HistoryView.vue'),
  reconciliation: () => import('./views/ReconciliationView.vue'),
  availability: () => import('./views/AvailabilityView.vue'),
  cards: () => import('./views/CardsView.vue'),
  charges: () => import('./views/ChargesView.vue'),
  settings: () => import('./views/SettingsView.vue'),
  approvals: () => import('./views/ApprovalsView.vue'),
}

/** A screen that is named in screens.ts but has no view is a programming error, seen at start. */
function viewFor(name: string): RouteComponent | LazyView {
  const view = viewOf[name]
  if (!view) throw new Error(`No view for the screen "${name}"`)
  return view
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
        component: viewFor(screen.name),
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
