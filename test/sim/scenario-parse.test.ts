import { describe, expect, it } from 'vitest'
import { ScenarioError } from '../../tools/sim/scenario/check.ts'
import { group, parse, rawScenario, START_MS } from './support.ts'

const problemsOf = (raw: unknown) => {
  try {
    parse(raw)
  } catch (error) {
    if (error instanceof ScenarioError) return error.problems
    throw error
  }
  throw new Error('expected the scenario to be rejected')
}

describe('parseScenario', () => {
  it('reads a scenario with the documented defaults filled in', () => {
    const scenario = parse(
      rawScenario([
        group('web', {
          desiredSchedule: [
            ['2022-05-31T19:00:00Z', 5],
            ['2022-05-31T18:30:00Z', 4],
          ],
        }),
      ]),
    )
    expect(scenario).toMatchObject({
      name: 'test',
      seed: 7,
      start: START_MS,
      durationHours: 2,
      scheduleMinutes: 5,
    })
    expect(scenario.faults).toEqual({ apiErrorRate: 0, throttle: true, crashRate: 0 })
    expect(scenario.regions[0]?.groups[0]).toMatchObject({
      healthCheckGracePeriod: 300,
      launch: 'template',
      terminationHook: false,
      protectedFromScaleIn: 0,
      terminationProtected: 0,
      desiredSchedule: [
        [START_MS + 30 * 60_000, 4],
        [START_MS + 60 * 60_000, 5],
      ],
      loadBalancers: [],
      unhealthyReplacementFraction: 0,
    })
  })

  it("gives each kind of load balancer AWS's defaults for what a scenario leaves out", () => {
    const scenario = parse(
      rawScenario([
        group('web', {
          loadBalancers: [{ type: 'target-group' }, { type: 'classic', healthyThreshold: 3 }],
          unhealthyReplacementFraction: 0.25,
        }),
      ]),
    )
    expect(scenario.regions[0]?.groups[0]).toMatchObject({
      loadBalancers: [
        {
          type: 'target-group',
          healthCheckIntervalSeconds: 30,
          healthyThreshold: 5,
          deregistrationDelaySeconds: 300,
        },
        {
          type: 'classic',
          healthCheckIntervalSeconds: 30,
          healthyThreshold: 3,
          deregistrationDelaySeconds: 300,
        },
      ],
      unhealthyReplacementFraction: 0.25,
    })
  })

  it.each([
    [
      'a missing seed',
      rawScenario([group('web')], { seed: undefined }),
      '$.seed',
      'an integer from 0 to 4294967295',
      'nothing',
    ],
    [
      'a start without a zone',
      rawScenario([group('web')], { start: '2022-05-31 18:00' }),
      '$.start',
      'an ISO 8601 time with a zone, e.g. "2022-05-31T18:00:00Z"',
      '"2022-05-31 18:00"',
    ],
    [
      'a misspelt field',
      rawScenario([group('web')], { sead: 1 }),
      '$.sead',
      expect.stringContaining('no such field'),
      '"sead"',
    ],
    [
      'a numeric environment value',
      rawScenario([group('web')], { env: { MIN_ON_DEMAND_NUMBER: 1 } }),
      '$.env.MIN_ON_DEMAND_NUMBER',
      'a string (environment variables are strings)',
      '1',
    ],
    [
      'an unknown instance type',
      rawScenario([group('web', { instanceType: 'm5.huge' })]),
      '$.regions["us-east-1"].groups[0].instanceType',
      'an instance type of the embedded catalogue',
      '"m5.huge"',
    ],
    [
      'desired below min',
      rawScenario([group('web', { min: 4, desired: 2 })]),
      '$.regions["us-east-1"].groups[0].desired',
      'an integer from 4 to 6',
      '2',
    ],
    [
      'a zone of another region',
      rawScenario([group('web')], {}, { zones: ['eu-west-1a'] }),
      '$.regions["us-east-1"].zones[0]',
      expect.stringContaining('zone of us-east-1'),
      '"eu-west-1a"',
    ],
    [
      'a price for a zone outside the region',
      rawScenario([group('web')], {}, { spotPrices: { 'm5.large': { 'us-east-1c': 0.1 } } }),
      '$.regions["us-east-1"].spotPrices["m5.large"]["us-east-1c"]',
      expect.stringContaining("one of the region's zones"),
      '"us-east-1c"',
    ],
    [
      'an unknown trace',
      rawScenario([group('web')], {}, { capacity: { 'm5.large/us-east-1b': { trace: 'no/such/trace' } } }),
      '$.regions["us-east-1"].capacity["m5.large/us-east-1b"].trace',
      'an embedded trace name or a file in the spot-traces JSON format',
      '"no/such/trace"',
    ],
    [
      'a load balancer of an unknown type',
      rawScenario([group('web', { loadBalancers: [{ type: 'alb' }] })]),
      '$.regions["us-east-1"].groups[0].loadBalancers[0].type',
      'one of "target-group", "classic"',
      '"alb"',
    ],
    [
      'a health check interval AWS does not allow',
      rawScenario([group('web', { loadBalancers: [{ type: 'classic', healthCheckIntervalSeconds: 1 }] })]),
      '$.regions["us-east-1"].groups[0].loadBalancers[0].healthCheckIntervalSeconds',
      'an integer from 5 to 300',
      '1',
    ],
    [
      'a share of broken replacements above 1',
      rawScenario([group('web', { unhealthyReplacementFraction: 1.5 })]),
      '$.regions["us-east-1"].groups[0].unhealthyReplacementFraction',
      'a number from 0 to 1',
      '1.5',
    ],
    [
      'a fault rate above 1',
      rawScenario([group('web')], { faults: { apiErrorRate: 1.5 } }),
      '$.faults.apiErrorRate',
      'a number from 0 to 1',
      '1.5',
    ],
    [
      'an interruption of an unknown group',
      rawScenario([group('web')], {
        interruptions: [{ at: '2022-05-31T19:00:00Z', group: 'api', count: 1 }],
      }),
      '$.interruptions[0].group',
      'the name of a group of the scenario',
      '"api"',
    ],
  ])('rejects %s with its path, what was expected and what was found', (_, raw, path, expected, got) => {
    expect(problemsOf(raw)).toContainEqual({ path, expected, got })
  })

  it('reports every problem at once, and the message lists them', () => {
    const raw = rawScenario([group('web'), group('web'), group('bad', { max: -1 })], { durationHours: 0 })
    const problems = problemsOf(raw)
    expect(problems.map((p) => p.path)).toEqual(
      expect.arrayContaining([
        '$.durationHours',
        '$.regions["us-east-1"].groups[2].max',
        '$.regions["us-east-1"].groups[1].name',
      ]),
    )
    expect(() => parse(raw)).toThrow(/\$\.durationHours: expected a number above 0 up to 8784, got 0/)
  })

  it('rejects what is not an object at all', () => {
    expect(problemsOf([])).toEqual([{ path: '$', expected: 'an object', got: 'an array of 0' }])
  })
})
