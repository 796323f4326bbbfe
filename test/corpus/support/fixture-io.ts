/**
 * Reading corpus fixtures. Each loader checks its file's shape, so a typo in a fixture fails loudly
 * instead of silently weakening a test. Formats: see ../README.md.
 */
import { readFileSync } from 'node:fs'

export const readJson = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../${name}`, import.meta.url), 'utf8')) as unknown

export const readRaw = (path: string): string => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8')

export const fail = (file: string, index: number, problem: string): never => {
  throw new Error(`${file} entry ${index}: ${problem}`)
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Control characters, bidi overrides and zero-width characters as \u escapes, so test names stay legible. */
export const printable = (text: string, max = 48): string => {
  const escaped = [...text]
    .map((ch) => (/^[\x20-\x7e]$/.test(ch) ? ch : `\\u{${(ch.codePointAt(0) ?? 0).toString(16)}}`))
    .join('')
  return escaped.length > max ? `${escaped.slice(0, max)}… (${text.length} chars)` : escaped
}
