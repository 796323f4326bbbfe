/**
 * A member replaced ahead whose swap was recorded but never attached (the replacer run died or failed before
 * its attach, and the region's next run is late): at its deadline the reminder attaches the replacement and
 * the member leaves with the decrement, so the group never backfills; the next replacer run finds the pair
 * settled. Anything it cannot prove leaves as before, without a decrement.
 */
import { describe, expect, it } from 'vitest'
import {
  TAG_INTERRUPTION_WARNED,
  TAG_JOINED_GROUP,
  TAG_REPLACEMENT_ATTEMPT,
  TAG_REPLACING_INSTANCE,
  TAG_SWAP,
  TAG_SWAP_ID,
} from '../../lambdas/core/constants.ts'
import { groupRunRequestEvent, interruptionDeadlineEvent } from '../../lambdas/core/events/definitions.ts'
import { silentLog } from '../../lambdas/core/log.ts'
import { createHandler as createInterruptionHandler } from '../../lambdas/interruption/create-handler.ts'
import { createHandler as createReplacer } from '../../lambdas/replacer/create-handler.ts'
import { convertedWithDoomedMember as convertedDoomed } from '../builders/doomed-member.ts'
import { awsError, type FakeCloud } from '../fakes/fake-cloud.ts'
import { testDeps } from './support.ts'

const REGION = 'us-east-1'
const START = new Date('2026-01-01T00:00:00Z')
const at = (seconds: number) => new Date(START.getTime() + seconds * 1000)

/** A converted group `web` of two spot members, the first warned at START. */
const convertedWithDoomedMember = (maxSize = 3) => convertedDoomed(START, maxSize)

const replacerRun = (cloud: FakeCloud, seconds: number) =>
  createReplacer({
    env: { REGIONS: REGION },
    now: () => at(seconds),
    log: silentLog,
    metrics: { emit: () => {} },
    cloudFor: () => cloud,
    regionDirectory: { enabledRegions: async () => [REGION] },
    enqueue: async () => {},
  })(groupRunRequestEvent(`${seconds}s`, REGION, 'web', START))

/** The Lambda process dies at the call: nothing after it runs, and nothing in the invocation retries. */
const processDied = () => new Error('Runtime.ExitError: the process died')

const reminderAt = (cloud: FakeCloud, instanceId: string, seconds: number) =>
  createInterruptionHandler({ ...testDeps([cloud]), now: () => at(seconds) })({
    Records: [
      {
        eventSource: 'aws:sqs',
        messageId: 'deadline-1',
        body: JSON.stringify(interruptionDeadlineEvent(REGION, instanceId, at(seconds))),
      },
    ],
  })

/**
 * The replacer launches the doomed member's replacement, then its next run records the swap (raising MaxSize
 * when the group is at it) and names the replacement, and its attach fails (nothing joined): the record
 * stays at its attach.
 */
const swapRecordedNotAttached = async (maxSize = 3) => {
  const { cloud, doomed } = convertedWithDoomedMember(maxSize)
  await replacerRun(cloud, 0)
  const replacement = [...cloud.instances.values()].find((i) => i.tags[TAG_REPLACING_INSTANCE] === doomed)
  if (replacement === undefined) throw new Error('test: no replacement launched')
  cloud.failNext('attachInstances', awsError('ServiceUnavailable', 503, 'Service is unavailable'))
  await replacerRun(cloud, 45)
  const group = cloud.group('web')
  expect(group.tags[TAG_SWAP]).toMatch(/^v2 id=\S+ phase=attaching owner=2 pairs=1 /)
  expect(replacement.tags[TAG_SWAP_ID]).toBeDefined()
  expect(group.members.has(replacement.id)).toBe(false)
  cloud.calls.length = 0
  return { cloud, doomed, replacement: replacement.id }
}

const mutated = (cloud: FakeCloud) => cloud.mutations.map((m) => m.method)

/** The next replacer run finds every pair settled: it only closes the swap, the replacements in service. */
const nextRunOnlyCloses = async (cloud: FakeCloud, replacements: readonly string[]) => {
  cloud.calls.length = 0
  await replacerRun(cloud, 134)
  const group = cloud.group('web')
  for (const method of ['terminateInstances', 'terminateInGroup', 'setDesiredCapacity'])
    expect(mutated(cloud)).not.toContain(method)
  expect(group.desiredCapacity).toBe(2)
  expect(group.maxSize).toBe(3)
  expect(group.tags[TAG_SWAP]).toBeUndefined()
  for (const id of replacements) expect(group.members.get(id)).toBe('InService')
}

