/**
 * `simulate`'s per-group table, fitted to a terminal of TABLE_WIDTH columns: the types after the run, then
 * group names, give up width first (names keep their start and end, types the most numerous first).
 * Under it, why a group shows little or no spot, one line each (a column would leave the types no room).
 */
import { type Column, pct, renderTable } from '../shared/table.ts'
import { ESTIMATED_NOTE } from './simulate-notes.ts'
import type { GroupSummary } from './simulate-summary.ts'

/** What an 80x24 habit still reads side by side, and what the issue asked the table to fit in. */
export const TABLE_WIDTH = 120

const GAP = 2

/** Columns that may shrink, in the order they give up width, and how narrow each may get. */
const SHRINKS: readonly { readonly header: string; readonly min: number }[] = [
  { header: 'After', min: 16 },
  { header: 'Group', min: 14 },
  { header: 'Before', min: 10 },
]

const ELLIPSIS = '…'

/** `payments-…-eu-1`: a name keeps its start and its end, which tell groups apart. */
export const clipName = (text: string, width: number): string => {
  if (text.length <= width) return text
  const tail = Math.floor((width - 1) / 3)
  return `${text.slice(0, width - 1 - tail)}${ELLIPSIS}${text.slice(text.length - tail)}`
}

/** `m5.large×4 r5b.large×2 +3`: whole types, most numerous first, then how many more. */
export const clipTypes = (text: string, width: number): string => {
  if (text.length <= width) return text
  const types = text.split(' ')
  for (let shown = types.length - 1; shown > 0; shown--) {
    const clipped = `${types.slice(0, shown).join(' ')} +${types.length - shown}`
    if (clipped.length <= width) return clipped
  }
  return clipName(text, width)
}

const COLUMNS: readonly Column[] = [
  { header: 'Group' },
  { header: 'Region' },
  { header: 'Desired' },
  { header: 'OD min', align: 'right' },
  { header: 'Before' },
  { header: 'After' },
  { header: 'Spot', align: 'right' },
  { header: 'Savings', align: 'right' },
  { header: 'Serving', align: 'right' },
  { header: 'Intr.', align: 'right' },
  { header: 'Failed', align: 'right' },
]

const cells = (row: GroupSummary): string[] => [
  row.group,
  row.region,
  `${row.desiredAtStart}→${row.desiredAtEnd}`,
  // Spotswap keeps no minimum in a group it does not manage: all of it stays on-demand.
  row.onDemandMinimum === undefined || !row.managed ? '-' : String(row.onDemandMinimum),
  row.instanceType,
  row.after,
  pct(row.spotSharePct, 0),
  `${pct(row.savingsPct)}${row.savingsEstimated ? '*' : ''}`,
  pct(row.servingPct, 2),
  String(row.interruptions),
  String(row.failedLaunches),
]

/** Each column's width once the table fits: the shrinkable ones give up the excess in order. */
const fittedWidths = (rows: readonly (readonly string[])[]): number[] => {
  const widths = COLUMNS.map((column, i) =>
    Math.max(column.header.length, ...rows.map((row) => (row[i] ?? '').length)),
  )
  let excess = widths.reduce((sum, w) => sum + w, 0) + GAP * (widths.length - 1) - TABLE_WIDTH
  for (const { header, min } of SHRINKS) {
    const i = COLUMNS.findIndex((c) => c.header === header)
    const give = Math.max(0, Math.min(excess, (widths[i] ?? 0) - min))
    widths[i] = (widths[i] ?? 0) - give
    excess -= give
  }
  return widths
}

const clipCell = (header: string | undefined, cell: string, width: number): string =>
  header === 'After' || header === 'Before' ? clipTypes(cell, width) : clipName(cell, width)

const CONTINUED = '    '

/**
 * A line within TABLE_WIDTH: wrapped at spaces, the rest indented under it, so no reason is lost; a word
 * longer than the width is cut there.
 */
export const wrapLine = (line: string): string[] => {
  const lines: string[] = []
  let rest = line
  while (rest.length > TABLE_WIDTH) {
    const space = rest.lastIndexOf(' ', TABLE_WIDTH)
    const cut = space > CONTINUED.length + 1 ? space : TABLE_WIDTH
    lines.push(rest.slice(0, cut).trimEnd())
    rest = `${CONTINUED}${rest.slice(cut).trimStart()}`
  }
  lines.push(rest)
  return lines
}

export const groupTable = (groups: readonly GroupSummary[]): string[] => {
  const raw = groups.map(cells)
  const widths = fittedWidths(raw)
  const rows = raw.map((row) => row.map((cell, i) => clipCell(COLUMNS[i]?.header, cell, widths[i] ?? 0)))
  const lines = renderTable(COLUMNS, rows).split('\n')
  const notes = groups.filter((g) => g.note !== undefined)
  if (notes.length > 0)
    lines.push(
      'Groups held back, and why:',
      ...notes.flatMap((g) => wrapLine(`  ${g.group}: ${g.note?.detail ?? ''}`)),
    )
  if (groups.some((g) => g.savingsEstimated)) lines.push(...wrapLine(`* ${ESTIMATED_NOTE}`))
  return lines
}
