import { describe, expect, it } from 'vitest'
import { group, parse, problemsOf, rawScenario, START, START_MS, ZONES } from './support.ts'

/** An embedded capacity trace. */
const TRACE = 'preemption/1-node/aws-04-19-2023/us-east-1b_intel_64'

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

  it.each([
    [
      'max below min',
      rawScenario([group('web', { min: 4, max: 2 })]),
      '$.regions["us-east-1"].groups[0].max',
      'an integer of at least min (4)',
      '2',
    ],
    [
      'more protected instances than desired',
      rawScenario([group('web', { desired: 3, protectedFromScaleIn: 4 })]),
      '$.regions["us-east-1"].groups[0].protectedFromScaleIn',
      'an integer from 0 to 3',
      '4',
    ],
    [
      'a scheduled desired above max',
      rawScenario([group('web', { desiredSchedule: [['2022-05-31T19:00:00Z', 7]] })]),
      '$.regions["us-east-1"].groups[0].desiredSchedule[0][1]',
      'an integer from 0 to 6',
      '7',
    ],
    [
      'a date that does not exist',
      rawScenario([group('web')], { start: '2022-13-45T18:00:00Z' }),
      '$.start',
      'an existing date and time',
      '"2022-13-45T18:00:00Z"',
    ],
    [
      'a trace started past its end',
      rawScenario(
        [group('web')],
        {},
        { capacity: { 'm5.large/us-east-1b': { trace: TRACE, startIndex: 1e6 } } },
      ),
      '$.regions["us-east-1"].capacity["m5.large/us-east-1b"].startIndex',
      expect.stringMatching(/^an integer from 0 to \d+$/),
      '1000000',
    ],
    [
      'capacity for a type outside the catalogue',
      rawScenario([group('web')], {}, { capacity: { 'm5.huge/us-east-1b': { available: false } } }),
      '$.regions["us-east-1"].capacity["m5.huge/us-east-1b"]',
      expect.stringContaining('with a known type'),
      '"m5.huge/us-east-1b"',
    ],
    [
      'a price for a type outside the catalogue',
      rawScenario([group('web')], {}, { spotPrices: { 'm5.huge': { 'us-east-1a': 0.1 } } }),
      '$.regions["us-east-1"].spotPrices["m5.huge"]',
      'an instance type of the embedded catalogue',
      '"m5.huge"',
    ],
    [
      'a group name used twice',
      rawScenario([group('web'), group('web')]),
      '$.regions["us-east-1"].groups[1].name',
      'a group name unique in the scenario',
      '"web"',
    ],
  ])('rejects %s, a rule between fields the schema cannot state', (_, raw, path, expected, got) => {
    expect(problemsOf(raw)).toContainEqual({ path, expected, got })
  })

  it.each([
    [
      'no region',
      rawScenario([], { regions: {} }),
      '$.regions',
      'an object of at least one region',
      'an object',
    ],
    [
      'a region name that is not one',
      rawScenario([], { regions: { 'US East': { zones: ZONES, groups: [] } } }),
      '$.regions["US East"]',
      'a region name such as "us-east-1"',
      '"US East"',
    ],
    [
      'a zone listed twice',
      rawScenario([group('web')], {}, { zones: ['us-east-1a', 'us-east-1a'] }),
      '$.regions["us-east-1"].zones[1]',
      'each item once',
      '"us-east-1a"',
    ],
    [
      'a pool that is not type/zone',
      rawScenario([group('web')], {}, { capacity: { 'm5.large': { available: false } } }),
      '$.regions["us-east-1"].capacity["m5.large"]',
      '"<instance type>/<zone>"',
      '"m5.large"',
    ],
    [
      'an unavailable pool that also has a trace',
      rawScenario(
        [group('web')],
        {},
        { capacity: { 'm5.large/us-east-1b': { available: false, trace: TRACE } } },
      ),
      '$.regions["us-east-1"].capacity["m5.large/us-east-1b"].trace',
      'no such field (known: available)',
      '"trace"',
    ],
    [
      'a pool said to be available',
      rawScenario([group('web')], {}, { capacity: { 'm5.large/us-east-1b': { available: true } } }),
      '$.regions["us-east-1"].capacity["m5.large/us-east-1b"].available',
      'false (a pool with a trace is available when the trace says so)',
      'true',
    ],
    [
      'a price step without its price',
      rawScenario(
        [group('web')],
        {},
        { spotPrices: { 'm5.large': { 'us-east-1a': [['2022-05-31T19:00:00Z']] } } },
      ),
      '$.regions["us-east-1"].spotPrices["m5.large"]["us-east-1a"][0]',
      '[<ISO time>, <price>]',
      'an array of 1',
    ],
    [
      'a price as a string',
      rawScenario([group('web')], {}, { spotPrices: { 'm5.large': { 'us-east-1a': '0.1' } } }),
      '$.regions["us-east-1"].spotPrices["m5.large"]["us-east-1a"]',
      'a price in USD/hour or [[<ISO time>, <price>], ...]',
      '"0.1"',
    ],
    [
      'a group name with a colon',
      rawScenario([group('web:blue')]),
      '$.regions["us-east-1"].groups[0].name',
      "a group name of 1 to 255 characters without ':'",
      '"web:blue"',
    ],
    [
      'a missing instance type',
      rawScenario([group('web', { instanceType: undefined })]),
      '$.regions["us-east-1"].groups[0].instanceType',
      'a non-empty string',
      'nothing',
    ],
    [
      'a fractional size',
      rawScenario([group('web', { desired: 2.5 })]),
      '$.regions["us-east-1"].groups[0].desired',
      'an integer from 0 to 10000',
      '2.5',
    ],
    [
      'a tag key too long for Auto Scaling',
      rawScenario([group('web', { tags: { ['k'.repeat(129)]: 'v' } })]),
      `$.regions["us-east-1"].groups[0].tags.${'k'.repeat(129)}`,
      'a tag key of 1 to 128 characters',
      expect.stringMatching(/^"k+\.\.\.$/),
    ],
    [
      'a scheduled desired above any group size',
      rawScenario([group('web', { desiredSchedule: [['2022-05-31T19:00:00Z', 20_000]] })]),
      '$.regions["us-east-1"].groups[0].desiredSchedule[0][1]',
      'an integer from 0 to 10000',
      '20000',
    ],
    [
      'more load balancers than Auto Scaling allows',
      rawScenario([group('web', { loadBalancers: Array(51).fill({ type: 'classic' }) })]),
      '$.regions["us-east-1"].groups[0].loadBalancers',
      'an array of at most 50',
      'an array of 51',
    ],
    [
      'an unknown suspended process',
      rawScenario([group('web', { suspendedProcesses: ['Launch', 'Lunch'] })]),
      '$.regions["us-east-1"].groups[0].suspendedProcesses[1]',
      expect.stringMatching(/^one of "Launch", "Terminate", /),
      '"Lunch"',
    ],
    [
      'a suspended process listed twice',
      rawScenario([group('web', { suspendedProcesses: ['Launch', 'Launch'] })]),
      '$.regions["us-east-1"].groups[0].suspendedProcesses[1]',
      'each item once',
      '"Launch"',
    ],
    [
      'a warm pool without its size',
      rawScenario([group('web', { warmPool: {} })]),
      '$.regions["us-east-1"].groups[0].warmPool.minSize',
      'an integer from 0 to 100',
      'nothing',
    ],
    [
      'an interruption of no instance',
      rawScenario([group('web')], { interruptions: [{ at: START, group: 'web', count: 0 }] }),
      '$.interruptions[0].count',
      'an integer from 1 to 10000',
      '0',
    ],
  ])('rejects %s, by the schema', (_, raw, path, expected, got) => {
    expect(problemsOf(raw)).toContainEqual({ path, expected, got })
  })

  it('reports every way a file breaks the schema at once, and the message lists them', () => {
    const raw = rawScenario([group('web'), group('bad', { max: -1 })], { durationHours: 0, sead: 1 })
    const problems = problemsOf(raw)
    expect(problems.map((p) => p.path).sort()).toEqual([
      '$.durationHours',
      '$.regions["us-east-1"].groups[1].max',
      '$.sead',
    ])
    expect(() => parse(raw)).toThrow(/\$\.durationHours: expected a number above 0 up to 8784, got 0/)
  })

  it('reports one problem for a value that breaks two rules of one field', () => {
    const raw = rawScenario([group('web')], { faults: { apiErrorRate: '2' }, scheduleMinutes: 2000.5 })
    expect(problemsOf(raw)).toEqual([
      { path: '$.scheduleMinutes', expected: 'an integer from 1 to 1440', got: '2000.5' },
      { path: '$.faults.apiErrorRate', expected: 'a number from 0 to 1', got: '"2"' },
    ])
  })

  it('reports every rule between fields at once, once the file fits the schema', () => {
    const raw = rawScenario([
      group('web'),
      group('web', { min: 5 }),
      group('gpu', { instanceType: 'm5.huge' }),
    ])
    expect(problemsOf(raw).map((p) => p.path)).toEqual([
      '$.regions["us-east-1"].groups[1].desired',
      '$.regions["us-east-1"].groups[2].instanceType',
      '$.regions["us-east-1"].groups[1].name',
    ])
  })

  it('rejects what is not an object at all', () => {
    expect(problemsOf([])).toEqual([{ path: '$', expected: 'an object', got: 'an array of 0' }])
  })
})
