// Types of scripts/package.mjs for the unit tests.
export function electronMirror(env?: NodeJS.ProcessEnv): string
export function downloadFailureLine(error: unknown, env?: NodeJS.ProcessEnv): string | null
export function main(args?: string[]): Promise<number>
