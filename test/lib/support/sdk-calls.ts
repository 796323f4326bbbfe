/**
 * The IAM actions the Lambdas' code can perform: every `new XxxCommand(` in lambdas/aws (the only
 * place @aws-sdk is imported), mapped from the SDK client package to its IAM service prefix. The adapter
 * imports the SDK statically (the Lambdas load it at init), so the commands are found through the named
 * imports; a dynamic import of an SDK module would hide its commands, so one is refused.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

const ADAPTERS = new URL('../../../lambdas/aws/', import.meta.url).pathname

const SERVICE_PREFIX: Record<string, string> = {
  'client-auto-scaling': 'autoscaling',
  'client-cloudformation': 'cloudformation',
  'client-ec2': 'ec2',
  'client-elastic-load-balancing': 'elasticloadbalancing',
  'client-elastic-load-balancing-v2': 'elasticloadbalancing',
  'client-kms': 'kms',
  'client-pricing': 'pricing',
  'client-sqs': 'sqs',
  'client-ssm': 'ssm',
  'client-ecs': 'ecs',
  'client-savingsplans': 'savingsplans',
}

/** Batch APIs authorised by their single-item action. */
const AUTHORISED_AS: Record<string, string> = { 'sqs:SendMessageBatch': 'sqs:SendMessage' }

export interface SdkCall {
  readonly action: string
  readonly file: string
}

const prefixOf = (file: string, client: string): string => {
  const prefix = SERVICE_PREFIX[client]
  if (prefix === undefined) throw new Error(`${file} imports @aws-sdk/${client}: add its IAM prefix here`)
  return prefix
}

export const sdkCalls = (): SdkCall[] => {
  const calls: SdkCall[] = []
  for (const file of readdirSync(ADAPTERS).filter((name) => name.endsWith('.ts'))) {
    const source = readFileSync(join(ADAPTERS, file), 'utf8')
    if (/import\(\s*'@aws-sdk\//.test(source))
      throw new Error(
        `${file} imports an SDK module dynamically: import it statically so its commands are found`,
      )
    for (const [, names = '', client = ''] of source.matchAll(
      /import\s*\{([^}]*)\}\s*from\s*'@aws-sdk\/(client-[a-z0-9-]+)'/g,
    )) {
      const prefix = prefixOf(file, client)
      // `DeleteTagsCommand as DeleteGroupTagsCommand`: the action comes from the name, the use from the alias.
      const commands = names
        .split(',')
        .map((name) =>
          name
            .replace(/^\s*type\s+/, '')
            .trim()
            .split(/\s+as\s+/),
        )
        .filter(([name]) => name?.endsWith('Command'))
      for (const [command = '', local = command] of commands) {
        if (!new RegExp(`new\\s+${local}\\s*\\(`).test(source)) continue
        const action = `${prefix}:${command.replace(/Command$/, '')}`
        calls.push({ action: AUTHORISED_AS[action] ?? action, file })
      }
    }
  }
  return calls
}
