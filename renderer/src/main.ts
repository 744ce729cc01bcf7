import { createApp } from 'vue'
import { createPinia } from 'pinia'
import App from './App.vue'
import { createAppRouter } from './router'
import { loadDarkTheme, osPrefersDark } from './theme'
import './styles/global.css'

const app = createApp(App)
app.use(createPinia())
// Installing the router starts loading the first screen's chunk.
app.use(createAppRouter())
// A dark OS gets the dark theme from the first paint: its chunk loads beside the first screen's.
const ready = osPrefersDark() ? loadDarkTheme().catch(() => undefined) : Promise.resolve()
void ready.then(() => app.mount('#app'))
