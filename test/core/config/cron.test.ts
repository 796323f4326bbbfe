import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  type CronSchedule,
  cronAllowsAction,
  insideSchedule,
  isTimeZone,
  localHourAndDay,
  parseCronSchedule,
} from '../../../lambdas/core/config/cron.ts'

const cron = (raw: string): CronSchedule => {
  const schedule = parseCronSchedule(raw)
  if (!schedule) throw new Error(`test schedule ${raw} does not parse`)
  return schedule
}
const at = (iso: string): Date => new Date(iso)
const sorted = (values: ReadonlySet<number>): number[] => [...values].sort((a, b) => a - b)
const WORKING_HOURS = cron('9-18 1-5')

describe('parseCronSchedule', () => {
  it.each([
    ['* *', 24, [0, 1, 2, 3, 4, 5, 6]],
    ['9-18 1-5', 10, [1, 2, 3, 4, 5]],
    ['0,12 0', 2, [0]],
    ['0-5,22-23 6,0', 8, [0, 6]],
    ['09-18 01-05', 10, [1, 2, 3, 4, 5]],
    ['  9-18 \t 1-5  ', 10, [1, 2, 3, 4, 5]],
    ['23 3-3', 1, [3]],
  ])('reads %j as %i hours on days %j', (raw, hourCount, days) => {
    const schedule = cron(raw)
    expect(schedule.hours.size).toBe(hourCount)
    expect(sorted(schedule.daysOfWeek)).toEqual(days)
    expect(schedule.raw).toBe(raw.trim())
  })

  it('reads hour ranges inclusively: 9-18 ends at 18:59', () => {
    expect(sorted(cron('9-18 *').hours)).toEqual([9, 10, 11, 12, 13, 14, 15, 16, 17, 18])
  })

  it.each([
    ['* 7', [0]],
    ['* 0,7', [0]],
    ['* 5-7', [0, 5, 6]],
    ['* 0-7', [0, 1, 2, 3, 4, 5, 6]],
  ])('accepts 7 as Sunday, as cron does: %j', (raw, days) => {
    const schedule = cron(raw)
    expect(sorted(schedule.daysOfWeek)).toEqual(days)
    expect(schedule.daysOfWeek.has(7)).toBe(false)
  })

  it.each([
    ['empty', ''],
    ['whitespace only', '   '],
    ['one field', '9-18'],
    ['three fields (five-field cron is not this format)', '0 9-18 1-5'],
    ['hour 24', '24 *'],
    ['day 8', '* 8'],
    ['a reversed range', '18-9 *'],
    ['a negative hour', '-1 *'],
    ['a step', '*/2 *'],
    ['day names', '9-18 mon-fri'],
    ['letters', 'a b'],
    ['an empty list item', '1,,2 *'],
    ['an open range', '9- *'],
    ['a star inside a list', '*,1 *'],
    ['three-digit numbers', '009 *'],
    ['full-width digits', '９ *'],
    ['a decimal', '9.5 *'],
    ['more than 200 characters', `${'1,'.repeat(120)}1 *`],
  ])('rejects %s', (_label, raw) => {
    expect(parseCronSchedule(raw)).toBeUndefined()
  })
})

describe('localHourAndDay', () => {
  it.each([
    ['2022-05-30T00:30:00Z', 'UTC', 0, 1],
    ['2022-05-30T23:59:59Z', 'UTC', 23, 1],
    ['2022-05-29T23:30:00Z', 'Europe/Berlin', 1, 1],
    ['2022-05-28T02:00:00Z', 'America/New_York', 22, 5],
    ['2022-05-29T12:00:00Z', 'Asia/Kolkata', 17, 0],
  ])('reads %s in %s as hour %i of weekday %i', (iso, zone, hour, day) => {
    expect(localHourAndDay(at(iso), zone)).toEqual({ hour, day })
  })
})

describe('localHourAndDay in UTC', () => {
  it('reads the hour and weekday as the runtime’s formatter does, at any instant', () => {
    const formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: 'UTC',
      hour: 'numeric',
      hourCycle: 'h23',
      weekday: 'short',
    })
    const weekdays = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }),
        (now) => {
          const parts = formatter.formatToParts(now)
          expect(localHourAndDay(now, 'UTC')).toEqual({
            hour: Number(parts.find((p) => p.type === 'hour')?.value),
            day: weekdays.indexOf(parts.find((p) => p.type === 'weekday')?.value ?? ''),
          })
        },
      ),
    )
  })
})

