/**
 * The simulated account's KMS HMAC key (KeySpec HMAC_256): its ARN, which the Lambdas get as
 * MARKER_KEY_ARN, and its secret, which no one outside KMS ever sees. Chaos forges with a key of its own.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import { markerMessage, withMac } from '../../lambdas/core/markers.ts'

export const SIM_ACCOUNT = '123456789012'

export class SimMarkerKey {
  readonly arn: string
  private readonly secret: Buffer

  /** A per-world key: the label picks the secret, so a forger's key (another label) never matches. */
  constructor(label = 'spotswap-sim-marker-key', region = 'us-east-1') {
    this.secret = createHash('sha256').update(label).digest()
    const id = createHash('sha256').update(`id:${label}`).digest('hex')
    this.arn = `arn:aws:kms:${region}:${SIM_ACCOUNT}:key/${id.slice(0, 8)}-${id.slice(8, 12)}-4${id.slice(13, 16)}-8${id.slice(17, 20)}-${id.slice(20, 32)}`
  }

  mac(message: Uint8Array): Uint8Array {
    return createHmac('sha256', this.secret).update(message).digest()
  }

  /**
   * A marker value as spotswap would write it with this key: for an instance `instance:<id>`, for a group
   * `group:<its ARN>`. Scenarios use it to start with spotswap's own markers; chaos to forge with another key.
   */
  signedValue(region: string, resource: string, key: string, payload: string): string {
    const message = markerMessage({ account: SIM_ACCOUNT, region }, resource, key, payload)
    return withMac(payload, Buffer.from(this.mac(new TextEncoder().encode(message))).toString('base64url'))
  }

  /** HMAC comparison in constant time, as KMS does. */
  verify(message: Uint8Array, mac: Uint8Array): boolean {
    const expected = this.mac(message)
    return mac.length === expected.length && timingSafeEqual(expected, mac)
  }
}
