/**
 * The text of "Copy diagnostics", for a support ticket: versions, OS, the profile modes in use and
 * the last lines of the log. Pure. Keys never reach it (the log is masked as it is written); URL
 * credentials and secret-looking query values are scrubbed here too, in case a line carries a URL.
 */
import type { AboutInfo } from '../../../../shared/domain/diagnostics'
import { PROFILE_MODES } from '../../../../shared/domain/profiles'

export const DIAGNOSTIC_LOG_LINES = 200

const SECRET_QUERY = /([?&](?:[a-z_]*key|[a-z_]*token|[a-z_]*secret|signature|password|auth[a-z_]*)=)[^&#\s"']+/gi
const URL_CREDENTIALS = /(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s@"']+@/gi

export function scrubUrls(text: string): string {
  return text.replace(URL_CREDENTIALS, '$1[redacted]@').replace(SECRET_QUERY, '$1[redacted]')
}

export function diagnosticsText(about: AboutInfo, logLines: readonly string[], at: Date): string {
  const runtime = [
    about.runtime.electron ? `Electron ${about.runtime.electron}` : null,
    about.runtime.chrome ? `Chrome ${about.runtime.chrome}` : null,
    `Node ${about.runtime.node}`,
  ].filter(Boolean)
  const counts = PROFILE_MODES.map((mode) => `${mode} ${about.profileModes.counts[mode]}`).join(', ')
  return [
    `${about.name} ${about.version} (${about.transport})`,
    `Generated: ${at.toISOString()}`,
    `Runtime: ${runtime.join(', ')}`,
    `OS: ${about.os.platform} ${about.os.release} ${about.os.arch}`,
    `Profiles: active ${about.profileModes.active ?? 'none'}; ${counts}`,
    `Log file: ${about.logFile}`,
    `--- last ${logLines.length} log lines ---`,
    ...logLines.map(scrubUrls),
    '',
  ].join('\n')
}
