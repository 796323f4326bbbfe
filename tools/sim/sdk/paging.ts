/**
 * Pages as the services page: a request names at most the API's maximum, gets that many items and a
 * NextToken while more remain, and is refused (as AWS refuses it) for a size outside the API's range or a
 * token it never issued. A listing is taken once, at its first page, and later pages are read from it
 * (a consistent snapshot, and the listing's cost paid once, not once per page).
 */
import { simAwsError } from '../errors.ts'

export interface PageRequest {
  readonly maxResults: number | undefined
  readonly nextToken: string | undefined
}

export interface PageRule {
  readonly operation: string
  /** What a request without a size gets; undefined when it gets every item. */
  readonly defaultSize: number | undefined
  readonly min: number
  readonly max: number
  /** The service's error code for a bad parameter (EC2 InvalidParameterValue, Auto Scaling ValidationError). */
  readonly invalidCode: string
}

export interface Page<T> {
  readonly items: T[]
  readonly nextToken: string | undefined
}

const refuse = (rule: PageRule, message: string) =>
  simAwsError(rule.invalidCode, 400, `${rule.operation}: ${message}`)

export const checkPageSize = (rule: PageRule, maxResults: number | undefined): void => {
  if (
    maxResults !== undefined &&
    (!Number.isInteger(maxResults) || maxResults < rule.min || maxResults > rule.max)
  )
    throw refuse(rule, `MaxResults ${maxResults} is outside ${rule.min} to ${rule.max}`)
}

const slice = <T>(rule: PageRule, request: PageRequest, items: readonly T[], start: number) => {
  const size = request.maxResults ?? rule.defaultSize ?? items.length
  const end = Math.min(items.length, start + Math.max(size, 1))
  return { page: items.slice(start, end), more: end < items.length, end }
}

/** The listings of one invocation's clients still being paged, by the id their tokens carry. */
export class Listings {
  private opened = 0
  private readonly open = new Map<number, readonly unknown[]>()

  page<T>(rule: PageRule, request: PageRequest, list: () => readonly T[]): Page<T> {
    checkPageSize(rule, request.maxResults)
    if (request.nextToken === undefined) {
      const items = list()
      const { page, more, end } = slice(rule, request, items, 0)
      if (!more) return { items: page, nextToken: undefined }
      const id = ++this.opened
      this.open.set(id, items)
      return { items: page, nextToken: `${id}.${end}` }
    }
    const [id, offset] = request.nextToken.split('.').map(Number) as [number, number]
    const items = this.open.get(id) as readonly T[] | undefined
    if (items === undefined || !Number.isInteger(offset) || offset < 0 || offset > items.length)
      throw refuse(rule, `invalid NextToken ${request.nextToken}`)
    const { page, more, end } = slice(rule, request, items, offset)
    if (!more) this.open.delete(id)
    return { items: page, nextToken: more ? `${id}.${end}` : undefined }
  }
}

/** A list parameter longer than the API takes. */
export const checkCount = (
  rule: Pick<PageRule, 'operation' | 'invalidCode'>,
  what: string,
  count: number,
  max: number,
): void => {
  if (count > max)
    throw simAwsError(rule.invalidCode, 400, `${rule.operation}: ${count} ${what}, at most ${max}`)
}
