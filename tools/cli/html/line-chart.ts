/**
 * A line chart as inline SVG: time on x (hours from the start), values on y with round gridlines, a
 * legend, and a filled area under the first series. No script and no external resource, so the page
 * works offline and renders the same in any browser.
 */
import { escapeHtml } from './escape.ts'

export interface Series {
  readonly name: string
  readonly color: string
  /** [epoch ms, value] in time order. */
  readonly points: readonly (readonly [number, number])[]
  readonly dashed?: boolean
  /** Piecewise constant (a count): drawn as steps, only where the value changes. */
  readonly step?: boolean
}

/** Moments marked along the bottom of the plot: an interruption, a failed launch, a swap. */
export interface MarkerSeries {
  readonly name: string
  readonly shape: 'triangle' | 'cross' | 'bar'
  readonly color: string
  /** Epoch ms. */
  readonly times: readonly number[]
}

export interface LineChart {
  readonly title: string
  readonly series: readonly Series[]
  readonly formatY: (value: number) => string
  /** Forces the y range to include these values (e.g. 0 and 100 for percentages). */
  readonly yInclude?: readonly number[]
  /** Drawing width in SVG units; the page scales it, so a wider chart keeps the same text size at full width. */
  readonly width?: number
  readonly markers?: readonly MarkerSeries[]
  /** False when the page shows one legend for many charts. */
  readonly legend?: boolean
}

const WIDTH = 760
const HEIGHT = 260
const MARGIN = { top: 40, right: 24, bottom: 40, left: 72 }

/** 1, 2 or 5 times a power of ten: gridlines at round values. */
const niceStep = (span: number, ticks: number): number => {
  const raw = span / ticks
  const power = 10 ** Math.floor(Math.log10(raw))
  const scaled = raw / power
  return (scaled <= 1 ? 1 : scaled <= 2 ? 2 : scaled <= 5 ? 5 : 10) * power
}

const fixed = (value: number): string => (Math.round(value * 10) / 10).toString()

/** Only the points where a step series changes value, and its last one: the same steps, fewer bytes. */
const changes = (points: readonly (readonly [number, number])[]): (readonly [number, number])[] =>
  points.filter((point, i) => i === 0 || i === points.length - 1 || point[1] !== points[i - 1]?.[1])

const pathOf = (series: Series, x: (t: number) => number, y: (v: number) => number): string => {
  const points = series.step ? changes(series.points) : series.points
  return points
    .map(([t, v], j) => {
      if (j === 0) return `M${fixed(x(t))},${fixed(y(v))}`
      // A step holds its value until the next point, then jumps.
      return series.step ? `H${fixed(x(t))}V${fixed(y(v))}` : `L${fixed(x(t))},${fixed(y(v))}`
    })
    .join('')
}

const MARKER_SHAPES: Readonly<Record<MarkerSeries['shape'], (px: string, py: number) => string>> = {
  triangle: (px, py) => `M${px},${py}l-4,-7h8z`,
  cross: (px, py) => `M${px},${py}m-4,-4l8,8m0,-8l-8,8`,
  bar: (px, py) => `M${px},${py}v-9`,
}

/** Each kind of marker on its own row above the x axis; one mark per pixel, however many events share it. */
const markerPaths = (markers: readonly MarkerSeries[], x: (t: number) => number, baseY: number): string[] =>
  markers.map((marker, row) => {
    const py = baseY - 4 - row * 12
    const seen = new Set<string>()
    const d = marker.times
      .map((t) => fixed(x(t)))
      .filter((px) => !seen.has(px) && seen.add(px))
      .map((px) => MARKER_SHAPES[marker.shape](px, py))
      .join('')
    const fill = marker.shape === 'triangle' ? `fill="${marker.color}"` : 'fill="none"'
    return d === ''
      ? ''
      : `<path d="${d}" ${fill} stroke="${marker.color}" stroke-width="2" class="marker"><title>${escapeHtml(`${marker.name}: ${marker.times.length}`)}</title></path>`
  })

export const renderLineChart = (chart: LineChart): string => {
  const width = chart.width ?? WIDTH
  const all = chart.series.flatMap((s) => s.points)
  const first = all[0]
  if (first === undefined) return ''
  const t0 = Math.min(...all.map(([t]) => t))
  const t1 = Math.max(...all.map(([t]) => t), t0 + 1)
  const values = [...all.map(([, v]) => v), ...(chart.yInclude ?? [])]
  let yMin = Math.min(...values)
  let yMax = Math.max(...values)
  if (yMax === yMin) yMax = yMin + 1
  const step = niceStep(yMax - yMin, 5)
  yMin = Math.floor(yMin / step) * step
  yMax = Math.ceil(yMax / step) * step
  const plotW = width - MARGIN.left - MARGIN.right
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom
  const x = (t: number) => MARGIN.left + ((t - t0) / (t1 - t0)) * plotW
  const y = (v: number) => MARGIN.top + plotH - ((v - yMin) / (yMax - yMin)) * plotH
  const parts: string[] = []
  for (let v = yMin; v <= yMax + step / 2; v += step) {
    parts.push(
      `<line x1="${MARGIN.left}" x2="${width - MARGIN.right}" y1="${fixed(y(v))}" y2="${fixed(y(v))}" class="grid"/>`,
    )
    parts.push(
      `<text x="${MARGIN.left - 10}" y="${fixed(y(v) + 5)}" text-anchor="end" class="tick">${escapeHtml(chart.formatY(v))}</text>`,
    )
  }
  const hours = (t1 - t0) / 3_600_000
  const hourStep = niceStep(Math.max(hours, 1), 8)
  for (let h = 0; h <= hours + 1e-9; h += hourStep) {
    const px = fixed(x(t0 + h * 3_600_000))
    parts.push(
      `<line x1="${px}" x2="${px}" y1="${MARGIN.top + plotH}" y2="${MARGIN.top + plotH + 4}" class="axis"/>`,
    )
    parts.push(
      `<text x="${px}" y="${MARGIN.top + plotH + 24}" text-anchor="middle" class="tick">+${fixed(h)}h</text>`,
    )
  }
  chart.series.forEach((series, i) => {
    if (series.points.length === 0) return
    const path = pathOf(series, x, y)
    if (i === 0) {
      const last = series.points[series.points.length - 1] as readonly [number, number]
      const base = fixed(y(Math.max(yMin, 0)))
      const start = series.points[0] as readonly [number, number]
      parts.push(
        `<path d="${path}L${fixed(x(last[0]))},${base}L${fixed(x(start[0]))},${base}Z" fill="${series.color}" fill-opacity="0.12"/>`,
      )
    }
    const dash = series.dashed ? ' stroke-dasharray="6 4"' : ''
    parts.push(`<path d="${path}" fill="none" stroke="${series.color}" stroke-width="2"${dash}/>`)
    if (chart.legend === false) return
    const lx = MARGIN.left + i * 260
    parts.push(`<rect x="${lx}" y="16" width="18" height="5" fill="${series.color}"/>`)
    parts.push(`<text x="${lx + 26}" y="23" class="legend">${escapeHtml(series.name)}</text>`)
  })
  parts.push(...markerPaths(chart.markers ?? [], x, MARGIN.top + plotH))
  parts.push(
    `<line x1="${MARGIN.left}" x2="${width - MARGIN.right}" y1="${MARGIN.top + plotH}" y2="${MARGIN.top + plotH}" class="axis"/>`,
  )
  return `<svg viewBox="0 0 ${width} ${HEIGHT}" role="img" aria-label="${escapeHtml(chart.title)}" xmlns="http://www.w3.org/2000/svg">${parts.join('')}</svg>`
}
