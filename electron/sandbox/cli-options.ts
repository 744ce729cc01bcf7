/** Command-line flags of the standalone sandbox, validated with clear errors. */
import { DEFAULT_SETTLE_MS, type SandboxOptions } from './index'

export const DEFAULT_CLI_PORT = 4010
export const DEFAULT_SECRET_KEY = 'sk_test_sandbox'
/** 32 characters, so it is a valid AES-256 key as UTF-8 bytes. */
export const DEFAULT_ENCRYPTION_KEY = 'sandbox-encryption-key-32-bytes!'

const USAGE = `Usage: npm run sandbox -- [--port 4010] [--host 127.0.0.1] [--secret-key sk_test_sandbox]
                          [--encryption-key <32 characters>] [--settle-ms 1500] [--seed 1] [--no-admin]
                          [--state-file <path>]`

export function parseCliArguments(args: readonly string[]): SandboxOptions {
  const options: SandboxOptions = {
    port: DEFAULT_CLI_PORT,
    secretKey: DEFAULT_SECRET_KEY,
    encryptionKey: DEFAULT_ENCRYPTION_KEY,
    settleMs: DEFAULT_SETTLE_MS,
    admin: true,
  }
  const integer = (flag: string, text: string, min: number, max: number): number => {
    if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max)
      throw new Error(`${flag} must be an integer from ${min} to ${max}, got "${text}"`)
    return Number(text)
  }
  for (let i = 0; i < args.length; i++) {
    const raw = args[i] ?? ''
    const [flag = '', inline] = raw.includes('=')
      ? [raw.slice(0, raw.indexOf('=')), raw.slice(raw.indexOf('=') + 1)]
      : [raw, undefined]
    if (flag === '--no-admin') {
      options.admin = false
      continue
    }
    if (flag === '--help' || flag === '-h') throw new Error(USAGE)
    const value = inline ?? args[++i]
    if (value === undefined) throw new Error(`${flag} needs a value`)
    switch (flag) {
      case '--port':
        options.port = integer(flag, value, 0, 65535)
        break
      case '--host':
        if (!['127.0.0.1', '::1', 'localhost'].includes(value))
          throw new Error(`--host must be a loopback address (127.0.0.1, ::1, localhost), got "${value}"`)
        options.host = value
        break
      case '--secret-key':
        if (value.trim() === '') throw new Error('--secret-key must not be empty')
        options.secretKey = value
        break
      case '--encryption-key':
        if (Buffer.byteLength(value, 'utf8') !== 32)
          throw new Error(`--encryption-key must be exactly 32 bytes (UTF-8), got ${Buffer.byteLength(value, 'utf8')}`)
        options.encryptionKey = value
        break
      case '--settle-ms':
        options.settleMs = integer(flag, value, 0, 3_600_000)
        break
      case '--seed':
        options.seed = integer(flag, value, 0, 2 ** 32 - 1)
        break
      case '--state-file':
        if (value.trim() === '') throw new Error('--state-file must not be empty')
        options.stateFile = value
        break
      default:
        throw new Error(`unknown option "${flag}"\n${USAGE}`)
    }
  }
  return options
}
