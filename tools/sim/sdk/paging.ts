/**
 * Pages as the services page: a request names at most the API's maximum, gets that many items and a
 * NextToken while more remain, and is refused (as AWS refuses it) for a size outside the API's range or a
 * token it never issued. Tokens are offsets into the listing as it stands at each request.
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

export const pageOf = <T>(rule: PageRule, request: PageRequest, items: readonly T[]): Page<T> => {
  checkPageSize(rule, request.maxResults)
  const start = request.nextToken === undefined ? 0 : Number(request.nextToken)
  if (!Number.isInteger(start) || start < 0 || start > items.length)
    throw refuse(rule, `invalid NextToken ${request.nextToken}`)
  const size = request.maxResults ?? rule.defaultSize ?? items.length
  const end = Math.min(items.length, start + Math.max(size, 1))
  return { items: items.slice(start, end), nextToken: end < items.length ? String(end) : undefined }
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
