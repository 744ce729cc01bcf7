/**
 * Standalone sandbox: `npm run sandbox -- --port 4010 --secret-key sk_test_demo ...`.
 * Prints exactly "Sandbox listening on <url>" and serves until SIGINT/SIGTERM.
 */
import { startSandbox, type SandboxOptions } from './index'
import { parseCliArguments } from './cli-options'

async function main(): Promise<void> {
  let options: SandboxOptions
  try {
    options = parseCliArguments(process.argv.slice(2))
  } catch (error) {
    console.error(`sandbox: ${(error as Error).message}`)
    process.exit(2)
  }
  const sandbox = await startSandbox(options)
  console.log(`Sandbox listening on ${sandbox.url}`)
  const stop = (): void => {
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    )
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
}

main().catch((error: unknown) => {
  console.error(`sandbox: ${(error as Error).message}`)
  process.exit(1)
})
