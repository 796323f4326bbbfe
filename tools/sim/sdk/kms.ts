/**
 * KMS's GenerateMac and VerifyMac over the world's HMAC key. VerifyMac never answers `MacValid: false`:
 * a MAC that does not match fails with KMSInvalidMacException
 * (https://docs.aws.amazon.com/kms/latest/APIReference/API_VerifyMac.html); a key that is not the world's
 * is NotFoundException (the Lambdas' key policy names only theirs).
 */
import type { KmsApi } from '../../../lambdas/aws/cloud.ts'
import { simAwsError } from '../errors.ts'
import { answer, type SimApiContext } from './request.ts'

const keyOf = (ctx: SimApiContext, keyId: string | undefined) => {
  const key = ctx.world.markerKey
  if (keyId !== key.arn) throw simAwsError('NotFoundException', 400, `Key '${keyId}' does not exist`)
  return key
}

const bytes = (value: Uint8Array | undefined): Uint8Array => value ?? new Uint8Array()

const macAlgorithm = (algorithm: string | undefined): 'HMAC_SHA_256' => {
  if (algorithm !== 'HMAC_SHA_256')
    throw simAwsError('InvalidKeyUsageException', 400, `${algorithm} is not valid for an HMAC_256 key`)
  return algorithm
}

export const kms = (ctx: SimApiContext): KmsApi => ({
  generateMac: (input) =>
    answer(ctx, 'kms:GenerateMac', () => {
      const key = keyOf(ctx, input.KeyId)
      const MacAlgorithm = macAlgorithm(input.MacAlgorithm)
      return { Mac: key.mac(bytes(input.Message)), MacAlgorithm, KeyId: key.arn, $metadata: {} }
    }),
  verifyMac: (input) =>
    answer(ctx, 'kms:VerifyMac', () => {
      const key = keyOf(ctx, input.KeyId)
      const MacAlgorithm = macAlgorithm(input.MacAlgorithm)
      if (!key.verify(bytes(input.Message), bytes(input.Mac)))
        throw simAwsError('KMSInvalidMacException', 400, 'HMAC verification failed')
      return { MacValid: true, MacAlgorithm, KeyId: key.arn, $metadata: {} }
    }),
})