describe('the deadline of a member whose swap was recorded but never attached', () => {
  it('attaches the replacement and the member leaves with the decrement; the next run only closes the swap', async () => {
    const { cloud, doomed, replacement } = await swapRecordedNotAttached()
    const summary = await reminderAt(cloud, doomed, 100)
    const group = cloud.group('web')
    expect(cloud.mutations).toEqual([
      { method: 'attachInstances', args: ['web', [replacement]] },
      { method: 'tagInstances', args: [[replacement], { [TAG_JOINED_GROUP]: 'web' }] },
      {
        method: 'tagGroup',
        args: [
          'web',
          { [TAG_SWAP]: expect.stringContaining(`phase=retiring owner=2 pairs=0 step=${doomed}`) },
        ],
      },
      { method: 'terminateInGroup', args: [doomed, true] },
    ])
    expect(group.desiredCapacity).toBe(2)
    expect(group.members.get(replacement)).toBe('InService')
    expect(summary.results[0]).toMatchObject({ outcome: 'acted', reason: 'interrupted-member' })

    await nextRunOnlyCloses(cloud, [replacement])
  })

  it('finishes a replacer run cut short after the reminder’s attach as a swap of its own', async () => {
    const { cloud, doomed, replacement } = await swapRecordedNotAttached()
    // The reminder's process dies right after the attach: the record is still at its attach. (A death, not
    // a transient error, which the handler would try again at once.)
    cloud.failNext('tagInstances', processDied())
    await reminderAt(cloud, doomed, 100).catch(() => undefined)
    const group = cloud.group('web')
    expect(group.desiredCapacity).toBe(3)
    cloud.calls.length = 0
    await replacerRun(cloud, 104)
    await replacerRun(cloud, 134)
    expect(mutated(cloud)).not.toContain('terminateInstances')
    expect(group.members.has(doomed)).toBe(false)
    expect(group.members.get(replacement)).toBe('InService')
    expect(group.desiredCapacity).toBe(2)
  })

  type Variant = readonly [
    string,
    (setup: Awaited<ReturnType<typeof swapRecordedNotAttached>>) => void,
    string,
  ]
  const variants: readonly Variant[] = [
    [
      'no swap record (the run died before writing it)',
      ({ cloud }) => {
        const group = cloud.group('web')
        const { [TAG_SWAP]: _, ...rest } = group.tags
        group.tags = rest
      },
      'no-record',
    ],
    [
      'a record nobody could sign (written by someone else)',
      ({ cloud }) => {
        const group = cloud.group('web')
        group.tags = { ...group.tags, [TAG_SWAP]: `${group.tags[TAG_SWAP]} ` }
      },
      'no-record',
    ],
    [
      'the owner changed desired capacity since the record',
      ({ cloud }) => {
        cloud.group('web').desiredCapacity = 1
      },
      'desired-not-owners',
    ],
    [
      'no room under MaxSize',
      ({ cloud }) => {
        cloud.group('web').maxSize = 2
      },
      'no-maxsize-room',
    ],
    [
      'a replacement that is not running',
      ({ cloud, replacement }) => {
        const instance = cloud.instances.get(replacement)
        if (instance !== undefined) cloud.instances.set(replacement, { ...instance, state: 'stopped' })
      },
      'not-running',
    ],
    [
      'a replacement EC2 did not launch from the group’s template',
      ({ cloud, replacement }) => {
        cloud.seedInstanceTags(replacement, { 'aws:ec2launchtemplate:id': 'lt-0ffffffffffffffff' })
      },
      'not-spotswaps-launch',
    ],
    [
      'a replacement without the swap’s id (the run died before naming it)',
      ({ cloud, replacement }) => {
        const instance = cloud.instances.get(replacement)
        if (instance === undefined) return
        const { [TAG_SWAP_ID]: _, ...tags } = instance.tags
        cloud.instances.set(replacement, { ...instance, tags })
      },
      'other-swap',
    ],
    [
      'a member whose attempt names another instance',
      ({ cloud, doomed }) => {
        cloud.seedInstanceTags(doomed, {
          [TAG_REPLACEMENT_ATTEMPT]: '1:i-0123456789abcdef0@2026-01-01T00:00:00.000Z',
        })
      },
      'no-replacement',
    ],
  ]

  it.each(variants)(
    'leaves without a decrement and attaches nothing with %s',
    async (_what, change, code) => {
      const setup = await swapRecordedNotAttached()
      change(setup)
      const desired = setup.cloud.group('web').desiredCapacity
      const summary = await reminderAt(setup.cloud, setup.doomed, 100)
      expect(setup.cloud.mutations).toEqual([{ method: 'terminateInGroup', args: [setup.doomed, false] }])
      expect(setup.cloud.group('web').desiredCapacity).toBe(desired)
      expect(JSON.stringify(setup.cloud.calls)).not.toContain('attachInstances')
      expect(summary.results[0]).toMatchObject({ outcome: 'acted' })
      expect(JSON.stringify(summary.results[0])).toContain(code)
    },
  )

  it('leaves without a decrement when the attach is refused, and writes nothing more', async () => {
    const { cloud, doomed } = await swapRecordedNotAttached()
    cloud.failNext('attachInstances', awsError('ValidationError', 400, 'exceeds MaxSize'))
    const summary = await reminderAt(cloud, doomed, 100)
    expect(mutated(cloud)).toEqual(['attachInstances', 'terminateInGroup'])
    expect(cloud.mutations.at(-1)).toEqual({ method: 'terminateInGroup', args: [doomed, false] })
    expect(summary.results[0]?.actions).toEqual([
      { kind: 'terminate-in-group', instanceId: doomed, group: 'web', decrement: false },
    ])
    expect(cloud.group('web').tags[TAG_SWAP]).toContain('phase=attaching')
  })

  it('attaches nothing into the swap’s raise of MaxSize, which a replacer run closing the swap would undo', async () => {
    const { cloud, doomed } = await swapRecordedNotAttached(2)
    expect(cloud.group('web').tags[TAG_SWAP]).toContain('max=2 raised=3')
    const summary = await reminderAt(cloud, doomed, 100)
    expect(cloud.mutations).toEqual([{ method: 'terminateInGroup', args: [doomed, false] }])
    expect(JSON.stringify(summary.results[0])).toContain('no-maxsize-room')
  })

  it('attaches nothing before the member’s deadline', async () => {
    const { cloud, doomed } = await swapRecordedNotAttached()
    await reminderAt(cloud, doomed, 99)
    expect(mutated(cloud)).toEqual(['terminateInGroup'])
  })
})

