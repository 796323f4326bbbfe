/** One pre-flight check's answer (preflight.ts) and how plan prints it. */
import { wrapLine } from './plan-replacements.ts'

export type CheckStatus = 'ok' | 'warn' | 'fail'

export interface PreflightCheck {
  readonly check: 'pass-role' | 'spot-quota' | 'regions' | 'pricing'
  readonly status: CheckStatus
  readonly region?: string
  readonly reason: string
}

/** One line per check, wrapped within 120 columns: `  fail  spot-quota us-east-1: ...`. */
export const preflightText = (checks: readonly PreflightCheck[]): string[] =>
  checks.length === 0
    ? []
    : [
        '',
        'Pre-flight checks:',
        ...checks.flatMap((c) =>
          wrapLine(
            '  ',
            `${c.status.padEnd(4)}  ${c.check}${c.region === undefined ? '' : ` ${c.region}`}: ${c.reason}`,
          ),
        ),
      ]
