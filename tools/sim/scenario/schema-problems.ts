/**
 * Ajv's errors as scenario problems: the path in the file (`$.regions["us-east-1"].groups[0].min`),
 * what the schema expected there in words, and what was found. The words come from the schema itself:
 * a subschema's `title` when it has one (times, names, tuples), else its type and bounds.
 */
import type { ErrorObject } from 'ajv'
import { childPath, describeValue, type ScenarioProblem } from './check.ts'

/** The parts of a JSON Schema that messages are written from. */
export interface SchemaNode {
  readonly $ref?: string
  readonly $defs?: Readonly<Record<string, SchemaNode>>
  readonly title?: string
  readonly type?: string
  readonly enum?: readonly unknown[]
  readonly const?: unknown
  readonly minimum?: number
  readonly exclusiveMinimum?: number
  readonly maximum?: number
  readonly minLength?: number
  readonly maxLength?: number
  readonly pattern?: string
  readonly minItems?: number
  readonly maxItems?: number
  readonly properties?: Readonly<Record<string, SchemaNode>>
}

const describeNumber = (node: SchemaNode): string => {
  const noun = node.type === 'integer' ? 'an integer' : 'a number'
  const exclusive = node.exclusiveMinimum !== undefined
  const low = node.exclusiveMinimum ?? node.minimum
  const high = node.maximum
  if (low !== undefined && high !== undefined)
    return exclusive ? `${noun} above ${low} up to ${high}` : `${noun} from ${low} to ${high}`
  if (low !== undefined) return exclusive ? `${noun} above ${low}` : `${noun} of at least ${low}`
  return high === undefined ? noun : `${noun} of at most ${high}`
}

const describeString = ({ minLength, maxLength, pattern }: SchemaNode): string => {
  if (pattern !== undefined) return `a string matching /${pattern}/`
  if (minLength !== undefined && maxLength !== undefined)
    return `a string of ${minLength} to ${maxLength} characters`
  if (maxLength !== undefined) return `a string of at most ${maxLength} characters`
  return minLength === undefined ? 'a string' : 'a non-empty string'
}

const describeArray = ({ minItems, maxItems }: SchemaNode): string => {
  if (minItems !== undefined && maxItems !== undefined) return `an array of ${minItems} to ${maxItems}`
  if (minItems !== undefined) return `an array of at least ${minItems}`
  return maxItems === undefined ? 'an array' : `an array of at most ${maxItems}`
}

/** What `node` admits, in words. */
export const describeSchema = (node: SchemaNode | undefined, root: SchemaNode): string => {
  if (node === undefined) return 'nothing (no such field)'
  if (node.title !== undefined) return node.title
  if (node.$ref !== undefined) return describeSchema(root.$defs?.[node.$ref.replace('#/$defs/', '')], root)
  if (node.enum !== undefined) return `one of ${node.enum.map((v) => JSON.stringify(v)).join(', ')}`
  if ('const' in node) return JSON.stringify(node.const)
  switch (node.type) {
    case 'integer':
    case 'number':
      return describeNumber(node)
    case 'string':
      return describeString(node)
    case 'array':
      return describeArray(node)
    case 'boolean':
      return 'true or false'
    case 'object':
      return 'an object'
    default:
      return 'a valid value'
  }
}

/** `/regions/us-east-1/groups/0` in `data` as `$.regions["us-east-1"].groups[0]`. */
const pathOf = (pointer: string, data: unknown): string => {
  let path = '$'
  let value = data
  for (const segment of pointer.split('/').slice(1)) {
    const key = segment.replaceAll('~1', '/').replaceAll('~0', '~')
    path = childPath(path, Array.isArray(value) ? Number(key) : key)
    value = (value as Record<string, unknown> | undefined)?.[key]
  }
  return path
}

const problemOf = (error: ErrorObject, data: unknown, root: SchemaNode): ScenarioProblem | undefined => {
  const at = pathOf(error.instancePath, data)
  const parent = error.parentSchema as SchemaNode
  const params = error.params as Record<string, unknown>
  // A bad key of a map (propertyNames): the problem is the key, not the map.
  if (error.propertyName !== undefined)
    return {
      path: childPath(at, error.propertyName),
      expected: describeSchema(parent, root),
      got: describeValue(error.propertyName),
    }
  switch (error.keyword) {
    case 'propertyNames':
    case 'if':
      return undefined // Ajv reports what failed inside as well, more precisely.
    case 'required': {
      const field = String(params.missingProperty)
      return {
        path: childPath(at, field),
        expected: describeSchema(parent.properties?.[field], root),
        got: 'nothing',
      }
    }
    case 'additionalProperties': {
      const field = String(params.additionalProperty)
      const known = Object.keys(parent.properties ?? {}).join(', ')
      return {
        path: childPath(at, field),
        expected: `no such field (known: ${known})`,
        got: describeValue(field),
      }
    }
    case 'uniqueItems': {
      const index = Math.max(Number(params.i), Number(params.j))
      const item = (error.data as unknown[])[index]
      return { path: childPath(at, index), expected: 'each item once', got: describeValue(item) }
    }
    default:
      return { path: at, expected: describeSchema(parent, root), got: describeValue(error.data) }
  }
}

/** One problem per place and complaint: `1.5` for an integer up to 1 breaks two keywords, says one thing. */
export const schemaProblems = (
  errors: readonly ErrorObject[],
  data: unknown,
  root: SchemaNode,
): ScenarioProblem[] => {
  const problems = new Map<string, ScenarioProblem>()
  for (const error of errors) {
    const problem = problemOf(error, data, root)
    if (problem !== undefined) problems.set(`${problem.path}\n${problem.expected}`, problem)
  }
  return [...problems.values()]
}
