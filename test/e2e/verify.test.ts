/**
 * `spotswap verify` against moto_server, unchanged: the real SDK clients, the real AWS adapter and the
 * handlers' own create-handler. Only the waits between runs are virtual in the first test (the clock
 * moves on instead of sleeping); the second kills a real `spotswap verify` process half-way and shows
 * `verify --cleanup` removes what it left.
 */

import { type ChildProcess, spawn } from 'node:child_process'
import { DescribeAutoScalingGroupsCommand } from '@aws-sdk/client-auto-scaling'
import { DescribeLaunchTemplatesCommand } from '@aws-sdk/client-ec2'
import {
  DescribeLoadBalancersCommand,
  DescribeTargetGroupsCommand,
} from '@aws-sdk/client-elastic-load-balancing-v2'
import { DescribeKeyCommand, KMSClient, ListKeysCommand, ListResourceTagsCommand } from '@aws-sdk/client-kms'
import { expect, it, vi } from 'vitest'
import type { VerifyDeps } from '../../tools/cli/verify-command.ts'
import { autoScaling, ec2, elbv2 } from './support/clients.ts'
import { E2E_TIMEOUT_MS } from './support/events.ts'
import { withoutLaunchTemplateTag } from './support/launch-template-tag.ts'
import { describeMoto, freshAccountPerTest } from './support/moto.ts'
import { allInstances, createGroup, groupState } from './support/world.ts'

const REGION = 'us-east-1'
/** A whole verify run is a dozen handler runs against moto: 80 to 130 s alone, more on a loaded machine. */
const VERIFY_TIMEOUT_MS = 480_000
/** Waits longer than the group's 60 s grace period: fewer idle handler runs, each one costly on moto. */
const VIRTUAL_WAIT = ['--wait-seconds', '90']
const RUN_TAG = 'spotswap:verify-run'

const recorder = () => {
  let out = ''
  let err = ''
  return {
    io: {
      out: (text: string) => {
        out += text
      },
      err: (text: string) => {
        err += text
      },
      progressStream: undefined,
      writeFile: () => {
        throw new Error('verify writes no file')
      },
      env: { ...process.env },
    },
    out: () => out,
    err: () => err,
  }
}

/** verify with the real AWS wiring, except that waiting moves a virtual clock on instead of sleeping. */
const loadVerify = async () => {
  vi.resetModules()
  const { createVerifyCommand } = await import('../../tools/cli/verify-command.ts')
  const { verifyClients } = await import('../../tools/cli/verify-clients.ts')
  const { preflightClients } = await import('../../tools/cli/preflight-clients.ts')
  const { createAwsCloud } = await import('../../lambdas/aws/cloud.ts')
  let now = new Date()
  const deps: VerifyDeps = {
    clients: async (region) => verifyClients(region),
    cloud: async (region, log, markerKeyArn) => createAwsCloud(region, { logger: log, markerKeyArn }),
    preflightClients: async (region) => preflightClients(region),
    now: () => now,
    sleep: async (ms) => {
      now = new Date(now.getTime() + ms)
    },
  }
  return createVerifyCommand(deps)
}

/** Everything of any verify run still in the account (load balancers are checked by the unit tests). */
const leftovers = async () => {
  const groups = await autoScaling(REGION).send(
    new DescribeAutoScalingGroupsCommand({ Filters: [{ Name: 'tag-key', Values: [RUN_TAG] }] }),
  )
  const templates = await ec2(REGION).send(
    new DescribeLaunchTemplatesCommand({ Filters: [{ Name: 'tag-key', Values: [RUN_TAG] }] }),
  )
  return {
    groups: (groups.AutoScalingGroups ?? []).map((g) => g.AutoScalingGroupName),
    templates: (templates.LaunchTemplates ?? []).map((t) => t.LaunchTemplateId),
    instances: (await allInstances(REGION)).map((i) => i.id),
    keys: await runKeys(),
  }
}

/** Marker keys a verify run created (tagged with a run id) and has not scheduled for deletion. */
const runKeys = async (): Promise<string[]> => {
  const kms = new KMSClient({ region: REGION })
  const keys: string[] = []
  for (const { KeyId } of (await kms.send(new ListKeysCommand({}))).Keys ?? []) {
    const key = await kms.send(new DescribeKeyCommand({ KeyId }))
    if (key.KeyMetadata?.KeyState === 'PendingDeletion') continue
    const tags = await kms.send(new ListResourceTagsCommand({ KeyId }))
    if (tags.Tags?.some((t) => t.TagKey === RUN_TAG) && KeyId !== undefined) keys.push(KeyId)
  }
  return keys
}

const NOTHING = { groups: [], templates: [], instances: [], keys: [] }

/** The checks a conversion must happen for. */
const CONVERSION_CHECKS = [
  'converges',
  'serves-throughout',
  'leaves-through-auto-scaling',
  'cleans-up-launches',
  'interruption',
]

