// naive-ui's dark theme holds the dark variables of every naive-ui component (about 70 kB): its own
// chunk, loaded only when the window is dark (see theme/index.ts), not with the first screen.
export { darkTheme } from 'naive-ui'
