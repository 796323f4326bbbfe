/** Plain-text tables for the terminal: columns padded to their widest cell, numbers right-aligned. */

export interface Column {
  readonly header: string
  readonly align?: 'left' | 'right'
}

export const renderTable = (columns: readonly Column[], rows: readonly (readonly string[])[]): string => {
  const widths = columns.map((column, i) =>
    Math.max(column.header.length, ...rows.map((row) => (row[i] ?? '').length)),
  )
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) =>
        columns[i]?.align === 'right' ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0),
      )
      .join('  ')
      .trimEnd()
  return [line(columns.map((c) => c.header)), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join(
    '\n',
  )
}

export const usd = (value: number): string => `$${value.toFixed(2)}`
export const pct = (value: number, digits = 1): string => `${value.toFixed(digits)}%`
