/**
 * No module of the app reaches itself through the modules it imports at run time. A circle makes
 * load order matter (a value read before its module finished loading is undefined) and hides which
 * module owns what. Type-only imports are erased by the compiler and are not counted.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, normalize, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = join(__dirname, '..', '..', '..')
const SOURCES = ['electron', 'shared', join('renderer', 'src')]
const IMPORT = /^\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return /\.(ts|vue)$/.test(name) && !name.endsWith('.d.ts') ? [path] : []
  })
}

function resolveImport(from: string, specifier: string): string | null {
  let base: string
  if (specifier.startsWith('.')) base = normalize(join(dirname(from), specifier))
  else if (specifier.startsWith('@shared/')) base = join(ROOT, 'shared', specifier.slice('@shared/'.length))
  else if (specifier.startsWith('@/')) base = join(ROOT, 'renderer', 'src', specifier.slice(2))
  else return null
  for (const candidate of [base, `${base}.ts`, `${base}.vue`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate
  }
  return null
}

/** Each file's run-time imports (a whole `import type` is left out; `import { type X, y }` is kept). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  for (const file of SOURCES.flatMap((source) => sourceFiles(join(ROOT, source)))) {
    const text = readFileSync(file, 'utf8')
    const targets: string[] = []
    for (const match of text.matchAll(IMPORT)) {
      if (match[1]) continue
      const target = resolveImport(file, match[2]!)
      if (target) targets.push(target)
    }
    graph.set(file, targets)
  }
  return graph
}

/** The circles of the graph: its strongly connected components of more than one file (Tarjan). */
function circles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  let next = 0
  const visit = (file: string): void => {
    index.set(file, next)
    low.set(file, next)
    next += 1
    stack.push(file)
    onStack.add(file)
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target)
        low.set(file, Math.min(low.get(file)!, low.get(target)!))
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!))
      }
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = []
      let member: string
      do {
        member = stack.pop()!
        onStack.delete(member)
        component.push(relative(ROOT, member))
      } while (member !== file)
      if (component.length > 1) found.push(component.sort())
    }
  }
  for (const file of graph.keys()) if (!index.has(file)) visit(file)
  return found
}

describe('import cycles', () => {
  it('no module of main, the preload, the Sandbox, shared code or the renderer imports itself in a circle', () => {
    const graph = importGraph()
    expect(graph.size).toBeGreaterThan(300)
    expect(circles(graph)).toEqual([])
  })

  it('finds a circle where there is one (the check itself works)', () => {
    const a = join(ROOT, 'a.ts')
    const b = join(ROOT, 'b.ts')
    const c = join(ROOT, 'c.ts')
    expect(
      circles(
        new Map([
          [a, [b]],
          [b, [c]],
          [c, [a]],
        ]),
      ),
    ).toEqual([['a.ts', 'b.ts', 'c.ts']])
    expect(
      circles(
        new Map([
          [a, [b]],
          [b, [c]],
          [c, []],
        ]),
      ),
    ).toEqual([])
  })
})
