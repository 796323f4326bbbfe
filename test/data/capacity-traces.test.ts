import { describe, expect, it } from 'vitest'
import { embeddedTrace, embeddedTraceNames } from '../../tools/data/capacity-traces.ts'

const trace = (name: string) => {
  const found = embeddedTrace(name)
  if (!found) throw new Error(`${name} missing from the embedded traces`)
  return found
}

const count = (data: readonly number[], value: number) => data.filter((n) => n === value).length

describe('embeddedTrace', () => {
  // Lengths, zero counts and maxima as measured on the skypilot-org/spot-traces source files.
  it.each([
    [
      'availability/1-node/aws-02-15-2023/us-east-1a_v100_1',
      195,
      'p3.2xlarge',
      'us-east-1a',
      20_158,
      16_798,
      1,
    ],
    [
      'preemption/1-node/aws-04-19-2023/us-east-1b_intel_64',
      34,
      'r5.16xlarge',
      'us-east-1b',
      16_090,
      2_405,
      1,
    ],
    [
      'availability/16-node/aws-08-27-2023/us-east-2b_v100_1',
      300,
      'p3.2xlarge',
      'us-east-2b',
      3_247,
      1_208,
      16,
    ],
    ['preemption/4-node/aws-08-03-2023/us-east-1f_v100_1', 300, 'p3.2xlarge', 'us-east-1f', 3_664, 2_262, 4],
    ['availability/1-node/aws-10-26-2022/us-west-2a_k80_8', 600, 'p2.8xlarge', 'us-west-2a', 3_895, 2_624, 1],
  ])('decodes %s', (name, gapSeconds, instanceType, zone, length, zeros, max) => {
    const decoded = trace(name)
    expect(decoded).toMatchObject({ gapSeconds, instanceType, zone })
    expect(decoded.data).toHaveLength(length)
    expect(count(decoded.data, 0)).toBe(zeros)
    expect(Math.max(...decoded.data)).toBe(max)
  })

  it('keeps the zeros exactly where the source has them', () => {
    const { data } = trace('preemption/1-node/aws-04-19-2023/us-east-1b_intel_64')
    expect(data.slice(0, 2)).toEqual([0, 1])
    expect(data.slice(35, 50)).toEqual([1, ...Array(13).fill(0), 1])
    expect(trace('availability/16-node/aws-08-27-2023/us-east-2b_v100_1').data.slice(0, 8)).toEqual([
      0, 0, 0, 3, 3, 3, 3, 7,
    ])
  })

  it('accepts the source file name with its .json extension', () => {
    expect(embeddedTrace('availability/1-node/aws-10-26-2022/us-west-2b_k80_1.json')?.instanceType).toBe(
      'p2.xlarge',
    )
  })

  it.each(['nope', 'constructor', 'preemption/1-node/gcp-04-30-2023/us-central1-a_c3-88'])(
    'returns undefined for the unknown or non-AWS trace %s',
    (name) => {
      expect(embeddedTrace(name)).toBeUndefined()
    },
  )

  it('hands out a fresh array each time, so callers cannot corrupt the next run', () => {
    const name = 'availability/1-node/aws-10-26-2022/us-west-2a_v100_8'
    trace(name).data.fill(9)
    expect(trace(name).data).not.toContain(9)
  })
})

describe('embeddedTraceNames', () => {
  it('lists the 30 AWS traces, sorted, each mapped to a known instance type', () => {
    const names = embeddedTraceNames()
    expect(names).toHaveLength(30)
    expect(names).toEqual([...names].sort())
    const types = new Set(names.map((name) => trace(name).instanceType))
    expect([...types].sort()).toEqual(['p2.8xlarge', 'p2.xlarge', 'p3.16xlarge', 'p3.2xlarge', 'r5.16xlarge'])
  })
})
