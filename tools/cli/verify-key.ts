/**
 * The marker key of a `spotswap verify` run. The handlers verify run in this process with the user's
 * credentials, and the deployed stack's marker key lets only spotswap's own roles compute MACs
 * (lib/marker-key.ts), so each run creates an HMAC key of its own, named by alias and tagged with the
 * run id, and schedules its deletion at cleanup (KMS waits at least 7 days before it deletes a key:
 * https://docs.aws.amazon.com/kms/latest/developerguide/deleting-keys.html).
 */
import {
  CreateAliasCommand,
  CreateKeyCommand,
  DeleteAliasCommand,
  DescribeKeyCommand,
  ListResourceTagsCommand,
  paginateListAliases,
  ScheduleKeyDeletionCommand,
} from '@aws-sdk/client-kms'
import type { VerifyClients } from './verify-clients.ts'
import { groupNameOf, VERIFY_PREFIX, VERIFY_RUN_TAG } from './verify-resources.ts'

/** The shortest wait KMS allows before it deletes a key. */
export const KEY_DELETION_WINDOW_DAYS = 7

const ALIAS_PREFIX = `alias/${VERIFY_PREFIX}`

/** An HMAC key for the run's markers (as the stack's: HMAC_256, GENERATE_VERIFY_MAC), and its alias. */
export const createRunKey = async (clients: VerifyClients, runId: string): Promise<string> => {
  const created = await clients.kms.send(
    new CreateKeyCommand({
      KeySpec: 'HMAC_256',
      KeyUsage: 'GENERATE_VERIFY_MAC',
      Description: `spotswap verify run ${runId}: signs the markers of its in-process handlers`,
      Tags: [{ TagKey: VERIFY_RUN_TAG, TagValue: runId }],
    }),
  )
  const keyId = created.KeyMetadata?.KeyId
  const arn = created.KeyMetadata?.Arn
  if (keyId === undefined || arn === undefined) throw new Error('CreateKey answered no key id')
  await clients.kms.send(
    new CreateAliasCommand({ AliasName: `alias/${groupNameOf(runId)}`, TargetKeyId: keyId }),
  )
  return arn
}

/** A run's key still usable: its alias is verify's and its tag the run's (an alias alone proves nothing). */
export interface RunKey {
  readonly alias: string
  readonly keyId: string
}

/** The keys verify created (of this run when one is named) and has not yet scheduled for deletion. */
export const runKeysOf = async (clients: VerifyClients, runId: string | undefined): Promise<RunKey[]> => {
  const found: RunKey[] = []
  for await (const page of paginateListAliases({ client: clients.kms }, {}))
    for (const alias of page.Aliases ?? []) {
      const name = alias.AliasName ?? ''
      const keyId = alias.TargetKeyId
      const ours =
        runId === undefined ? name.startsWith(ALIAS_PREFIX) : name === `alias/${groupNameOf(runId)}`
      if (!ours || keyId === undefined) continue
      const key = await clients.kms.send(new DescribeKeyCommand({ KeyId: keyId }))
      if (key.KeyMetadata?.KeyState === 'PendingDeletion') continue
      const tags = await clients.kms.send(new ListResourceTagsCommand({ KeyId: keyId }))
      const tag = tags.Tags?.find((t) => t.TagKey === VERIFY_RUN_TAG)
      if (tag !== undefined && (runId === undefined || tag.TagValue === runId))
        found.push({ alias: name, keyId })
    }
  return found
}

/** Schedules the key's deletion, then drops its alias (a later pass no longer finds it). */
export const deleteRunKey = async (clients: VerifyClients, key: RunKey): Promise<void> => {
  await clients.kms.send(
    new ScheduleKeyDeletionCommand({ KeyId: key.keyId, PendingWindowInDays: KEY_DELETION_WINDOW_DAYS }),
  )
  await clients.kms.send(new DeleteAliasCommand({ AliasName: key.alias }))
}
