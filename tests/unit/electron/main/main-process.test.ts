/**
 * Main's start-up booted with a recording stand-in for Electron (no binary can be downloaded
 * here): what it asks Electron to do, in what order, and what it refuses. The window, the guards,
 * the 3-D Secure window, IPC and the menu are the real modules; only Electron itself is recorded.
 */
import { readFile, readdir } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { channelNames } from '../../../../shared/ipc/contract'
import type { AuthWindowRequest } from '../../../../electron/main/adapters/desktop'
import { secureWebPreferences } from '../../../../electron/main/windows/web-preferences'
import { APP_PAGE, PRELOAD, RENDERER, ROOT, boot, invoke, mainWindowOf } from './boot-main'
import { FakeWebContents, fakeEvent } from './recording-electron'

describe('start-up order', () => {
  it('registers app:// as a privileged scheme before ready, and takes the single-instance lock before anything starts', async () => {
    const booted = await boot()
    // Before ready: only the scheme, the sandbox switch and the lock.
    expect(booted.rec.calls).toEqual([
      'protocol.registerSchemesAsPrivileged',
      'app.enableSandbox',
      'app.requestSingleInstanceLock',
    ])
    expect(booted.rec.privileged).toEqual([
      { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
    ])
    await booted.ready()
    const calls = booted.rec.calls
    const at = (call: string) => calls.indexOf(call)
    expect(at('app.requestSingleInstanceLock')).toBeLessThan(at('ready'))
    expect(at('ready')).toBeLessThan(at('protocol.handle app'))
    expect(at('protocol.handle app')).toBeLessThan(at('BrowserWindow.new'))
    expect(at('BrowserWindow.new')).toBeLessThan(at('services.start'))
    expect(calls.filter((call) => call === 'services.start')).toHaveLength(1)
  })

  it.each([
    ['--remote-debugging-port=9222'],
    ['--remote-debugging-pipe'],
    ['--inspect'],
    ['--inspect-brk=9229'],
    ['--js-flags=--allow-natives-syntax'],
    ['-remote-debugging-port=9222'],
  ])('the installed app started with %s quits at once: no scheme, no lock, no window, no services', async (flag) => {
    const booted = await boot({ isPackaged: true, argv: ['/opt/Payout Desk/payout-desk', flag] })
    expect(booted.main.primary).toBe(false)
    expect(booted.rec.app.exitCodes).toEqual([1])
    expect(booted.rec.calls.filter((call) => call !== 'app.exit(1)')).toEqual([])
    expect(booted.logged.join('\n')).toMatch(/does not start with -{1,2}(remote-debugging|inspect|js-flags)/)
    booted.rec.becomeReady()
    await booted.main.started
    expect(booted.rec.windows).toEqual([])
    expect(booted.started).toEqual([])
  })

  it('`npm start` and `npm run dev` (not packaged) keep the debugging switches for developers', async () => {
    const booted = await boot({
      isPackaged: false,
      argv: ['electron', '.', '--inspect', '--remote-debugging-port=9222'],
    })
    expect(booted.main.primary).toBe(true)
    expect(booted.rec.app.exitCodes).toEqual([])
    await booted.ready()
    expect(booted.started).toHaveLength(1)
  })

  it('a second copy quits at once and starts nothing: no window, no services, no IPC, no scheme handler', async () => {
    const booted = await boot({ lockGranted: false })
    expect(booted.main.primary).toBe(false)
    expect(booted.rec.app.quitCalls).toBe(1)
    booted.rec.becomeReady()
    await booted.main.started
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(booted.rec.calls).toEqual([
      'protocol.registerSchemesAsPrivileged',
      'app.enableSandbox',
      'app.requestSingleInstanceLock',
      'app.quit',
      'ready',
    ])
    expect(booted.rec.windows).toEqual([])
    expect(booted.started).toEqual([])
    expect(booted.rec.ipcHandlers.size).toBe(0)
  })

  it('when a second copy starts, the first brings its window back and focuses it, and starts nothing more', async () => {
    const booted = await boot()
    await booted.ready()
    const window = mainWindowOf(booted)
    window.minimize()
    booted.rec.app.emit('second-instance', fakeEvent(), ['payout-desk'], '/')
    expect(window.actions).toEqual(expect.arrayContaining(['restore', 'show', 'focus']))
    expect(window.actions.indexOf('restore')).toBeLessThan(window.actions.indexOf('focus'))
    expect(window.minimized).toBe(false)
    expect(booted.rec.windows).toHaveLength(1)
    expect(booted.started).toHaveLength(1)
  })
})

describe('the main window', () => {
  it('is created with the hardened preferences of the one factory and the built preload', async () => {
    const booted = await boot()
    await booted.ready()
    const { webPreferences } = mainWindowOf(booted).options as { webPreferences: Record<string, unknown> }
    expect(webPreferences).toEqual(secureWebPreferences({ preload: PRELOAD }))
    expect(webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    })
  })

  it('loads app://, never a file (no loadFile, no file: URL), in a packaged or `npm start` run', async () => {
    for (const isPackaged of [true, false]) {
      const booted = await boot({ isPackaged })
      await booted.ready()
      const window = mainWindowOf(booted)
      expect(window.loadedUrls).toEqual([APP_PAGE])
      expect(booted.rec.windows.flatMap((w) => w.loadedFiles)).toEqual([])
      expect(booted.rec.calls.filter((call) => /^load(URL|File) /.test(call) && !call.includes('app://'))).toEqual([])
    }
  })

  it('loads the dev server under `npm run dev`', async () => {
    const booted = await boot({ devServerUrl: 'http://localhost:5173/', isPackaged: false })
    await booted.ready()
    expect(mainWindowOf(booted).loadedUrls).toEqual(['http://localhost:5173/'])
  })

  it('app:// answers the built page read by path (no file: URL), and nothing outside it', async () => {
    const booted = await boot()
    await booted.ready()
    const handle = booted.rec.protocolHandlers.get('app')!
    const page = await handle(new Request(APP_PAGE))
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(page.headers.get('x-content-type-options')).toBe('nosniff')
    expect(await page.text()).toBe(await readFile(join(RENDERER, 'index.html'), 'utf8'))
    const script = (await readdir(join(RENDERER, 'assets'))).find((name) => name.endsWith('.js'))!
    const js = await handle(new Request(`app://payout-desk/assets/${script}?v=1`))
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    const head = await handle(new Request(APP_PAGE, { method: 'HEAD' }))
    expect([head.status, await head.text()]).toEqual([200, ''])
    expect((await handle(new Request('app://payout-desk/%2e%2e/%2e%2e/package.json'))).status).toBe(404)
    expect((await handle(new Request('app://payout-desk/assets/'))).status).toBe(404)
    expect((await handle(new Request('app://elsewhere/index.html'))).status).toBe(404)
    expect((await handle(new Request(APP_PAGE, { method: 'POST', body: 'x' }))).status).toBe(405)
  })
})

