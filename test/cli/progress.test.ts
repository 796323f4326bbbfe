import { describe, expect, it } from 'vitest'
import { createProgress } from '../../tools/cli/progress.ts'

const stream = (isTTY: boolean) => {
  const written: string[] = []
  return {
    written,
    stream: { isTTY, write: (text: string) => written.push(text) } as unknown as NodeJS.WriteStream,
  }
}

describe('the progress bar', () => {
  it('draws in place on a terminal, once per percent, and clears its line when done', () => {
    const { written, stream: tty } = stream(true)
    const progress = createProgress('simulating', tty)
    progress.update(0.5)
    progress.update(0.501)
    progress.update(1)
    progress.done()
    expect(written).toHaveLength(3)
    expect(written[0]).toMatch(/^\rsimulating \[#{15}\.{15}\] {2}50%$/)
    expect(written[2]).toBe('\r\x1b[2K')
  })

  it('writes nothing when the output is not a terminal', () => {
    const { written, stream: pipe } = stream(false)
    const progress = createProgress('simulating', pipe)
    progress.update(0.5)
    progress.done()
    expect(written).toEqual([])
  })
})
