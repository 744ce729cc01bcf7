import { onBeforeUnmount, onMounted } from 'vue'
import { useRouter } from 'vue-router'
import { screenByShortcut } from '../screens'

/**
 * Alt+1 … Alt+9, and Alt+0 for the tenth, switch screens from anywhere (screens.ts gives each its digit).
 * Matches on `event.code` (the physical key), because
 * on some layouts and on macOS Alt+digit produces another character in `event.key`.
 */
export function useScreenShortcuts(onSwitched?: () => void): void {
  const router = useRouter()

  function onKeydown(event: KeyboardEvent): void {
    if (!event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return
    const match = /^(?:Digit|Numpad)([0-9])$/.exec(event.code)
    const screen = match ? screenByShortcut(Number(match[1])) : undefined
    if (!screen) return
    event.preventDefault()
    void router.push({ name: screen.name }).then(() => onSwitched?.())
  }

  onMounted(() => window.addEventListener('keydown', onKeydown))
  onBeforeUnmount(() => window.removeEventListener('keydown', onKeydown))
}