describe('guards', () => {
  it('keeps the window on the app: navigation away is blocked, allow-listed links open in the system browser, others are refused and logged', async () => {
    const booted = await boot()
    await booted.ready()
    const contents = mainWindowOf(booted).webContents
    expect(contents.attempt('will-navigate', 'app://payout-desk/index.html#/history')).toBe(false)
    expect(contents.attempt('will-navigate', 'https://evil.example/phish?token=secret')).toBe(true)
    expect(contents.attempt('will-navigate', 'https://payoutdesk.example/help')).toBe(true)
    expect(contents.attempt('will-navigate', 'file:///etc/passwd')).toBe(true)
    expect(contents.attempt('will-navigate', 'app://elsewhere/index.html')).toBe(true)
    expect(contents.attempt('will-redirect', 'https://evil.example/')).toBe(true)
    // Only the allow-listed https link reached the system browser.
    expect(booted.rec.openedExternally).toEqual(['https://payoutdesk.example/help'])
    expect(booted.logged).toEqual(
      expect.arrayContaining([
        'warn: Refused to open a link outside the allow-list: https://evil.example',
        'warn: Refused to open a link outside the allow-list: file: address',
      ]),
    )
    // The query string (which may carry anything) never reaches the log.
    expect(booted.logged.join('\n')).not.toContain('token=secret')
  })

  it('denies every new window, opening allow-listed links outside; refuses <webview>', async () => {
    const booted = await boot()
    await booted.ready()
    const contents = mainWindowOf(booted).webContents
    for (const url of [
      'https://docs.payoutdesk.example/api',
      'https://evil.example/',
      'javascript:alert(1)',
      APP_PAGE,
    ]) {
      expect(contents.windowOpenHandler?.({ url })).toEqual({ action: 'deny' })
    }
    expect(booted.rec.openedExternally).toEqual(['https://docs.payoutdesk.example/api'])
    const attach = fakeEvent()
    contents.emit('will-attach-webview', attach, {}, {})
    expect(attach.defaultPrevented).toBe(true)
  })

  it('denies every permission request, in the default session and in every session created later', async () => {
    const booted = await boot()
    await booted.ready()
    for (const permission of ['notifications', 'media', 'geolocation', 'clipboard-read', 'openExternal']) {
      expect(booted.rec.defaultSession.ask(permission)).toBe(false)
    }
    expect(booted.rec.defaultSession.permissionCheck?.()).toBe(false)
    const later = booted.rec.electron.session.fromPartition('persist:later') as unknown as {
      ask(permission: string): boolean | undefined
    }
    expect(later.ask('media')).toBe(false)
  })

  it('reaches shell.openExternal only in guards.ts, behind the allow-list', async () => {
    const sources = await filesUnder(join(ROOT, 'electron'))
    const callers = []
    for (const file of sources) if ((await readFile(file, 'utf8')).includes('openExternal(')) callers.push(file)
    expect(callers.map((file) => file.slice(ROOT.length + 1))).toEqual(['electron/main/windows/guards.ts'])
  })
})

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true })
  const nested = await Promise.all(
    entries.map((entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)])),
  )
  return nested.flat().filter((file) => file.endsWith('.ts'))
}

