/**
 * The marker key a deployed spotswap gets from its stack (lib/marker-key.ts), created in the test's moto
 * account: an HMAC_256 key for GenerateMac/VerifyMac, whose ARN both Lambdas read from MARKER_KEY_ARN
 * (https://docs.aws.amazon.com/kms/latest/APIReference/API_GenerateMac.html; moto 5.2.1 implements both).
 */
import { CreateKeyCommand, KMSClient } from '@aws-sdk/client-kms'
import { motoRegion, required } from './clients.ts'

export const kms = (region?: string): KMSClient =>
  new KMSClient({ region: motoRegion(region), maxAttempts: 1 })

/** A new HMAC key in the current moto account; returns its ARN. */
export const createMarkerKey = async (region?: string): Promise<string> => {
  const created = await kms(region).send(
    new CreateKeyCommand({
      KeySpec: 'HMAC_256',
      KeyUsage: 'GENERATE_VERIFY_MAC',
      Description: 'spotswap markers',
    }),
  )
  return required(created.KeyMetadata?.Arn, 'key ARN')
}
