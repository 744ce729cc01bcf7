/**
 * The text of "Copy diagnostics", for a support ticket: versions, OS, the profile modes in use and
 * the last lines of the log. Pure. The log is masked as it is written; each line goes through the
 * same masking again here (URL credentials, credential query values, card-data fields, card
 * numbers), in case a line was written by an older version or by hand.
 */
import type { AboutInfo } from '../../../../shared/domain/diagnostics'
import { PROFILE_MODES } from '../../../../shared/domain/profiles'
import { maskText } from '../masking'

export const DIAGNOSTIC_LOG_LINES = 200

/** A log line as "Copy diagnostics" gives it (the one masking of main, by field and by pattern). */
export const maskedLogLine = (text: string): string => maskText(text)

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
    ...logLines.map(maskedLogLine),
    '',
  ].join('\n')
}
