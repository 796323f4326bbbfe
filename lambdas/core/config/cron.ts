/**
 * AutoSpotting's two-field schedule, `<hours> <days-of-week>`: each field `*` or a comma list of
 * numbers and ranges, e.g. `9-18 1-5` = 09:00 to 18:59, Monday to Friday. Evaluated in an IANA zone.
 */

export interface CronSchedule {
  readonly raw: string
  readonly hours: ReadonlySet<number>
  readonly daysOfWeek: ReadonlySet<number>
}

const parseField = (field: string, min: number, max: number): Set<number> | undefined => {
  if (field === '*') return new Set(Array.from({ length: max - min + 1 }, (_, i) => min + i))
  const values = new Set<number>()
  for (const part of field.split(',')) {
    const range = /^(\d{1,2})(?:-(\d{1,2}))?$/.exec(part)
    if (!range?.[1]) return undefined
    const from = Number(range[1])
    const to = range[2] === undefined ? from : Number(range[2])
    if (from < min || to > max || from > to) return undefined
    for (let value = from; value <= to; value++) values.add(value)
  }
  return values
}

export const parseCronSchedule = (raw: string): CronSchedule | undefined => {
  const fields = raw.trim().split(/\s+/)
  if (fields.length !== 2 || raw.length > 200) return undefined
  const [hourField, dayField] = fields as [string, string]
  const hours = parseField(hourField, 0, 23)
  // 7 is accepted as Sunday, as in cron.
  const days = parseField(dayField, 0, 7)
  if (!hours || !days) return undefined
  if (days.has(7)) days.add(0)
  days.delete(7)
  return { raw: raw.trim(), hours, daysOfWeek: days }
}

const WEEKDAYS: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 }

/**
 * Building a formatter costs far more than using one, and every run reads every group's time zone
 * setting and evaluates its window. Only zones the runtime knows are kept (a few hundred at most);
 * an unknown zone throws a RangeError and is not kept.
 */
const formatters = new Map<string, Intl.DateTimeFormat>()
const formatterFor = (timeZone: string): Intl.DateTimeFormat => {
  let formatter = formatters.get(timeZone)
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hour: 'numeric',
      hourCycle: 'h23',
      weekday: 'short',
    })
    formatters.set(timeZone, formatter)
  }
  return formatter
}

/** Whether the runtime knows `timeZone` as an IANA zone (or UTC); empty is no zone. */
export const isTimeZone = (timeZone: string): boolean => {
  if (timeZone.length === 0) return false
  try {
    formatterFor(timeZone)
    return true
  } catch {
    return false
  }
}

/** Every group of a run asks about the same minute; remember the answer per zone and minute. */
const lastAnswers = new Map<string, { hour: number; day: number }>()

export const localHourAndDay = (now: Date, timeZone: string): { hour: number; day: number } => {
  // UTC, the default, has no rules to look up.
  if (timeZone === 'UTC') return { hour: now.getUTCHours(), day: now.getUTCDay() }
  const key = `${timeZone}|${Math.floor(now.getTime() / 60_000)}`
  const known = lastAnswers.get(key)
  if (known !== undefined) return known
  if (lastAnswers.size > 1000) lastAnswers.clear()
  const answer = computeHourAndDay(now, timeZone)
  lastAnswers.set(key, answer)
  return answer
}

/** The hour and weekday of `now` in `timeZone`. Pure: the zone rules come from the runtime's ICU data. */
const computeHourAndDay = (now: Date, timeZone: string): { hour: number; day: number } => {
  const parts = formatterFor(timeZone).formatToParts(now)
  const hour = Number(parts.find((p) => p.type === 'hour')?.value)
  const day = WEEKDAYS[parts.find((p) => p.type === 'weekday')?.value ?? ''] ?? 0
  return { hour, day }
}

export const insideSchedule = (schedule: CronSchedule, timeZone: string, now: Date): boolean => {
  const { hour, day } = localHourAndDay(now, timeZone)
  return schedule.hours.has(hour) && schedule.daysOfWeek.has(day)
}

/** Whether spotswap may act now: inside the window when the state is `on`, outside it when `off`. */
export const cronAllowsAction = (
  schedule: CronSchedule,
  timeZone: string,
  state: 'on' | 'off',
  now: Date,
): boolean => insideSchedule(schedule, timeZone, now) === (state === 'on')