describe('isTimeZone', () => {
  it('knows IANA zones and UTC, and still refuses an unknown zone after being asked it before', () => {
    for (let round = 0; round < 2; round++) {
      expect(isTimeZone('Europe/Berlin')).toBe(true)
      expect(isTimeZone('UTC')).toBe(true)
      expect(isTimeZone('Mars/Olympus')).toBe(false)
      expect(isTimeZone('')).toBe(false)
    }
  })

  it('answers a zone it knows as the runtime does: the hour there is read with the same rules', () => {
    expect(isTimeZone('Asia/Kolkata')).toBe(true)
    expect(localHourAndDay(at('2022-05-29T12:00:00Z'), 'Asia/Kolkata')).toEqual({ hour: 17, day: 0 })
  })
})

describe('insideSchedule', () => {
  describe('9-18 1-5 in Europe/Berlin across the spring DST change (27 March 2022)', () => {
    it.each([
      ['Friday 07:30 UTC is 08:30 CET: before the window', '2022-03-25T07:30:00Z', false],
      ['Friday 08:30 UTC is 09:30 CET: inside', '2022-03-25T08:30:00Z', true],
      ['Friday 17:59 UTC is 18:59 CET: still inside', '2022-03-25T17:59:00Z', true],
      ['Friday 18:00 UTC is 19:00 CET: after the window', '2022-03-25T18:00:00Z', false],
      ['Saturday midday: weekend', '2022-03-26T11:00:00Z', false],
      ['Monday 07:30 UTC is 09:30 CEST: inside once clocks went forward', '2022-03-28T07:30:00Z', true],
      ['Monday 06:30 UTC is 08:30 CEST: before the window', '2022-03-28T06:30:00Z', false],
      ['Monday 16:59 UTC is 18:59 CEST: inside', '2022-03-28T16:59:00Z', true],
      ['Monday 17:00 UTC is 19:00 CEST: after the window', '2022-03-28T17:00:00Z', false],
    ])('%s', (_label, iso, expected) => {
      expect(insideSchedule(WORKING_HOURS, 'Europe/Berlin', at(iso))).toBe(expected)
    })
  })

  describe('9-18 1-5 in Europe/Berlin across the autumn DST change (30 October 2022)', () => {
    it.each([
      ['Friday 07:30 UTC is 09:30 CEST: inside', '2022-10-28T07:30:00Z', true],
      ['Monday 07:30 UTC is 08:30 CET: not yet, clocks went back', '2022-10-31T07:30:00Z', false],
      ['Monday 08:30 UTC is 09:30 CET: inside', '2022-10-31T08:30:00Z', true],
    ])('%s', (_label, iso, expected) => {
      expect(insideSchedule(WORKING_HOURS, 'Europe/Berlin', at(iso))).toBe(expected)
    })
  })

  it('covers the repeated 02:00 hour twice on the night clocks go back', () => {
    const twoAm = cron('2 *')
    expect(insideSchedule(twoAm, 'Europe/Berlin', at('2022-10-30T00:30:00Z'))).toBe(true)
    expect(insideSchedule(twoAm, 'Europe/Berlin', at('2022-10-30T01:30:00Z'))).toBe(true)
    expect(insideSchedule(twoAm, 'Europe/Berlin', at('2022-10-30T02:30:00Z'))).toBe(false)
  })

  it('never matches the 02:00 hour that does not exist on the night clocks go forward', () => {
    const twoAm = cron('2 *')
    const halfHours = Array.from({ length: 48 }, (_, i) => new Date(Date.UTC(2022, 2, 26, 12, i * 30)))
    expect(halfHours.filter((now) => insideSchedule(twoAm, 'Europe/Berlin', now))).toEqual([])
    // The hour before and after the gap are there, so the schedule itself is not the reason.
    expect(insideSchedule(cron('1 *'), 'Europe/Berlin', at('2022-03-27T00:30:00Z'))).toBe(true)
    expect(insideSchedule(cron('3 *'), 'Europe/Berlin', at('2022-03-27T01:30:00Z'))).toBe(true)
  })

  describe('9-18 1-5 in America/New_York across the spring DST change (13 March 2022)', () => {
    it.each([
      ['Friday 13:30 UTC is 08:30 EST: before', '2022-03-11T13:30:00Z', false],
      ['Friday 14:30 UTC is 09:30 EST: inside', '2022-03-11T14:30:00Z', true],
      ['Monday 12:30 UTC is 08:30 EDT: before', '2022-03-14T12:30:00Z', false],
      ['Monday 13:30 UTC is 09:30 EDT: inside', '2022-03-14T13:30:00Z', true],
      ['Friday 22:30 UTC is 18:30 EDT: inside', '2022-05-27T22:30:00Z', true],
      [
        'Saturday 02:00 UTC is still Friday 22:00 EDT: after hours, not the weekend',
        '2022-05-28T02:00:00Z',
        false,
      ],
    ])('%s', (_label, iso, expected) => {
      expect(insideSchedule(WORKING_HOURS, 'America/New_York', at(iso))).toBe(expected)
    })
  })

  it('uses the local weekday: late Friday in New York is Saturday in UTC', () => {
    const fridays = cron('* 5')
    const saturdayInUtc = at('2022-05-28T02:00:00Z')
    expect(insideSchedule(fridays, 'America/New_York', saturdayInUtc)).toBe(true)
    expect(insideSchedule(fridays, 'UTC', saturdayInUtc)).toBe(false)
  })

  it.each([
    ['Monday 09:00 UTC', '2022-05-30T09:00:00Z', true],
    ['Monday 08:59 UTC', '2022-05-30T08:59:59Z', false],
    ['Monday 18:59 UTC', '2022-05-30T18:59:59Z', true],
    ['Monday 19:00 UTC', '2022-05-30T19:00:00Z', false],
    ['Sunday 12:00 UTC', '2022-05-29T12:00:00Z', false],
  ])('9-18 1-5 in UTC: %s is %s', (_label, iso, expected) => {
    expect(insideSchedule(WORKING_HOURS, 'UTC', at(iso))).toBe(expected)
  })

  it.each([
    ['* 7', true],
    ['* 0', true],
    ['* 1-6', false],
  ])('on a Sunday, %j is %s', (raw, expected) => {
    expect(insideSchedule(cron(raw), 'UTC', at('2022-05-29T12:00:00Z'))).toBe(expected)
  })

  it.each([
    ['hour 23 of 0-5,22-23', '2022-05-30T23:30:00Z', true],
    ['hour 0 of 0-5,22-23', '2022-05-31T00:10:00Z', true],
    ['hour 12 of 0-5,22-23', '2022-05-30T12:00:00Z', false],
  ])('a list of ranges: %s is %s', (_label, iso, expected) => {
    expect(insideSchedule(cron('0-5,22-23 *'), 'UTC', at(iso))).toBe(expected)
  })

  it('is always inside * *', () => {
    const hours = Array.from({ length: 24 * 7 }, (_, i) => new Date(Date.UTC(2022, 4, 23, i, 17)))
    expect(hours.every((now) => insideSchedule(cron('* *'), 'Pacific/Chatham', now))).toBe(true)
  })
})

describe('cronAllowsAction', () => {
  const mondayMorning = at('2022-05-30T10:00:00Z')
  const saturday = at('2022-05-28T10:00:00Z')

  it.each([
    ['on', 'inside the window', mondayMorning, true],
    ['on', 'outside the window', saturday, false],
    ['off', 'inside the window', mondayMorning, false],
    ['off', 'outside the window', saturday, true],
  ] as const)('with state %s, acting %s is %s', (state, _label, now, expected) => {
    expect(cronAllowsAction(WORKING_HOURS, 'UTC', state, now)).toBe(expected)
  })

  it('evaluates the window in the given zone: 10:00 UTC Monday is 19:00 in Tokyo', () => {
    expect(cronAllowsAction(WORKING_HOURS, 'Asia/Tokyo', 'on', mondayMorning)).toBe(false)
    expect(cronAllowsAction(WORKING_HOURS, 'Asia/Tokyo', 'off', mondayMorning)).toBe(true)
  })
})