describe('the deadlines of two members EC2 interrupts at once, their swap recorded ahead', () => {
  /** Both members warned; the replacer's one run launches both replacements, then its lane is stuck. */
  const doubleInterruption = async () => {
    const { cloud, doomed, other } = convertedWithDoomedMember()
    cloud.seedInstanceTags(other, { [TAG_INTERRUPTION_WARNED]: START.toISOString() })
    cloud.interruptionWarned.add(other)
    await replacerRun(cloud, 0)
    const replacementOf = (member: string) => {
      const found = [...cloud.instances.values()].find((i) => i.tags[TAG_REPLACING_INSTANCE] === member)
      if (found === undefined) throw new Error(`test: no replacement launched for ${member}`)
      return found
    }
    cloud.calls.length = 0
    return { cloud, members: [doomed, other], replacements: [replacementOf(doomed), replacementOf(other)] }
  }

  it('records both pairs as the replacements launch, each named with the swap’s id', async () => {
    const { cloud, replacements } = await doubleInterruption()
    const record = cloud.group('web').tags[TAG_SWAP]
    expect(record).toMatch(/^v2 id=\S+ phase=attaching owner=2 pairs=2 /)
    const id = /id=(\S+)/.exec(record ?? '')?.[1]
    expect(replacements.map((r) => r.tags[TAG_SWAP_ID])).toEqual([id, id])
  })

  it('attaches each replacement at its member’s deadline, one pair at a time, desired capacity the owner’s', async () => {
    const { cloud, members, replacements } = await doubleInterruption()
    const [first, second] = members as [string, string]
    const [firstReplacement, secondReplacement] = replacements.map((r) => r.id) as [string, string]
    const group = cloud.group('web')
    await reminderAt(cloud, first, 100)
    expect(cloud.mutations).toEqual([
      { method: 'attachInstances', args: ['web', [firstReplacement]] },
      { method: 'tagInstances', args: [[firstReplacement], { [TAG_JOINED_GROUP]: 'web' }] },
      {
        method: 'tagGroup',
        args: ['web', { [TAG_SWAP]: expect.stringMatching(/phase=attaching owner=2 pairs=2 .*attached=1 /) }],
      },
      { method: 'terminateInGroup', args: [first, true] },
      {
        method: 'tagGroup',
        args: ['web', { [TAG_SWAP]: expect.stringContaining('phase=attaching owner=2 pairs=1 ') }],
      },
    ])
    expect(group.tags[TAG_SWAP]).not.toContain('attached=')
    expect(group.desiredCapacity).toBe(2)

    cloud.calls.length = 0
    await reminderAt(cloud, second, 100)
    expect(mutated(cloud)).toEqual(['attachInstances', 'tagInstances', 'tagGroup', 'terminateInGroup'])
    expect(group.tags[TAG_SWAP]).toContain(`phase=retiring owner=2 pairs=0 step=${second}`)
    expect(cloud.mutations.at(-1)).toEqual({ method: 'terminateInGroup', args: [second, true] })
    expect(group.desiredCapacity).toBe(2)

    await nextRunOnlyCloses(cloud, [firstReplacement, secondReplacement])
  })

  it('leaves no launch outside carrying the swap’s id when the reminder dies before the member’s decrement', async () => {
    const { cloud, members, replacements } = await doubleInterruption()
    const [first] = members as [string, string]
    const [, secondReplacement] = replacements.map((r) => r.id) as [string, string]
    cloud.failNext('terminateInGroup', processDied())
    await reminderAt(cloud, first, 100).catch(() => undefined)
    const group = cloud.group('web')
    expect(group.desiredCapacity).toBe(3)
    expect(group.tags[TAG_SWAP]).toMatch(/phase=attaching owner=2 pairs=2 .*attached=1 /)
    // Read as a confirmed partial attach of one: the other launch is proven never attached and goes.
    cloud.calls.length = 0
    await replacerRun(cloud, 104)
    expect(cloud.mutations).toContainEqual({ method: 'terminateInstances', args: [[secondReplacement]] })
  })
})