describeMoto('spotswap verify against moto', (moto) => {
  freshAccountPerTest(moto, { region: REGION })

  it(
    'converts its own group, passes every check it can make here, and leaves nothing behind',
    async () => {
      const verify = await loadVerify()
      const run = recorder()

      const code = await verify.run(['--region', REGION, '--run-id', 'e2eok', ...VIRTUAL_WAIT], run.io)

      expect(run.out()).toContain('verify passed.')
      expect(code).toBe(0)
      for (const check of ['launch-template-tag', ...CONVERSION_CHECKS, 'deleted'])
        expect(run.out()).toMatch(new RegExp(`^\\s+pass\\s+${check}:`, 'm'))
      // moto has no FIS and no deployed stack: said, not faked.
      expect(run.out()).toMatch(/^\s+not-possible\s+interruption-source: the warning was a synthetic/m)
      expect(run.out()).toMatch(/^\s+skipped\s+roles-denied: skipped: no deployed roles/m)
      expect(run.out()).toMatch(/^Cost, estimated: \$\d+\.\d{4} for \d+\.\d{2} instance-hours/m)
      expect(await leftovers()).toEqual(NOTHING)
    },
    VERIFY_TIMEOUT_MS,
  )

  it(
    'on plain moto, whose CreateFleet writes no template tag, reports the conversion checks not possible and cleans up',
    async () => {
      const verify = await loadVerify()
      const run = recorder()
      const retag = withoutLaunchTemplateTag()
      let code: number
      try {
        code = await verify.run(['--region', REGION, '--run-id', 'e2eplain', ...VIRTUAL_WAIT], run.io)
      } finally {
        retag()
      }

      expect(run.out()).toMatch(
        /^\s+not-possible\s+launch-template-tag: this endpoint wrote no aws:ec2launchtemplate:id .* moto does not/m,
      )
      for (const check of CONVERSION_CHECKS)
        expect(run.out()).toMatch(
          new RegExp(`^\\s+not-possible\\s+${check}: needs launches spotswap can prove`, 'm'),
        )
      // Stopped at the first unprovable launch, not at the deadline; everything it made deleted.
      expect(run.out()).not.toMatch(/^\s+fail\s/m)
      expect(run.out()).toMatch(/^\s+pass\s+deleted:/m)
      expect(run.out()).toMatch(/^Not possible here: launch-template-tag, converges, /m)
      expect(code).toBe(0)
      expect(await leftovers()).toEqual(NOTHING)
    },
    VERIFY_TIMEOUT_MS,
  )

  it(
    'with --with-load-balancer, converts a group behind an internal load balancer and deletes both',
    async () => {
      const verify = await loadVerify()
      const run = recorder()

      const code = await verify.run(
        ['--region', REGION, '--run-id', 'e2elb', '--with-load-balancer', ...VIRTUAL_WAIT],
        run.io,
      )

      expect(run.out()).toContain('verify passed.')
      expect(code).toBe(0)
      // moto reports targets healthy at once: the serving check holds here without any boot time.
      expect(run.out()).toMatch(
        /^\s+pass\s+deleted: .*loadBalancers: arn:aws:elasticloadbalancing:.*targetGroups: arn:/m,
      )
      const balancers = await elbv2(REGION).send(new DescribeLoadBalancersCommand({}))
      const targetGroups = await elbv2(REGION).send(new DescribeTargetGroupsCommand({}))
      expect(balancers.LoadBalancers ?? []).toEqual([])
      expect(targetGroups.TargetGroups ?? []).toEqual([])
      expect(await leftovers()).toEqual(NOTHING)
    },
    VERIFY_TIMEOUT_MS,
  )

  it(
    'verify --cleanup removes what a verify process killed half-way left',
    async () => {
      const child: ChildProcess = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          'tools/cli/main.ts',
          'verify',
          '--region',
          REGION,
          '--run-id',
          'e2ekill',
          '--wait-seconds',
          '600',
        ],
        { env: { ...process.env }, stdio: ['ignore', 'pipe', 'pipe'] },
      )
      let out = ''
      child.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString()
      })
      const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))
      try {
        // After its first replacer run it waits 10 minutes: killed there, its group, template, members and
        // launch are all left.
        await vi.waitFor(() => expect(out).toMatch(/convert run 1: /), { timeout: 180_000, interval: 250 })
      } finally {
        child.kill('SIGKILL')
        await exited
      }
      const left = await leftovers()
      expect(left.groups).toEqual(['spotswap-verify-e2ekill'])
      expect(left.templates).toHaveLength(1)
      expect(left.instances.length).toBeGreaterThanOrEqual(2)
      expect(left.keys).toHaveLength(1)

      // A group of someone else's that carries the run's tag: a tag proves nothing, so it stays.
      await createGroup({
        name: 'prod',
        desired: 1,
        min: 1,
        max: 1,
        tags: { [RUN_TAG]: 'e2ekill' },
        region: REGION,
      })
      const prod = (await groupState('prod', REGION)).members.map((m) => m.id)

      const verify = await loadVerify()
      const cleanup = recorder()
      const code = await verify.run(['--region', REGION, '--cleanup', '--run-id', 'e2ekill'], cleanup.io)

      expect(cleanup.err()).toBe('')
      expect(code).toBe(0)
      expect(cleanup.out()).toMatch(
        /^Deleted what verify run e2ekill left in us-east-1: groups: spotswap-verify-e2ekill; launchTemplates: lt-/m,
      )
      expect(await leftovers()).toEqual({ groups: ['prod'], templates: [], instances: prod, keys: [] })
    },
    E2E_TIMEOUT_MS,
  )
})
