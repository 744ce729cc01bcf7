/**
 * services/<x> imports services/<y> only through <y>'s public module (decision 094).
 *
 * A service is a folder under electron/main/services/. Its public module is its index.ts, or the
 * module PUBLIC_MODULES names; everything else in the folder is its own business and may change
 * without its callers. Type-only imports count too: a type is as much a dependency as a value.
 *
 * Not covered, on purpose:
 * - the modules directly in electron/main/services/ (service-context.ts, domain-service.ts,
 *   checkpoints.ts): the plumbing every service is built on, not a service;
 * - modules outside electron/main/services/ (app-services.ts, the bridge, main-process.ts): they
 *   build the services and hand each its dependencies, so they reach the modules that make them;
 * - tests, which test modules where they are.
 *
 * Exceptions (EXCEPTIONS below) name the importing service, the module imported and why.
 */
import { dirname, relative, resolve, sep } from 'node:path'

/** A service whose public module is not its index.ts. */
export const PUBLIC_MODULES = {
  // Bulk's face is named for what it offers: runs, their content and the hooks of team mode (decision 092).
  bulk: 'runs',
}

/**
 * Imports allowed past a public module, each with its reason. `from`: the importing service;
 * `to`: the module, relative to electron/main/services, without its extension.
 */
export const EXCEPTIONS = [
  {
    from: 'bulk',
    to: 'export/zip',
    why: "The sheet importer's worker thread (bulk/import/read-workbook.ts) checks a workbook's ZIP before SheetJS is loaded, and loads SheetJS only for a workbook; the export index would bring the export reader, which loads SheetJS as the worker starts.",
  },
  {
    from: 'documents',
    to: 'export/export-guard',
    why: 'The PDF worker (documents/pdf-worker.ts) draws through document-guard.ts, which uses the guard; the export index would load the export reader (and SheetJS) and the table writer into every PDF worker as it starts.',
  },
  // The reader of untrusted files (decision 100) runs each job in a worker thread started per file:
  // it loads the capped ZIP reader, the export reader's size limit and the offline review's reader
  // themselves, not the export and history services' faces (their writers, dialogs and SheetJS at start).
  {
    from: 'files',
    to: 'export/zip',
    why: "The file reader's worker masks card numbers inside a workbook with the capped ZIP reader (decision 101).",
  },
  {
    from: 'files',
    to: 'export/export-reader',
    why: "The file reader's worker refuses a review file past the export reader's own size limit.",
  },
  {
    from: 'files',
    to: 'history/offline-history',
    why: "Offline review's reading is the file reader's job: it runs in that worker, off the main thread (decision 100).",
  },
]

const SERVICES = `${sep}electron${sep}main${sep}services${sep}`

function servicesRootOf(filename) {
  const at = filename.lastIndexOf(SERVICES)
  return at < 0 ? null : filename.slice(0, at + SERVICES.length - 1)
}

function withoutExtension(path) {
  return path.replace(/\.(ts|js|mjs|cjs|vue)$/, '')
}

/** @type {import('eslint').Rule.RuleModule} */
export const serviceBoundaries = {
  meta: {
    type: 'problem',
    docs: { description: "A service imports another service only through that service's public module." },
    schema: [],
    messages: {
      internal:
        "services/{{from}} imports {{module}}, inside services/{{to}}: import it from services/{{to}}'s public module ({{face}}) instead (decision 094), or add it there.",
    },
  },
  create(context) {
    const filename = context.filename ?? context.getFilename()
    const root = servicesRootOf(filename)
    if (!root) return {}
    const own = relative(root, filename).split(sep)
    // A module directly in services/ is the services' plumbing, not a service.
    if (own.length < 2) return {}
    const from = own[0]

    function check(node, source) {
      if (!source || typeof source.value !== 'string' || !source.value.startsWith('.')) return
      const target = withoutExtension(relative(root, resolve(dirname(filename), source.value)))
        .split(sep)
        .join('/')
      if (target.startsWith('..')) return
      const parts = target.split('/')
      // services/<y> itself (its index.ts), or a module of the services' root.
      if (parts.length < 2) return
      const to = parts[0]
      if (to === from) return
      const face = `${to}/${PUBLIC_MODULES[to] ?? 'index'}`
      if (target === face) return
      if (EXCEPTIONS.some((exception) => exception.from === from && exception.to === target)) return
      context.report({ node, messageId: 'internal', data: { from, to, module: target, face: `${face}.ts` } })
    }

    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source.type === 'Literal' ? node.source : null),
    }
  },
}

export default { rules: { 'service-boundaries': serviceBoundaries } }
