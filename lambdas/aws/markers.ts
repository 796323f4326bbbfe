/**
 * Signs and verifies spotswap's markers with a KMS HMAC key (GenerateMac/VerifyMac,
 * https://docs.aws.amazon.com/kms/latest/developerguide/hmac.html): the key material never leaves KMS, and
 * the key policy lets only spotswap's two roles use it. The message and value format are core/markers.ts's.
 *
 * Verdicts KMS gave are kept for the container's life (a written value never changes), so a warm container
 * asks about each marker once. A marker KMS could not be asked about is `unverifiable`, never `bad-mac`:
 * its group waits rather than losing an open swap to a KMS outage.
 */

import { MARKER_CACHE_MAX_ENTRIES, MARKER_VERIFY_CONCURRENCY } from '../core/constants.ts'
import {
  isMarker,
  type MarkerRead,
  type MarkerResource,
  type MarkerVerdict,
  markerMessage,
  resourceName,
  splitMarker,
  withMac,
} from '../core/markers.ts'
import { mapWithConcurrency } from './concurrency.ts'
import type { AwsContext } from './context.ts'
import { errorCode, errorMessage, isInvalidMac } from './errors.ts'
import { describeGroups } from './groups.ts'

const MAC_ALGORITHM = 'HMAC_SHA_256'

/** A marker write without a key: refused, so no marker that could never verify is written. */
export class MarkerKeyMissingError extends Error {
  override readonly name = 'MarkerKeyMissingError'
  constructor(
    readonly key: string,
    options?: { cause?: unknown },
  ) {
    super(`no marker key (MARKER_KEY_ARN) to sign ${key}: the marker is not written`, options)
  }
}

/** A group marker whose group's ARN cannot be read: the MAC covers the ARN, so there is nothing to sign. */
export class MarkerResourceUnknownError extends Error {
  override readonly name = 'MarkerResourceUnknownError'
  constructor(
    readonly resource: string,
    options?: { cause?: unknown },
  ) {
    super(`${resource} has no ARN to sign its marker with`, options)
  }
}

/** The account the key (and every resource it signs for) belongs to: `arn:<partition>:kms:<region>:<account>:key/<id>`. */
const accountOf = (keyArn: string): string => keyArn.split(':')[4] ?? ''

/** The resource as the MAC covers it: a group by its ARN (read once per container if not seen yet), an instance by id. */
const signedResource = async (ctx: AwsContext, resource: MarkerResource): Promise<string | undefined> => {
  if (resource.kind === 'instance') return `instance:${resource.id}`
  if (!ctx.groupArns.has(resource.name))
    await describeGroups(ctx, { tagKey: undefined, tagValues: [], names: [resource.name] })
  const arn = ctx.groupArns.get(resource.name)
  return arn === undefined ? undefined : `group:${arn}`
}

const messageBytes = (ctx: AwsContext, keyArn: string, resource: string, key: string, payload: string) =>
  new TextEncoder().encode(
    markerMessage({ account: accountOf(keyArn), region: ctx.region }, resource, key, payload),
  )

/** The value to write for a marker: its payload (any MAC it carried dropped) signed for this resource and key. */
export const signMarker = async (
  ctx: AwsContext,
  resource: MarkerResource,
  key: string,
  value: string,
): Promise<string> => {
  const keyArn = ctx.markerKeyArn
  if (keyArn === undefined) throw new MarkerKeyMissingError(key)
  const payload = splitMarker(value)?.payload ?? value
  const signed = await signedResource(ctx, resource)
  if (signed === undefined) throw new MarkerResourceUnknownError(resourceName(resource))
  const response = await ctx.call('kms:GenerateMac', () =>
    ctx.kms.generateMac({
      KeyId: keyArn,
      MacAlgorithm: MAC_ALGORITHM,
      Message: messageBytes(ctx, keyArn, signed, key, payload),
    }),
  )
  return withMac(payload, Buffer.from(response.Mac ?? new Uint8Array()).toString('base64url'))
}

/** The tags to write, each marker among them signed for this resource. */
export const signTags = async (
  ctx: AwsContext,
  resource: MarkerResource,
  tags: Readonly<Record<string, string>>,
): Promise<Record<string, string>> => {
  const signed: Record<string, string> = {}
  for (const [key, value] of Object.entries(tags))
    signed[key] = isMarker(key) ? await signMarker(ctx, resource, key, value) : value
  return signed
}

const remember = (ctx: AwsContext, cacheKey: string, verdict: 'valid' | 'bad-mac'): MarkerVerdict => {
  const cache = ctx.caches.markerVerdicts
  if (cache.size >= MARKER_CACHE_MAX_ENTRIES) cache.clear()
  cache.set(cacheKey, verdict)
  return verdict
}

/** Not known to be forged, not believed this run: throttled, unreachable, a disabled key, a denial. */
const unverifiable = (ctx: AwsContext, read: MarkerRead, error: unknown): MarkerVerdict => {
  ctx.logger.warn('marker could not be verified', {
    resource: resourceName(read.resource),
    key: read.key,
    error: `${errorCode(error)}: ${errorMessage(error)}`,
  })
  return 'unverifiable'
}

const askKms = async (
  ctx: AwsContext,
  keyArn: string,
  signed: string,
  read: MarkerRead,
  split: { readonly payload: string; readonly mac: string },
): Promise<MarkerVerdict> => {
  const cacheKey = `${keyArn}\n${signed}\n${read.key}\n${read.value}`
  const known = ctx.caches.markerVerdicts.get(cacheKey)
  if (known !== undefined) return known
  try {
    const response = await ctx.call('kms:VerifyMac', () =>
      ctx.kms.verifyMac({
        KeyId: keyArn,
        MacAlgorithm: MAC_ALGORITHM,
        Message: messageBytes(ctx, keyArn, signed, read.key, split.payload),
        Mac: Buffer.from(split.mac, 'base64url'),
      }),
    )
    return remember(ctx, cacheKey, response.MacValid === true ? 'valid' : 'bad-mac')
  } catch (error) {
    if (isInvalidMac(error)) return remember(ctx, cacheKey, 'bad-mac')
    return unverifiable(ctx, read, error)
  }
}

const verifyOne = async (ctx: AwsContext, read: MarkerRead): Promise<MarkerVerdict> => {
  const split = splitMarker(read.value)
  if (split === undefined) return 'unsigned'
  const keyArn = ctx.markerKeyArn
  if (keyArn === undefined) return 'unverifiable'
  let signed: string | undefined
  try {
    signed = await signedResource(ctx, read.resource)
  } catch (error) {
    return unverifiable(ctx, read, error)
  }
  return signed === undefined ? 'unverifiable' : askKms(ctx, keyArn, signed, read, split)
}

/** KMS's verdict on each marker, in order, with at most MARKER_VERIFY_CONCURRENCY calls in flight. */
export const verifyMarkers = (ctx: AwsContext, reads: readonly MarkerRead[]): Promise<MarkerVerdict[]> =>
  mapWithConcurrency(reads, MARKER_VERIFY_CONCURRENCY, (read) => verifyOne(ctx, read))
