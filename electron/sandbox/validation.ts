/**
 * Field validation shared by the routes. Problems are collected per field path
 * ("destination.amount") so one answer lists all of them, as the spec's "Invalid request data"
 * envelope does.
 */
import { toMinorUnits } from '../../shared/money'
import { invalidData } from './replies'

export type JsonObject = Record<string, unknown>

export const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const METADATA_KEY = /^[A-Za-z0-9-]+$/

export class FieldErrors {
  readonly details: Record<string, string> = {}

  add(path: string, message: string): void {
    // The first problem of a field is the one worth reading.
    if (!(path in this.details)) this.details[path] = message
  }

  has(path: string): boolean {
    return path in this.details
  }

  get empty(): boolean {
    return Object.keys(this.details).length === 0
  }

  throwIfAny(): void {
    if (!this.empty) throw invalidData(this.details)
  }

  /** A required object; records "is required" / "must be an object" and returns undefined. */
  object(parent: JsonObject, key: string, path: string, required = true): JsonObject | undefined {
    const value = parent[key]
    if (value === undefined || value === null) {
      if (required) this.add(path, 'is required')
      return undefined
    }
    if (!isObject(value)) {
      this.add(path, 'must be an object')
      return undefined
    }
    return value
  }

  /** A string field; empty or blank strings count as missing when required. */
  string(
    parent: JsonObject | undefined,
    key: string,
    path: string,
    rules: { required?: boolean; min?: number; max?: number; pattern?: RegExp; patternText?: string } = {},
  ): string | undefined {
    const { required = true } = rules
    // A missing parent object was already reported; its fields add nothing.
    if (parent === undefined) return undefined
    const value = parent[key]
    if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
      if (required) this.add(path, 'is required')
      return undefined
    }
    if (typeof value !== 'string') {
      this.add(path, 'must be a string')
      return undefined
    }
    if (rules.min !== undefined && value.length < rules.min) {
      this.add(
        path,
        rules.max !== undefined
          ? `must be ${rules.min} to ${rules.max} characters`
          : `must be at least ${rules.min} characters`,
      )
      return undefined
    }
    if (rules.max !== undefined && value.length > rules.max) {
      this.add(
        path,
        rules.min !== undefined
          ? `must be ${rules.min} to ${rules.max} characters`
          : `must be at most ${rules.max} characters`,
      )
      return undefined
    }
    if (rules.pattern && !rules.pattern.test(value)) {
      this.add(path, rules.patternText ?? 'is not valid')
      return undefined
    }
    return value
  }

  email(parent: JsonObject | undefined, key: string, path: string, required = true): string | undefined {
    return this.string(parent, key, path, { required, pattern: EMAIL, patternText: 'must be a valid e-mail address' })
  }

  /** One of a fixed set of strings. */
  oneOf<T extends string>(
    parent: JsonObject | undefined,
    key: string,
    path: string,
    allowed: readonly T[],
    required = true,
  ): T | undefined {
    const value = this.string(parent, key, path, { required })
    if (value === undefined) return undefined
    if (!(allowed as readonly string[]).includes(value)) {
      this.add(path, `must be one of: ${allowed.join(', ')}`)
      return undefined
    }
    return value as T
  }

  /** A positive JSON number with at most two decimal places, as exact minor units. */
  amount(parent: JsonObject | undefined, key: string, path: string): bigint | undefined {
    const value = parent?.[key]
    if (value === undefined || value === null) {
      this.add(path, 'is required')
      return undefined
    }
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      this.add(path, 'must be a number')
      return undefined
    }
    let minor: bigint
    try {
      minor = toMinorUnits(value)
    } catch {
      this.add(path, 'must have at most two decimal places')
      return undefined
    }
    if (minor <= 0n) {
      this.add(path, 'must be greater than 0')
      return undefined
    }
    return minor
  }

  boolean(parent: JsonObject, key: string, path: string): boolean | undefined {
    const value = parent[key]
    if (value === undefined || value === null) return undefined
    if (typeof value !== 'boolean') {
      this.add(path, 'must be a boolean')
      return undefined
    }
    return value
  }

  /**
   * Metadata rules of section 8: an object, 1 to 5 keys, key names of at most 20 characters made
   * of A-Z, a-z, 0-9 and "-". Absent metadata is fine (it is optional).
   */
  metadata(parent: JsonObject, key: string, path: string): JsonObject | null {
    const value = parent[key]
    if (value === undefined || value === null) return null
    if (!isObject(value)) {
      this.add(path, 'must be an object')
      return null
    }
    const keys = Object.keys(value)
    if (keys.length === 0) this.add(path, 'must not be empty')
    else if (keys.length > 5) this.add(path, 'must have at most 5 keys')
    else {
      for (const name of keys) {
        if (name.length > 20) this.add(`${path}.${name}`, 'key must be at most 20 characters')
        else if (!METADATA_KEY.test(name)) this.add(`${path}.${name}`, 'key may only contain A-Z, a-z, 0-9 and -')
      }
    }
    return value
  }
}

/** The request body must be a JSON object for every POST route. */
export function requireObjectBody(body: unknown): JsonObject {
  if (!isObject(body)) throw invalidData({ body: 'must be a JSON object' })
  return body
}
