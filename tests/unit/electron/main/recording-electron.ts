/**
 * A recording stand-in for the part of Electron main uses (electron/main/electron-api.ts), so main
 * can be booted and asked what it would make Electron do, without an Electron binary. It keeps the
 * rules Electron documents where they matter to what is tested: privileged schemes only before
 * `ready`, protocol handlers only after; a new BrowserWindow emits app 'web-contents-created'.
 * Every notable call is logged in order in `calls`.
 */
import { EventEmitter } from 'node:events'
import type { ElectronApi } from '../../../../electron/main/electron-api'

/** What an Electron navigation event offers a listener. */
export interface FakeEvent {
  defaultPrevented: boolean
  preventDefault(): void
}

export const fakeEvent = (): FakeEvent => ({
  defaultPrevented: false,
  preventDefault() {
    this.defaultPrevented = true
  },
})

type WindowOpenHandler = (details: { url: string }) => { action: 'allow' | 'deny' }

let nextContentsId = 1

export class FakeWebContents extends EventEmitter {
  readonly id = nextContentsId++
  readonly mainFrame = { url: '' }
  windowOpenHandler: WindowOpenHandler | null = null
  readonly sent: Array<{ event: string; payload: unknown }> = []
  stopped = 0

  setWindowOpenHandler(handler: WindowOpenHandler): void {
    this.windowOpenHandler = handler
  }
  send(event: string, payload: unknown): void {
    this.sent.push({ event, payload })
  }
  stop(): void {
    this.stopped++
  }
  reload(): void {}
  forcefullyCrashRenderer(): void {}
  /** Emits `name` (will-navigate, will-redirect) as Electron would; true when a listener prevented it. */
  attempt(name: 'will-navigate' | 'will-redirect', url: string): boolean {
    const event = fakeEvent()
    this.emit(name, event, url)
    return event.defaultPrevented
  }
}

export class FakeSession extends EventEmitter {
  permissionRequest: ((contents: unknown, permission: string, callback: (granted: boolean) => void) => void) | null =
    null
  permissionCheck: ((...args: unknown[]) => boolean) | null = null
  readonly cleared: string[] = []
  constructor(
    readonly partition: string,
    readonly options: unknown,
  ) {
    super()
  }
  setPermissionRequestHandler(handler: FakeSession['permissionRequest']): void {
    this.permissionRequest = handler
  }
  setPermissionCheckHandler(handler: FakeSession['permissionCheck']): void {
    this.permissionCheck = handler
  }
  /** Asks for a permission the way a page would; the answer the app gave. */
  ask(permission: string): boolean | undefined {
    let answer: boolean | undefined
    this.permissionRequest?.(null, permission, (granted) => (answer = granted))
    return answer
  }
  async clearStorageData(): Promise<void> {
    this.cleared.push('storage')
  }
  async clearCache(): Promise<void> {
    this.cleared.push('cache')
  }
}

