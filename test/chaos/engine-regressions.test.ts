/**
 * Engine defects the chaos runs found, each reduced to the smallest case that shows it, naming the
 * invariant, the sequence and the cause. An open one is an expected failure (`it.fails`); once the engine
 * is fixed vitest reports it as failing and the marker goes: the test stays, as a regression test.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { benchScenario } from '../../tools/bench/bench-scenario.ts'
import type { ChaosCase } from '../../tools/chaos/case.ts'
import { runCase } from '../../tools/chaos/runner.ts'
import { embeddedCatalog } from '../../tools/data/catalog.ts'
import { simulateRun } from '../../tools/sim/simulate.ts'
import { chaosCase, group, isoMinute, kinds } from './support.ts'

/** The replacer run that swaps at 18:05 dies before it retires the first on-demand partner. */
const crashBeforeRetiring = {
  operation: 'autoscaling:TerminateInstanceInAutoScalingGroup',
  occurrence: 1,
  when: 'before',
} as const

/** A case as `npm run chaos -- --shrink` printed it, saved under test/chaos/cases. */
const savedCase = (name: string): ChaosCase =>
  JSON.parse(readFileSync(new URL(`./cases/${name}`, import.meta.url), 'utf8')) as ChaosCase

/** The kinds of the invariants a saved case breaks. */
const violationsOf = async (name: string): Promise<string[]> =>
  kinds((await runCase(savedCase(name))).violations)

