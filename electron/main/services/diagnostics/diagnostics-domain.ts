/** The desktop channels: Help / About, "Copy diagnostics", and the update the user may restart into. */
import { arch, platform, release } from 'node:os'
import type { AboutInfo } from '../../../../shared/domain/diagnostics'
import type { AppInfo } from '../../../../shared/domain/settings'
import { PROFILE_MODES } from '../../../../shared/domain/profiles'
import type { ProfileMode } from '../../../../shared/domain/profiles'
import type { desktopChannels } from '../../../../shared/ipc/channels/desktop'
import type { UpdateControl } from '../../updates/update-control'
import type { DomainService } from '../domain-service'
import type { ServiceContext } from '../service-context'
import { DIAGNOSTIC_LOG_LINES, diagnosticsText } from './diagnostics-report'

export interface DesktopDomainOptions {
  info: AppInfo
  logs: { file: string; tail(count: number): string[] }
  updates: UpdateControl
}

export function createDesktopDomain(
  context: ServiceContext,
  options: DesktopDomainOptions,
): DomainService<keyof typeof desktopChannels> {
  async function about(): Promise<AboutInfo> {
    const list = await context.profiles.list()
    const counts = Object.fromEntries(PROFILE_MODES.map((mode) => [mode, 0])) as Record<ProfileMode, number>
    for (const profile of list.profiles) counts[profile.mode] += 1
    const active = list.profiles.find((profile) => profile.id === list.activeId)
    return {
      name: options.info.name,
      version: options.info.version,
      transport: options.info.transport,
      runtime: {
        ...(process.versions['electron'] ? { electron: process.versions['electron'] } : {}),
        ...(process.versions['chrome'] ? { chrome: process.versions['chrome'] } : {}),
        node: process.versions.node,
      },
      os: { platform: platform(), release: release(), arch: arch() },
      logFile: options.logs.file,
      profileModes: { active: active?.mode ?? null, counts },
    }
  }

  return {
    handlers: {
      'desktop:about': about,
      'desktop:copyDiagnostics': async () => {
        const lines = options.logs.tail(DIAGNOSTIC_LOG_LINES)
        const text = diagnosticsText(await about(), lines, context.now())
        context.desktop.clipboard.writeText(text)
        context.log.info('Diagnostics copied to the clipboard')
        return { text, logLines: lines.length }
      },
      'desktop:updateStatus': () => options.updates.status(),
      'desktop:restartToUpdate': () => {
        // Only requests on their way out: anything the service already holds is verified after the restart.
        const inFlight = context.journal.list({ states: ['recorded', 'sent'] }).length
        const decision = options.updates.restartToUpdate(inFlight)
        return decision.restart ? { restarting: true } : { restarting: false, reason: decision.reason ?? '' }
      },
    },
  }
}