export function recordingElectron(options: {
  userDataDir: string
  /** False: another copy holds the single-instance lock. */
  lockGranted?: boolean
  isPackaged?: boolean
}) {
  const calls: string[] = []
  let ready = false
  let becomeReady: () => void = () => undefined
  const whenReady = new Promise<void>((resolve) => {
    becomeReady = () => {
      ready = true
      calls.push('ready')
      resolve()
    }
  })

  const app = Object.assign(new EventEmitter(), {
    isPackaged: options.isPackaged ?? true,
    quitCalls: 0,
    exitCodes: [] as number[],
    enableSandbox: () => void calls.push('app.enableSandbox'),
    requestSingleInstanceLock() {
      calls.push('app.requestSingleInstanceLock')
      return options.lockGranted ?? true
    },
    quit() {
      calls.push('app.quit')
      app.quitCalls++
    },
    exit(code: number) {
      calls.push(`app.exit(${code})`)
      app.exitCodes.push(code)
    },
    whenReady: () => whenReady,
    getPath: (name: string) => (name === 'userData' ? options.userDataDir : `/tmp/${name}`),
    getVersion: () => '0.1.0-test',
  })

  const windows: FakeBrowserWindow[] = []

  class FakeBrowserWindow extends EventEmitter {
    readonly webContents = new FakeWebContents()
    readonly loadedUrls: string[] = []
    readonly loadedFiles: string[] = []
    readonly actions: string[] = []
    destroyed = false
    minimized = false
    visible = false
    constructor(readonly options: Record<string, unknown>) {
      super()
      windows.push(this)
      calls.push('BrowserWindow.new')
      app.emit('web-contents-created', fakeEvent(), this.webContents)
    }
    static getAllWindows(): FakeBrowserWindow[] {
      return windows.filter((window) => !window.destroyed)
    }
    async loadURL(url: string): Promise<void> {
      calls.push(`loadURL ${url}`)
      this.loadedUrls.push(url)
      this.webContents.mainFrame.url = url
    }
    async loadFile(path: string): Promise<void> {
      calls.push(`loadFile ${path}`)
      this.loadedFiles.push(path)
    }
    isDestroyed = () => this.destroyed
    destroy(): void {
      this.destroyed = true
      this.actions.push('destroy')
      this.emit('closed')
    }
    isMinimized = () => this.minimized
    isVisible = () => this.visible
    isMaximized = () => false
    isFullScreen = () => false
    minimize(): void {
      this.minimized = true
    }
    restore(): void {
      this.actions.push('restore')
      this.minimized = false
    }
    show(): void {
      this.actions.push('show')
      this.visible = true
    }
    focus(): void {
      this.actions.push('focus')
    }
    maximize(): void {
      this.actions.push('maximize')
    }
    getBounds = () => ({ x: 0, y: 0, width: 1280, height: 820 })
    getNormalBounds = () => ({ x: 0, y: 0, width: 1280, height: 820 })
  }

  const defaultSession = new FakeSession('(default)', {})
  const sessions: FakeSession[] = []
  const session = {
    defaultSession,
    fromPartition(partition: string, sessionOptions: unknown) {
      const created = new FakeSession(partition, sessionOptions)
      sessions.push(created)
      calls.push(`session.fromPartition ${partition}`)
      app.emit('session-created', created)
      return created
    },
  }

  const privileged: unknown[] = []
  const protocolHandlers = new Map<string, (request: Request) => Promise<Response> | Response>()
  const protocol = {
    registerSchemesAsPrivileged(schemes: unknown[]) {
      if (ready) throw new Error('registerSchemesAsPrivileged can only be used before the ready event')
      calls.push('protocol.registerSchemesAsPrivileged')
      privileged.push(...schemes)
    },
    handle(scheme: string, handler: (request: Request) => Promise<Response> | Response) {
      if (!ready) throw new Error('protocol.handle can only be used after the ready event')
      calls.push(`protocol.handle ${scheme}`)
      protocolHandlers.set(scheme, handler)
    },
  }

  const ipcHandlers = new Map<string, Array<(event: unknown, payload: unknown) => unknown>>()
  const ipcListeners: string[] = []
  const ipcMain = {
    handle(channel: string, handler: (event: unknown, payload: unknown) => unknown) {
      ipcHandlers.set(channel, [...(ipcHandlers.get(channel) ?? []), handler])
    },
    removeHandler(channel: string) {
      ipcHandlers.delete(channel)
    },
    on(channel: string) {
      ipcListeners.push(channel)
    },
  }

  const menus: unknown[] = []
  const Menu = {
    buildFromTemplate: (template: unknown) => ({ template }),
    setApplicationMenu(menu: { template: unknown }) {
      calls.push('Menu.setApplicationMenu')
      menus.push(menu.template)
    },
  }

  const openedExternally: string[] = []
  const openedPaths: string[] = []
  const shell = {
    async openExternal(url: string) {
      openedExternally.push(url)
    },
    async openPath(path: string) {
      openedPaths.push(path)
      return ''
    },
  }

  const notifications: unknown[] = []
  class Notification {
    static isSupported = () => true
    constructor(readonly options: unknown) {}
    show(): void {
      notifications.push(this.options)
    }
  }
  let clipboardText = ''
  const clipboard = {
    writeText: (text: string) => void (clipboardText = text),
    readText: () => clipboardText,
    clear: () => void (clipboardText = ''),
  }
  const dialog = {
    showSaveDialog: async () => ({ canceled: true, filePath: '' }),
    showOpenDialog: async () => ({ canceled: true, filePaths: [] }),
  }
  const display = { id: 1, workArea: { x: 0, y: 0, width: 1920, height: 1080 } }
  const screen = { getPrimaryDisplay: () => display, getAllDisplays: () => [display] }

  const electron = {
    app,
    BrowserWindow: FakeBrowserWindow,
    clipboard,
    dialog,
    ipcMain,
    Menu,
    nativeTheme: { shouldUseDarkColors: false },
    Notification,
    protocol,
    screen,
    session,
    shell,
  }

  return {
    electron: electron as unknown as ElectronApi,
    app,
    calls,
    windows,
    sessions,
    defaultSession,
    privileged,
    protocolHandlers,
    ipcHandlers,
    ipcListeners,
    menus,
    openedExternally,
    openedPaths,
    notifications,
    becomeReady,
  }
}

export type RecordingElectron = ReturnType<typeof recordingElectron>