// Whole simulated hours each: seconds alone, more on a loaded machine.
describe('engine defects found by chaos runs', { timeout: 60_000 }, () => {
  // Invariant 3 (orphan): the sweep at cddcda3, seed 2148 (the first under the simulator that runs the
  // real adapter). g3's swap names two launches and records `attaching` with the owner's desired 2, and
  // its attach fails. At 20:19:40 the owner scales out 2 → 4: exactly owner + pairs, what desired would
  // read had the attach happened. The recovery waited for the owner's new instances to boot without reading
  // the scaling activities, and provenance took the launches for attached ones taken out since
  // (`joined-a-group`), so no run attached or terminated them. Fixed: such a swap waits for the activities
  // (`activities-unread`), read in the same run; the owner's change closes it.
  it('cleans up the launches of a failed attach when the owner scaled out by the pairs meanwhile', async () => {
    const result = await runCase(savedCase('seed-2148-owner-scale-out-equals-pairs.json'))
    expect(result.error).toBeUndefined()
    expect(kinds(result.violations)).toEqual([])
  })

  // Invariant 8 (liveness). A group of 1 r5.16xlarge with MIN_ON_DEMAND_PERCENTAGE=33.3: the replacer
  // launches (33.3% of 1 rounds to 0), attaches, then counts 2 in service (33.3% of 2 rounds to 1), keeps
  // the partner and retires the replacement; the next run launches again, every 5 minutes for hours.
  // Fixed by 1d84e6b (a replacement beside its partner does not count in the minimum's size).
  it('does not count a swap’s own replacement in the size the on-demand minimum is a share of', async () => {
    const result = await runCase(savedCase('seed-20867-minimum-counted-a-swaps-replacement.json'))
    expect(result.error).toBeUndefined()
    expect(kinds(result.violations)).toEqual([])
  })

  // Invariant 6. 18:00 launch S1 for i-1001; 18:05 swap attaches S1 and the process dies right after the
  // attach. 18:10: the planner completes the half-done swap (complete-swap retires i-1001) and, in the same
  // plan, launches S2 for i-1001 again: planGroup's `eligible` (core/plan/planner.ts) excludes partners with a
  // pending unattached replacement but not the partners of `halfDone` swaps. S2 is then
  // terminated as partner-gone: a wasted spot instance and an in-flight slot. (Also breaks
  // test/sim/crash-recovery.test.ts "completes the swap ... right after the attach".)
  // Fixed by bd9e955 (an attached replacement's partner gets no second replacement).
  it('launches no second replacement for the partner of a swap a crash left half done', async () => {
    const result = await runCase(
      chaosCase({
        groups: [group('cache', { min: 3, max: 3, desired: 3 })],
        crashes: [{ operation: 'autoscaling:AttachInstances', occurrence: 1, when: 'after' }],
      }),
    )
    expect(kinds(result.violations)).not.toContain('double-replacement')
  })

  // Invariant 5. 18:00 launch S1 for the oldest member i-1001 (grace 600 s); 18:02 its owner protects
  // i-1001 from scale-in (or from API termination); 18:10 the swap retires i-1001 anyway: a `ready`
  // pair's partner is never checked again for protection (core/plan/launches.ts checks it only when launching).
  // Fixed by bd9e955 (partners protected meanwhile are never retired).
  it.each([['protect-from-scale-in'], ['protect-from-termination']] as const)(
    'never retires a partner its owner protected (%s) after its replacement was launched',
    async (kind) => {
      const result = await runCase(
        chaosCase({
          groups: [group('web', { desired: 2, healthCheckGracePeriod: 600 })],
          owner: [{ minute: 2, group: 'web', kind, member: 0 }],
        }),
      )
      expect(kinds(result.violations)).not.toContain('untouchable-touched')
    },
  )

  // Invariants 1 and 4. 18:05 the swap attaches S1 (desired 2 -> 3) and dies before retiring i-1001;
  // 18:07 the owner sets desired 4; the next run's complete-swap retires i-1001 *with a decrement*
  // (desired 3, owner 4), taking an in-service instance while the owner's new one is still pending. The
  // decrement assumes desired still holds the swap's +1, which the owner's absolute setting replaced.
  // Fixed by bd9e955 (a swap records itself on the group, so a run cut short is finished without
  // undercutting an owner's resize).
  it('completes a half-done swap without undercutting a desired capacity the owner set meanwhile', async () => {
    const result = await runCase(
      chaosCase({
        groups: [group('web', { desired: 2, desiredSchedule: [[isoMinute(7), 4]] })],
        crashes: [crashBeforeRetiring],
      }),
    )
    expect(kinds(result.violations)).not.toContain('group-size-not-restored')
    expect(kinds(result.violations)).not.toContain('capacity-below-desired')
  })

  // Invariant 4. 18:05 the swap attaches S1 (desired 2 -> 3) and dies before retiring i-1001; 18:06 S1
  // gets its interruption warning and the handler detaches it without a decrement, so the group
  // backfills. The swap's +1 on desired (and a raised MaxSize, for a group at MaxSize) is remembered
  // only through S1's launched-for-replacing-instance tag: with S1 gone no run ever undoes it (desired
  // stays 3 for good). The handler could leave with a decrement when the partner is still in service.
  // Fixed by 9509939 (the handler leaves with a decrement when the partner was never retired).
  it('undoes the +1 of a half-done swap whose spot side is interrupted before completion', async () => {
    const result = await runCase(
      chaosCase({
        groups: [group('web', { desired: 2 })],
        crashes: [crashBeforeRetiring],
        interruptions: [{ minute: 6, group: 'web', count: 1 }],
      }),
    )
    expect(kinds(result.violations)).not.toContain('group-size-not-restored')
  })
  // Invariant 6. Two replacer invocations overlap across a schedule boundary (a launch-event run or a
  // retried one starting 100 ms before 18:05, a scheduled one at 18:05): both observe i-1001 with no
  // replacement yet and both launched one, because the client token was the instance id plus the
  // schedule period, and the two runs' `now` fell into different periods. Fixed: the token is the instance
  // id plus its replacement attempt, recorded on the instance, which both runs see alike. (The group is
  // opted in at 18:03, so the 18:05 runs are the first to act.) Since issue 12 a region's runs go through
  // its FIFO message group and never overlap: the second run now comes right after the first, in the
  // next period, and must see the first's launch.
  it('launches one replacement when a run queued across a schedule boundary follows another', async () => {
    const result = await runCase(
      chaosCase({
        groups: [group('web', { desired: 2, tags: { 'spot-enabled': 'false' } })],
        owner: [{ minute: 3, group: 'web', kind: 'opt-in', member: 0 }],
        queuedRuns: [{ minute: 5 - 100 / 60_000, delayMs: 100, secondGroup: undefined }],
      }),
    )
    expect(kinds(result.violations)).not.toContain('double-replacement')
  })
  // Invariants 1 and 4, in the swap recovery of bd9e955 (core/swap-recovery.ts). 18:05 a swap of two
  // pairs attaches S1 and S2 (desired 2 -> 4, record 4/2) and dies before retiring; 18:07 the owner sets
  // desired 3 and Auto Scaling's scale-in takes one side of a pair (a partner or a replacement). The
  // recovery counts the vanished pair as finished (expected 4 - 1 = 3 = desired, "not resized") and
  // retires the other partner with a decrement: desired 2, below the owner's 3. Fixed in two steps: each
  // step down is announced in the record naming its instance, so a scale-in that takes the other pair's
  // side is told apart; and when the scale-in takes the very partner the crashed run announced (AWS then
  // shows the same partner gone and desired one lower), the group's scaling activities show the owner's
  // change since the swap started, so the pairs are released.
  it('does not count a pair the owner’s scale-in broke up as finished', async () => {
    const result = await runCase(
      chaosCase({
        groups: [group('web', { desired: 2, desiredSchedule: [[isoMinute(7), 3]] })],
        env: { MAX_REPLACEMENTS_IN_FLIGHT: '100%' },
        crashes: [crashBeforeRetiring],
      }),
    )
    expect(kinds(result.violations)).not.toContain('capacity-below-desired')
  })

  // Invariants 1 and 4. 18:05 a swap attaches S1 (desired 2 -> 3) and dies before retiring i-1001; 18:07
  // the owner sets desired 3, the very value the swap left. The recovery cannot tell (desired equals the
  // record) and retires i-1001 with a decrement: desired 2, below the owner's 3. Telling them apart needs
  // the group's scaling activities since the swap; and even those show nothing: setting desired to the
  // value it has is a no-op in AWS (no activity, no event). Documented as a limit (docs/reliability.md);
  // the simulator models it as AWS does, so the owner's setting stays what it was.
  it('does not undercut an owner who set the desired capacity a half-done swap left', async () => {
    const result = await runCase(
      chaosCase({
        groups: [group('web', { desired: 2, desiredSchedule: [[isoMinute(7), 3]] })],
        crashes: [crashBeforeRetiring],
      }),
    )
    expect(kinds(result.violations)).not.toContain('capacity-below-desired')
  })

  // Invariant 4. 18:01:30 two replacer runs overlap (a launch event and a retried run, say) and both
  // swap the same pair: one attaches S1 (desired 2 -> 3) and dies before retiring i-1001; the other's
  // attach fails (S1 is already attached) and its cleanup (`finish` in replacer/execute.ts) deletes the
  // swap record the first one wrote. The next run finds a half-done pair without a record, takes it for
  // an owner's resize and releases the pair: desired stays 3 for good (owner 2). Fixed: a failed attach
  // leaves the record for the next run to judge. Since issue 12 the two runs cannot overlap (the region's
  // FIFO message group): the second waits for the crashed first one's redelivery and runs after it.
  it.each([
    ['a second whole-region run', undefined],
    ['a launch-event run', 'web'],
  ] as const)('restores the group when %s is queued behind a swap that crashed', async (_, secondGroup) => {
    const result = await runCase(
      chaosCase({
        groups: [group('web', { desired: 2 })],
        crashes: [crashBeforeRetiring],
        queuedRuns: [{ minute: 1.5, delayMs: 0, secondGroup }],
      }),
    )
    expect(kinds(result.violations)).not.toContain('group-size-not-restored')
  })

  // Invariant 4. 18:05 a swap attaches S1 (desired 2 -> 3, record 3/1) and dies before retiring i-1001;
  // 18:06 S1 gets its interruption warning while Auto Scaling fails every request (18:05:30-18:09:30),
  // so the handler's leave-with-decrement (9509939) fails on all three attempts; EC2 takes S1 and the
  // group backfills. The next runs find the record and no half-done pair, restore and drop it, and the
  // +1 stays for good (owner 2). Fixed: the record still counts the pair (i-1001, the retirement it
  // announced, is still in the group, so that step did not happen), desired is what the record says, and
  // the group's scaling activities show no one else's change since the swap started: the vanished pair's
  // unit is spotswap's, and the next run gives it back (a member leaves with a decrement). Until the
  // scaling activities were read the simulator's invariant 4 allowed that +1; it no longer does.
  it.each([
    ['after announcing the retirement', crashBeforeRetiring],
    [
      'right after the attach',
      { operation: 'autoscaling:AttachInstances', occurrence: 1, when: 'after' } as const,
    ],
  ])(
    'gives back the +1 of a swap whose replacement EC2 took before the handler could (crash %s)',
    async (_, crash) => {
      const result = await runCase(
        chaosCase({
          groups: [group('web', { desired: 2 })],
          crashes: [crash],
          interruptions: [{ minute: 6, group: 'web', count: 1 }],
          storms: [{ fromMinute: 5.5, toMinute: 9.5, service: 'autoscaling', rate: 1 }],
        }),
      )
      expect(kinds(result.violations)).toEqual([])
    },
  )
  // Invariant 1. 18:10 a swap attaches S2 (desired 3 -> 4) and dies before retiring i-1002; 18:14:30 S1
  // gets its interruption warning and the handler detaches it, so the group backfills (40 s to boot);
  // 18:15 the next run completes the swap and retires i-1002 while the backfill is still pending:
  // 2 in service against the owner's 3 until it boots. Either the engine retires a partner only while
  // the group has at least its desired capacity in service, or invariant 1 counts a booting backfill as
  // capacity: a decision to make. (Which spot member the warning hits depends on the seed: seed 1 picks S1.)
  // Fixed: retirements wait until the group has its desired capacity in service. (With the default
  // replace-ahead, S1 stays in service until its replacement is in; this is the detach path.)
  it('retires no partner while an interrupted member’s backfill is still booting', async () => {
    const result = await runCase(
      chaosCase({
        env: { TERMINATION_NOTIFICATION_ACTION: 'detach' },
        groups: [group('web', { desired: 3 })],
        crashes: [{ ...crashBeforeRetiring, occurrence: 2 }],
        interruptions: [{ minute: 14.5, group: 'web', count: 1 }],
      }),
    )
    expect(kinds(result.violations)).not.toContain('capacity-below-desired')
  })

  // Invariant 1. Two overlapping runs at the orphan deadline: one saw the replacements as not attachable
  // in time (a swap record still open when it observed) and terminated them; the other, observing just
  // after the record was dropped, attached them and retired their partners: both sides gone. Fixed: a
  // termination asks Auto Scaling first whether the instance was attached meanwhile. Since issue 12 the
  // case's two runs are queued one behind the other (the region's FIFO message group).
  it('never retires partners whose replacements a run just before terminated (seed 919)', async () => {
    const result = await runCase(savedCase('seed-919-overlap-at-orphan-deadline.json'))
    expect(kinds(result.violations)).toEqual([])
  })

  // Invariant 4. g3's member i-1008 gets its interruption warning; a run replaces it ahead (attach 100a,
  // desired 5 -> 6, record 5/0/i-1008 announced), but retiring i-1008 fails (ServiceUnavailable) and EC2
  // takes it two minutes after the warning; Auto Scaling backfills. The next run took i-1008's absence
  // for the announced retirement and dropped the record: desired 6 of the owner's 5 for good. Fixed:
  // desired one above what the announced step leads to says the step gave nothing back, and with no one
  // else's change in the scaling activities the unit is given back.
  it('gives back the unit of a doomed partner EC2 took after its retirement failed (seed 482)', async () => {
    const result = await runCase(savedCase('seed-482-doomed-partner-taken-after-failed-retirement.json'))
    expect(kinds(result.violations)).toEqual([])
  })

  // Invariants 1 and 4. A swap of g1 (desired 8 -> 9, record 9/1) dies before retiring its partner; the
  // owner then sets 7 and 9 again within one period, Auto Scaling keeping the pair. Everything but the
  // scaling activities is as the swap left it, so the recovery retired the partner: 8 in service of the
  // owner's 9. Fixed: the owner's change since the swap started releases the pair.
  it('releases a half-done pair when the owner scaled in and out again since the swap (seed 2630)', async () => {
    const result = await runCase(savedCase('seed-2630-owner-scales-in-and-out-mid-swap.json'))
    expect(kinds(result.violations)).toEqual([])
  })

  // Invariant 3. A swap of g1 (srcrf6p, three pairs) is open; a run plans its steps down, its close and,
  // after the close, the next swap of three launches. One partner's termination protection read is
  // throttled, so the steps and the close wait for the next run, but the new swap did not: its record
  // (srcrfo0) replaced the open one, its attach was refused (desired 13 above MaxSize 10), and the next
  // run released the open swap's pairs as another swap's and took the new swap's launches, desired
  // reading as owner + pairs, for attached ones out of the group since: never attached nor terminated.
  // Fixed: the swap that starts after a close waits whenever the close does.
  it('starts no swap over an open one whose close waits on an unread protection (seed 205)', async () => {
    const result = await runCase(savedCase('seed-205-new-swap-over-an-unclosed-one.json'))
    expect(kinds(result.violations)).toEqual([])
  })

  // Swaps of more than 20 pairs, which attach in chunks of 20 (invariants 3, 4, 6; seeds 21, 61, 70, 76,
  // 222 of 1–300 and 4188, 4220, 4317, 4321, 4409 of fresh runs). The record holds every pair before the
  // attach; when a later chunk is refused or the run dies between chunks, desired holds only the chunks
  // that joined. The next run released the attached pairs as an owner's resize (the group stayed above
  // its owner's size), and the launches that never joined, carrying the swap's id, read as attached ones
  // taken out since: replaced a second time while they ran, or left past their attach deadline. Fixed:
  // each confirmed chunk is tagged and counted in the record, the recovery reads a partial attach from
  // desired capacity and terminates the launches it proves never joined before any step; a refused
  // chunk's launches are terminated at once.
  it.each([
    ['the run dies between chunks (seed 76)', 'seed-76-crash-between-attach-chunks.json'],
    ['a later chunk is refused (seed 222)', 'seed-222-refused-later-attach-chunk.json'],
    [
      'a later chunk is refused as the owner lowers MaxSize (seed 61)',
      'seed-61-refused-chunk-and-owners-max-size.json',
    ],
    // The recovery waited for the scaling activities and never asked for the attached ones' health, so
    // the pairs waited until their deadline, run after run.
    [
      'the attached chunk waits to serve (seed 4317)',
      'seed-4317-partial-attach-waits-for-unread-health.json',
    ],
    // Launches past their attach deadline swapped and refused: left for a later run, past it.
    [
      'the attach of launches at their deadline is refused (seed 4220)',
      'seed-4220-refused-attach-past-orphan-deadline.json',
    ],
    // The run died after tagging the first chunk's members, before the record counted them: 20 confirmed
    // members read as 20 unconfirmed units none of which was in the group, so the 3 launches of the
    // second chunk were left alone past their deadline and their partners replaced again (seeds 13599,
    // 40062, 41384 and 10 more of the sweeps from 12488 and 40000). Fixed: the confirmed members count.
    [
      'the run dies before the record counts a chunk (seed 13599)',
      'seed-13599-crash-before-chunk-counted.json',
    ],
    // The run died before it raised MaxSize, every launch already named with the swap's id; the owner's
    // lower MaxSize then made the record unbelievable and it closed, and the named launches read as
    // attached ones taken out since: never cleaned up, their partners replaced again (seeds 41143, 13182,
    // 14217, 41946). Fixed: each chunk is named just before its attach.
    [
      'the run dies before the raise and the owner lowers MaxSize (seed 41143)',
      'seed-41143-crash-before-raise-owner-lowers-max-size.json',
    ],
  ])('finishes a swap of more than 20 pairs when %s', async (_, file) => {
    const result = await runCase(savedCase(file))
    expect(result.error).toBeUndefined()
    expect(kinds(result.violations)).toEqual([])
  })

  // Invariant 10 (never-served; seed 40914). An Auto Scaling error storm held every run past the deadline
  // of an attached replacement that never served; the first run after it released the pair (the owner
  // had resized) and kept the replacement as a pair for that run, so it stayed, never serving, one run
  // past its deadline. Fixed: a replacement released by a run's own actions is judged never-served in it.
  it('takes out a replacement released past its deadline, never served, in the run that releases it', async () => {
    const result = await runCase(savedCase('seed-40914-released-pair-never-served.json'))
    expect(kinds(result.violations)).toEqual([])
  })

  // Invariant 1 (seeds 13917, 40580). With no swap open, a replacement past its orphan deadline was still
  // swapped in; its never-served deadline counts from the orphan deadline, so the first run after the
  // attach took it out without a decrement, still in its first health checks: one in service fewer than
  // desired. Such a replacement is still swapped in (a long run in a large region would otherwise see
  // every launch it made past the deadline by the next run); the case holds with a released pair judged at
  // once (core/swap/never-served.ts pairedAfter).
  it('never takes out a replacement swapped in past its orphan deadline while it is still in its first checks', async () => {
    const result = await runCase(savedCase('seed-13917-attach-past-orphan-deadline.json'))
    expect(kinds(result.violations)).toEqual([])
  })

  // Invariant 1 (seed 60294): a replacement whose termination failed was swapped in by a later run past its
  // orphan deadline, and its never-served deadline counted from that deadline took it out while it was still
  // in its first checks. Fixed: the deadline counts from its swap's start (core/swap/never-served.ts).
  it('gives a replacement swapped in past its orphan deadline its full health deadline', async () => {
    const result = await runCase(savedCase('seed-60294-attach-past-orphan-deadline-then-never-served.json'))
    expect(kinds(result.violations)).toEqual([])
  })

  // Invariants 3, 6 (seed 76 shrunk): the run dies before the first AttachInstances chunk of a 21-pair
  // swap and the owner lowers MaxSize to 20 (AWS lowers desired to it). The record's `max` is now above
  // the group's, so it is refused as one that would raise MaxSize (`record-unreadable`) and closed, but its
  // launches kept the swap's id: refused as attached ones taken out since, their partners got second
  // replacements and they were never terminated. Fixed: a refused record that shows no attach (at
  // `attaching`, no member carrying its id, desired not above its owner's) unnames them as it closes.
  it('cleans up the launches of a swap whose record the owner’s MaxSize made unbelievable', async () => {
    const result = await runCase(savedCase('seed-76-shrunk-owner-lowers-max-size-before-attach.json'))
    expect(kinds(result.violations)).toEqual([])
  })

  // Invariant 10 (seeds 5288, 6332): the owner resized mid-swap, so a run released the swap's pairs (both
  // stay) and planned the never-serving replacements out, then died before taking them out. Release had
  // removed the partner's link, the only proof (the attach's `joined-group` was never written, its run
  // died) that spotswap attached them, so no later run took them out. Fixed: release records the
  // replacement as joined first.
  it('takes out a released replacement that never served after the releasing run died', async () => {
    const result = await runCase(savedCase('seed-5288-released-pair-lost-its-attach-proof.json'))
    expect(kinds(result.violations)).toEqual([])
  })

  // Invariant 7 (seed 5342 shrunk): a replacement swapped in past its orphan deadline had its pair released
  // five minutes later; release removed its swap id, so the next run counted its never-served deadline
  // from the orphan deadline and took it out in its first health checks, as it turned healthy. Fixed: the
  // released replacement keeps its swap's id (`released-swap-id`), so its deadline still counts from its
  // swap's start.
  it('keeps a released replacement’s never-served deadline from its swap’s start', async () => {
    const result = await runCase(savedCase('seed-5342-released-pair-deadline-from-orphan-deadline.json'))
    expect(kinds(result.violations)).toEqual([])
  })

  // Invariants 6 and 9, launches EC2 tags with no launch template (as moto's CreateFleet). Seed 5034
  // shrunk: a spot member's move to a cheaper pool came back unverifiable; its partner was held from
  // replacement but not from moving, so every run moved it again, each launch left running. Seed 5832
  // shrunk: the run that retired a swap's partner took the budget as a share of the group with the
  // replacement beside it (25% of 5 is 2) and launched a second unverifiable instance for a group of 4.
  // Fixed: held partners do not move; the budget is a share of the group's own size.
  it('moves no partner an unverifiable launch holds (seed 5034)', async () => {
    expect(await violationsOf('seed-5034-unverified-launch-partner-moved-again.json')).toEqual([])
  })
  it('keeps unverifiable launches within the budget of the group’s own size (seed 5832)', async () => {
    expect(await violationsOf('seed-5832-budget-counted-a-swaps-replacement.json')).toEqual([])
  })

  // Invariant 4 (seed 5226): a swap of 23 pairs attaches its first chunk of 20 (desired 35 -> 55) and the
  // run dies before its record says so (still `attaching`, 23 pairs). A replacement of the chunk is
  // interrupted while its partner serves: the handler saw desired 55, not the record's 58, and left without
  // a decrement, so the group backfilled and kept the pair's unit. Fixed: the handler reads the group's
  // scaling activities while a record shows a partial attach, and with no one else's change since the swap
  // started leaves with the decrement (the record stays at its attach, one pair fewer).
  it('gives back the unit of an interrupted replacement of a partly attached swap', async () => {
    const result = await runCase(savedCase('seed-5226-interrupted-replacement-of-a-partial-attach.json'))
    expect(result.error).toBeUndefined()
    expect(kinds(result.violations)).toEqual([])
  })
  // Invariant 3 (orphan), seed 59 shrunk: a swap records `attaching` (its MAC on the value), its attach
  // fails with a passing error (none joined), and the owner opts the group out before the next run, whose
  // record would close as `attach-not-done` in a managed group. The stray cleanup read
  // the opted-out group's swap record without verifying it: with its MAC the value parsed as no record,
  // so the launches carrying the swap's id read as attached once and taken out (`joined-a-group`) and were
  // left running. Fixed: the stray cleanup verifies the groups' markers as it does the partners'.
  it('terminates the launches of a failed attach once the owner opted the group out', async () => {
    const result = await runCase(savedCase('seed-59-opted-out-during-a-failed-attach.json'))
    expect(result.error).toBeUndefined()
    expect(kinds(result.violations)).toEqual([])
  })
  // Invariant 8 (liveness), fresh seed 11023 (not shrunk: the shrinker finds the open unmanaged-usage
  // defect first): a regional RI ends at 18:15:33, between two reads of the account's commitments (cached
  // 15 minutes), and the runs until the next read kept g5's members as commitment-covered by it. Fixed: the
  // cached listing drops an RI or a Capacity Reservation from its end on.
  it('stops keeping members for an RI that ended while the commitments were cached', async () => {
    const result = await runCase(savedCase('seed-11023-ri-expired-while-cached.json'))
    expect(result.error).toBeUndefined()
    expect(kinds(result.violations)).toEqual([])
  })

  // Invariant 8 (liveness), fresh seed 11714 (not shrunk): at 18:05 the owner detaches g2's member in
  // eu-west-1c, which runs on in the open Capacity Reservation's zone and type. The cached region listing
  // still names it with g2's tag; taken as an instance that left since the listing (terminated), it was
  // counted neither way, for good, and two members stayed kept as covered by a reservation it filled.
  // Fixed: the instances the listing and the groups disagree on are read by id (listing-doubts.ts).
  it('lets a detached member still running fill the Capacity Reservation it matches', async () => {
    const result = await runCase(savedCase('seed-11714-detached-member-in-capacity-reservation.json'))
    expect(result.error).toBeUndefined()
    expect(kinds(result.violations)).toEqual([])
  })
  // Invariant 8 (liveness), fresh seed 11632 (not shrunk): at 19:06 g2 scales out; its new on-demand
  // members, the region's newest, take the regional RI, but g1's lane planned from a listing cached
  // before them and kept two of its members as covered for 12 minutes. Fixed as seed 11714: another
  // lane's in-service members the listing never saw are read by id.
  it("gives the RI to another lane's members launched after the listing was cached", async () => {
    const result = await runCase(savedCase('seed-11632-other-lanes-scale-out-after-listing.json'))
    expect(result.error).toBeUndefined()
    expect(kinds(result.violations)).toEqual([])
  })
  // Invariant 8 (liveness), fresh seed 40728 (not shrunk): g1's only on-demand member left, in us-west-2c,
  // was kept for an open Capacity Reservation (c5.xlarge, ×1) starting at 18:12:30. At 18:10:04 someone
  // launched a matching on-demand instance outside the group; both ran at the start, so either could hold
  // the one slot and the one spotswap leaves alone takes it: keeping the member saved nothing. g1's lane
  // planned from a region listing read before that launch and kept the member until the cache expired
  // (18:24). Fixed: a listing read before an open reservation became active is read again.
  it('reads the region again once a reservation starts, and gives its slot to an instance launched before', async () => {
    const result = await runCase(savedCase('seed-40728-launch-took-reservation-at-its-start.json'))
    expect(result.error).toBeUndefined()
    expect(kinds(result.violations)).toEqual([])
  })

  // Invariant 4, fresh seed 197 (not shrunk): at 18:00 the owner lowers g3 (an ECS group, managed
  // termination protection) from 5 to 1 while ECS protects all 5 members. A drain swap then drained two
  // partners; once ECS lifted one's protection Auto Scaling scaled it in first, the retirement failed with
  // "already terminating", and the swap's unit stayed held: desired 2 for the owner's 1. Fixed: a managed
  // group with more members than desired starts nothing (`ecs-scale-in-pending`) until the scale-in is done.
  it('starts no drain swap while an owner’s scale-in waits for ECS to lift its protections', async () => {
    const result = await runCase(savedCase('seed-197-partner-scaled-in-once-ecs-lifted-protection.json'))
    expect(result.error).toBeUndefined()
    expect(kinds(result.violations)).toEqual([])
  })

  // Invariant 4, fresh seed 41479 (not shrunk): g1's owner lowered MaxSize to 29; a swap raised it to 56 and
  // the owner set desired 33 while the raise stood. The swap closed as owner-resized, and MaxSize could go
  // back no lower than desired: 33, with the record dropped. The next swap took 33 for the owner's MaxSize,
  // so when the owner then set desired 3, its close put back 33, not 29. Fixed: a close that cannot put
  // MaxSize back whole leaves the rest held in a record of no pairs (core/swap/closing.ts heldRaise),
  // which the next swap's record carries on and a later close puts back once desired allows.
  it('puts the rest of a raise back once the owner lowers a desired set while it stood', async () => {
    const result = await runCase(savedCase('seed-41479-held-raise-after-owner-desired-above-max.json'))
    expect(result.error).toBeUndefined()
    expect(kinds(result.violations)).toEqual([])
  })
  // Invariant 9, seed 5295 of the sweep on 09a8d9b (not shrunk): a run terminated a partial attach's
  // launch (its recovery's own termination) and launched in the room that freed, unmarked; the
  // termination failed, and two launches stood outside the group against a budget of one. Fixed: the
  // recovery's terminations free room as the plan's do, and a launch in it waits for them.
  it('makes no launch in the room of a partial attach’s termination that failed', async () => {
    const result = await runCase(savedCase('seed-5295-launch-beside-a-failed-partial-termination.json'))
    expect(kinds(result.violations)).toEqual([])
  })

  // Invariant 9, seed 8971 of the same sweep (not shrunk): while a swap was open, a launch outside the
  // group carrying its id was refused as one that joined a group and left it, so the budget did not count
  // it, and a run launched beside it. It was the swap's own, never attached. Fixed: while the swap is open,
  // such a launch takes its room in the budget until the swap judges it.
  it('counts a launch the open swap may own against the in-flight budget', async () => {
    const result = await runCase(savedCase('seed-8971-launch-beside-a-launch-the-open-swap-may-own.json'))
    expect(kinds(result.violations)).toEqual([])
  })

  // Invariant 8, seed 4905 of the sweep on the fan-out lease (not shrunk): ECS managed scaling's
  // target tracking, its scale-in alarm in ALARM, took back every swap's increment within a minute; each
  // swap was released (owner-resized) and the same partner replaced again at once, never converting and
  // scaling in a member each time. Fixed: a partner whose swap the owner's scale-in undid backs off.
  it('backs off a partner whose swap an ECS scale-in undid, rather than swapping it again at once', async () => {
    const result = await runCase(savedCase('seed-4905-ecs-scale-in-undoes-each-swap.json'))
    expect(kinds(result.violations)).toEqual([])
  })

  // Invariant 4, seed 1129 of the sweep on the fan-out lease (not shrunk): an attached replacement was
  // interrupted and left; its partner was replaced again while the swap was open, so the partner's record
  // named the new launch, the leaving member carrying the swap's id looked planted, and the swap's unit
  // was never given back. Fixed: an instance carrying the open swap's id holds its partner.
  it('gives no partner a new replacement while a member carrying the open swap’s id names it', async () => {
    const result = await runCase(savedCase('seed-1129-partner-replaced-beside-a-leaving-swap-member.json'))
    expect(kinds(result.violations)).toEqual([])
  })

  // Invariant 4, seed 2468 of the same sweep (not shrunk), a fault of the invariant: one crashed run closed
  // a swap and opened one of 21 pairs whose last chunk never attached. The old swap's 20 pairs hid the new
  // swap's raise from the allowance, which now also knows a failed step's raise by MaxSize itself.
  it('allows the raise of a swap opened in the failed run that closed the one before', async () => {
    const result = await runCase(savedCase('seed-2468-raise-after-a-close-in-one-failed-run.json'))
    expect(kinds(result.violations)).toEqual([])
  })

  // Invariant 4, seed 22429 of the fresh sweep on the fan-out lease (not shrunk): 20 of 23 launches joined
  // a swap of 20 pairs and the record was left holding 20 pairs, not 40. Desired capacity stood 20 above
  // it, the next run read that as the owner's resize, and the close held MaxSize naming desired as the
  // owner's figure. Fixed: a join's record keeps the pairs the swap held before it.
  it('keeps the pairs held before a join in the record when only some of the join joined', async () => {
    const result = await runCase(savedCase('seed-22429-join-record-drops-earlier-pairs.json'))
    expect(kinds(result.violations)).toEqual([])
  })

  // Invariants 1 and 7, seed 23356 of the same fresh sweep (not shrunk): the owner raised desired during a
  // join; the plan made with the health read released the joined pairs and judged the five replacements
  // never-served, "not registered" with a target group the read had not asked about them, and took them
  // out while they served. Fixed: an instance the health read did not ask about is unread, not unregistered.
  it('takes out no replacement whose load-balancer health the run did not read', async () => {
    const result = await runCase(savedCase('seed-23356-released-replacements-health-never-asked.json'))
    expect(kinds(result.violations)).toEqual([])
  })

  // Invariant 4. Found by the bench's ecs-cluster scenario at ten times the fault sweep's worst
  // level (3% of requests crash, 5% fail), not by a chaos seed. ECS managed scaling sets desired capacity
  // to 18 while a swap has raised MaxSize from 16 to 18; the close keeps MaxSize at 18 and leaves a held
  // raise (max=16 raised=18). At 19:29:59 the next swap inherits it (its record says max=16 raised=20)
  // and the run crashes after writing the record, before raising MaxSize. The next run closes that swap
  // (attach-not-done): MaxSize is not the swap's raise (20), so it is left at 18, and the record, the only
  // trace of the owner's 16, is dropped. The swap after records max=18, and MaxSize stays 2 above the
  // owner's for over an hour. Fixed: a swap that raises further from a held raise records the value it
  // held (`held`), and its close holds that value again when its own raise never happened.
  it('keeps the owner’s MaxSize when a swap that inherited a held raise crashes before raising', async () => {
    const catalog = embeddedCatalog()
    const scenario = benchScenario('ecs-cluster', catalog, false)
    const run = await simulateRun(
      { ...scenario, durationHours: 2, faults: { ...scenario.faults, crashRate: 0.03, apiErrorRate: 0.05 } },
      { catalog },
    )
    expect(kinds(run.report.violations)).not.toContain('group-size-not-restored')
  })
})

// Invariant 8 (seed 161): a group of 24 p3.2xlarge keeping half on-demand, two partners waiting for
// replacements that never serve. The planner no longer launches for members the minimum keeps while those
// partners wait (it had launched two, to terminate them as not-needed later), so it says
// `on-demand-minimum` of exactly the twelve that stay, one of them protected from termination; the
// invariant had counted that member twice (once said kept, once protected).
describe('the on-demand minimum beside waiting partners', () => {
  it('says kept of the members that stay, a protected one counted once (seed 161)', async () => {
    expect(await violationsOf('seed-161-waiting-partners-and-a-protected-kept-member.json')).toEqual([])
  })
})
