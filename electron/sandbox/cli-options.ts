/** Command-line flags of the standalone sandbox (node:util parseArgs), validated with clear errors. */
import { parseArgs } from 'node:util'
import { DEFAULT_SETTLE_MS, type SandboxOptions } from './index'

export const DEFAULT_CLI_PORT = 4010
export const DEFAULT_SECRET_KEY = 'sk_test_sandbox'
/** 32 characters, so it is a valid AES-256 key as UTF-8 bytes. */
export const DEFAULT_ENCRYPTION_KEY = 'sandbox-encryption-key-32-bytes!'

const USAGE = `Usage: npm run sandbox -- [--port 4010] [--host 127.0.0.1] [--secret-key sk_test_sandbox]
                          [--encryption-key <32 characters>] [--settle-ms 1500] [--seed 1] [--no-admin]
                          [--state-file <path>] [--rate-limit <requests a second>] [--no-retry-after]
                          [--load-latency <floor ms>,<ms per request in flight>[,<free in flight>]]`

/**
 * Node's own parser reads the flags (`--port 0` and `--port=0` alike); its refusals are told in the
 * words this command always used ("--settle-ms needs a value", 'unknown option "--colour"').
 */
function parsedFlags(args: readonly string[]) {
  try {
    return parseArgs({
      args: [...args],
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        'secret-key': { type: 'string' },
        'encryption-key': { type: 'string' },
        'settle-ms': { type: 'string' },
        seed: { type: 'string' },
        'state-file': { type: 'string' },
        'no-admin': { type: 'boolean' },
        'rate-limit': { type: 'string' },
        'no-retry-after': { type: 'boolean' },
        'load-latency': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values
  } catch (error) {
    const { code, message } = error as { code?: string; message: string }
    const flag = /'(-[^' ]+)/.exec(message)?.[1] ?? ''
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw new Error(`unknown option "${flag}"\n${USAGE}`)
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && /argument missing/.test(message))
      throw new Error(`${flag} needs a value`)
    throw new Error(`${message}\n${USAGE}`)
  }
}

export function parseCliArguments(args: readonly string[]): SandboxOptions {
  const flags = parsedFlags(args)
  if (flags.help) throw new Error(USAGE)
  const integer = (flag: string, text: string, min: number, max: number): number => {
    if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max)
      throw new Error(`${flag} must be an integer from ${min} to ${max}, got "${text}"`)
    return Number(text)
  }
  const options: SandboxOptions = {
    port: flags.port === undefined ? DEFAULT_CLI_PORT : integer('--port', flags.port, 0, 65535),
    secretKey: DEFAULT_SECRET_KEY,
    encryptionKey: DEFAULT_ENCRYPTION_KEY,
    settleMs:
      flags['settle-ms'] === undefined ? DEFAULT_SETTLE_MS : integer('--settle-ms', flags['settle-ms'], 0, 3_600_000),
    admin: !flags['no-admin'],
  }
  if (flags.host !== undefined) {
    if (!['127.0.0.1', '::1', 'localhost'].includes(flags.host))
      throw new Error(`--host must be a loopback address (127.0.0.1, ::1, localhost), got "${flags.host}"`)
    options.host = flags.host
  }
  if (flags['secret-key'] !== undefined) {
    if (flags['secret-key'].trim() === '') throw new Error('--secret-key must not be empty')
    options.secretKey = flags['secret-key']
  }
  const encryptionKey = flags['encryption-key']
  if (encryptionKey !== undefined) {
    if (Buffer.byteLength(encryptionKey, 'utf8') !== 32)
      throw new Error(
        `--encryption-key must be exactly 32 bytes (UTF-8), got ${Buffer.byteLength(encryptionKey, 'utf8')}`,
      )
    options.encryptionKey = encryptionKey
  }
  if (flags.seed !== undefined) options.seed = integer('--seed', flags.seed, 0, 2 ** 32 - 1)
  const stateFile = flags['state-file']
  if (stateFile !== undefined) {
    if (stateFile.trim() === '') throw new Error('--state-file must not be empty')
    options.stateFile = stateFile
  }
  const rateLimit = flags['rate-limit']
  if (rateLimit !== undefined)
    options.rateLimit = {
      perSecond: integer('--rate-limit', rateLimit, 1, 100_000),
      ...(flags['no-retry-after'] ? { retryAfter: false } : {}),
    }
  else if (flags['no-retry-after']) throw new Error('--no-retry-after needs --rate-limit')
  const loadLatency = flags['load-latency']
  if (loadLatency !== undefined) {
    const parts = loadLatency.split(',')
    if (parts.length < 2 || parts.length > 3)
      throw new Error(
        `--load-latency is <floor ms>,<ms per request in flight>[,<free in flight>], got "${loadLatency}"`,
      )
    options.loadLatency = {
      floorMs: integer('--load-latency floor', parts[0]!, 0, 60_000),
      perRequestMs: integer('--load-latency per request', parts[1]!, 0, 60_000),
      ...(parts[2] === undefined ? {} : { freeInFlight: integer('--load-latency free', parts[2], 0, 10_000) }),
    }
  }
  return options
}