describe('IPC', () => {
  it('has exactly one ipcMain.handle for every channel of the contract, and nothing else', async () => {
    const booted = await boot()
    await booted.ready()
    expect([...booted.rec.ipcHandlers.keys()].sort()).toEqual([...channelNames].sort())
    for (const [channel, handlers] of booted.rec.ipcHandlers) expect(handlers.length, channel).toBe(1)
    expect(booted.rec.ipcListeners).toEqual([])
  })

  it('serves the main frame of our window showing our page', async () => {
    const booted = await boot()
    await booted.ready()
    const contents = mainWindowOf(booted).webContents
    const answer = await invoke(
      booted,
      'profiles:activate',
      { id: 'sandbox' },
      { sender: contents, frame: contents.mainFrame },
    )
    expect(answer).toEqual({ ok: true, data: { echoed: { id: 'sandbox' } } })
    expect(booted.served).toEqual(['profiles:activate'])
  })

  it.each([
    [
      'a subframe of our window',
      (c: FakeWebContents) => ({ sender: c, frame: { url: APP_PAGE } }),
      'not the main frame',
    ],
    [
      'another web contents',
      () => {
        const other = new FakeWebContents()
        return { sender: other, frame: other.mainFrame }
      },
      'not the Payout Desk window',
    ],
    [
      'our window showing a file:// page',
      (c: FakeWebContents) => {
        c.mainFrame.url = 'file:///opt/Payout Desk/resources/app.asar/out/renderer/index.html'
        return { sender: c, frame: c.mainFrame }
      },
      'not the Payout Desk page',
    ],
  ])('refuses %s, logs it, and runs no service', async (_label, from, reason) => {
    const booted = await boot()
    await booted.ready()
    const answer = await invoke(booted, 'profiles:list', undefined, from(mainWindowOf(booted).webContents))
    expect(answer).toEqual({ ok: false, error: { code: 'forbidden_sender', message: `Request refused: ${reason}.` } })
    expect(booted.served).toEqual([])
    expect(booted.logged.some((line) => line.startsWith(`warn: IPC request refused (${reason})`))).toBe(true)
  })
})

