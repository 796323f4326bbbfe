/**
 * A progress bar on an interactive terminal, redrawn in place on stderr; nothing at all when the output
 * is a pipe or a file, so logs and CI output stay clean.
 */

export interface Progress {
  update(fraction: number): void
  done(): void
}

const WIDTH = 30

export const createProgress = (label: string, stream: NodeJS.WriteStream = process.stderr): Progress => {
  if (!stream.isTTY) return { update: () => {}, done: () => {} }
  let shown = -1
  return {
    update(fraction) {
      const percent = Math.max(0, Math.min(100, Math.floor(fraction * 100)))
      if (percent === shown) return
      shown = percent
      const filled = Math.round((percent / 100) * WIDTH)
      stream.write(
        `\r${label} [${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${String(percent).padStart(3)}%`,
      )
    },
    done() {
      if (shown >= 0) stream.write('\r\x1b[2K')
    },
  }
}