describe('the 3-D Secure window', () => {
  const request = (url: string): AuthWindowRequest => ({
    reference: 'CHG-1',
    url,
    returnUrl: 'https://payout-desk.invalid/3ds-return/CHG-1',
    timeoutMs: 60_000,
    mode: 'sandbox',
  })

  it.each(['http://bank.example/acs', 'file:///etc/passwd', 'javascript:alert(1)', 'data:text/html,hi', 'not a url'])(
    'refuses a redirect_url that is not https (%s): no window opens',
    async (url) => {
      const booted = await boot()
      await booted.ready()
      const outcome = await booted.started[0]!.desktop.authWindow.open(request(url))
      expect(outcome).toBe('failed_to_open')
      expect(booted.rec.windows).toHaveLength(1)
      expect(booted.logged.some((line) => line.includes('redirect_url that is not https'))).toBe(true)
    },
  )

  it('refuses the loopback page for a Live charge (http://127.0.0.1 is for the Sandbox and test profiles): no window opens', async () => {
    const booted = await boot()
    await booted.ready()
    const live = { ...request('http://127.0.0.1:4010/sandbox/3ds/CHG-1'), mode: 'live' as const }
    expect(await booted.started[0]!.desktop.authWindow.open(live)).toBe('failed_to_open')
    expect(booted.rec.windows).toHaveLength(1)
    expect(booted.logged.some((line) => line.includes('redirect_url that is not https'))).toBe(true)
  })

  it('opens an https page with no preload, on an in-memory partition of its own, denying permissions and downloads, and reports the return URL', async () => {
    const booted = await boot()
    await booted.ready()
    const outcome = booted.started[0]!.desktop.authWindow.open(request('https://acs.bank.example/challenge'))
    const window = booted.rec.windows[1]!
    const { webPreferences } = window.options as { webPreferences: { partition: string } }
    expect(webPreferences.partition).toMatch(/^three-ds-[0-9a-f-]{36}$/)
    expect(webPreferences).toEqual(secureWebPreferences({ partition: webPreferences.partition }))
    expect(webPreferences).not.toHaveProperty('preload')
    expect(window.options).toMatchObject({ parent: mainWindowOf(booted), modal: true })
    const partition = booted.rec.sessions.find((s) => s.partition === webPreferences.partition)!
    expect(partition.options).toEqual({ cache: false })
    expect(partition.ask('media')).toBe(false)
    const download = fakeEvent()
    let cancelled = false
    partition.emit('will-download', download, { cancel: () => (cancelled = true) })
    expect([download.defaultPrevented, cancelled]).toEqual([true, true])
    expect(window.loadedUrls).toEqual(['https://acs.bank.example/challenge'])

    const contents = window.webContents
    expect(contents.windowOpenHandler?.({ url: 'https://acs.bank.example/popup' })).toEqual({ action: 'deny' })
    // The bank's own pages may navigate (the app-wide guard leaves this window alone)...
    expect(contents.attempt('will-navigate', 'https://acs.bank.example/step-2')).toBe(false)
    // ...but never to anything that is not https.
    expect(contents.attempt('will-redirect', 'http://evil.example/')).toBe(true)
    expect(contents.attempt('will-navigate', 'file:///etc/passwd')).toBe(true)
    // The return URL ends it: stopped, closed, its storage cleared, the outcome reported.
    expect(contents.attempt('will-navigate', 'https://payout-desk.invalid/3ds-return/CHG-1?reference=CHG-1')).toBe(true)
    expect(await outcome).toBe('returned')
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(window.destroyed).toBe(true)
    expect(partition.cleared).toEqual(['storage', 'cache'])
  })

  it('reports a window the customer closed', async () => {
    const booted = await boot()
    await booted.ready()
    const outcome = booted.started[0]!.desktop.authWindow.open(request('https://acs.bank.example/challenge'))
    booted.rec.windows[1]!.emit('closed')
    expect(await outcome).toBe('closed')
  })
})

describe('the application menu', () => {
  interface Item {
    label?: string
    role?: string
    accelerator?: string
    submenu?: Item[]
    click?: () => void
  }

  it('has the standard roles with their shortcuts, and no reload or developer tools when packaged', async () => {
    const booted = await boot()
    await booted.ready()
    const menu = booted.rec.menus[0] as Item[]
    const roles = (label: string) => (menu.find((item) => item.label === label)?.submenu ?? []).map((i) => i.role)
    expect(roles('&Edit')).toEqual(expect.arrayContaining(['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll']))
    expect(roles('&File')).toContain('quit')
    expect(roles('&Window')).toEqual(expect.arrayContaining(['minimize', 'close']))
    expect(roles('&View')).toEqual(expect.arrayContaining(['resetZoom', 'zoomIn', 'zoomOut', 'togglefullscreen']))
    expect(menu.flatMap((item) => item.submenu ?? []).map((item) => item.role)).not.toContain('toggleDevTools')
    const edit = menu.find((item) => item.label === '&Edit')!.submenu!.filter((item) => item.role)
    expect(edit.every((item) => item.accelerator)).toBe(true)
  })

  it('Help items reach the services and the window: logs folder, diagnostics, About', async () => {
    const booted = await boot()
    await booted.ready()
    const help = (booted.rec.menus[0] as Item[]).find((item) => item.label === '&Help')!.submenu!
    const click = (label: string) => help.find((item) => item.label === label)!.click!()
    click('Open logs folder')
    click('Copy diagnostics')
    click('About Payout Desk')
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(booted.rec.openedPaths).toEqual([dirname(join(booted.userDataDir, 'logs', 'main.log'))])
    expect(booted.served).toContain('desktop:copyDiagnostics')
    expect(mainWindowOf(booted).webContents.sent.map((sent) => sent.event)).toEqual(
      expect.arrayContaining(['app:notice', 'desktop:showAbout']),
    )
  })
})

describe('with the real services', () => {
  it('answers a call from the window through the real router and services, over the Electron transport', async () => {
    const booted = await boot({ realServices: true })
    await booted.ready()
    const contents = mainWindowOf(booted).webContents
    const from = { sender: contents, frame: contents.mainFrame }
    expect(await invoke(booted, 'app:info', undefined, from)).toEqual({
      ok: true,
      data: { name: 'Payout Desk', version: '0.1.0-test', transport: 'electron' },
    })
    expect(await invoke(booted, 'profiles:list', undefined, from)).toMatchObject({
      ok: true,
      data: { activeId: 'sandbox' },
    })
    // A dropped file that is not of the screen's kind is refused by path, before anything reads it.
    expect(await invoke(booted, 'bulk:drop', { file: { name: 'passwd', ref: '/etc/passwd' } }, from)).toMatchObject({
      ok: false,
      error: { code: 'bad_request', message: 'passwd: this screen opens .xlsx, .xls, .csv files.' },
    })
    // A quit waits for the services to close (the payee book's learns under way, decision 166), then exits.
    const quit = fakeEvent()
    booted.rec.app.emit('will-quit', quit)
    expect(quit.defaultPrevented).toBe(true)
    for (let tries = 0; tries < 100 && booted.rec.app.exitCodes.length === 0; tries++)
      await new Promise((resolve) => setTimeout(resolve, 50))
    expect(booted.rec.app.exitCodes).toEqual([0])
  })
})

describe('quitting', () => {
  it('waits for the services to close before the app exits, and a second quit meanwhile waits for the same close', async () => {
    const booted = await boot()
    await booted.ready()
    const first = fakeEvent()
    booted.rec.app.emit('will-quit', first)
    const second = fakeEvent()
    booted.rec.app.emit('will-quit', second)
    expect([first.defaultPrevented, second.defaultPrevented]).toEqual([true, true])
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(booted.served.filter((call) => call === '(close)')).toHaveLength(1)
    expect(booted.rec.app.exitCodes).toEqual([0])
  })
})
