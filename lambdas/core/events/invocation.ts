/**
 * Invocation shapes: EventBridge invokes a Lambda with the event itself; an SQS target wraps it in
 * Records[].body. One invocation is split into the events it carries, each parsed by a registry.
 */
import {
  type AnyDefinition,
  type EventRegistry,
  isRecord,
  malformed,
  nonEmptyString,
  type ParsedEvent,
} from './registry.ts'

// ---------------------------------------------------------------------------------------------------
// Invocation shapes: EventBridge invokes with the event itself; an SQS target wraps it in Records[].body.

export interface InvocationItem {
  /** The SQS message id, for logs; undefined for a direct EventBridge invocation. */
  readonly messageId: string | undefined
  readonly payload:
    | { readonly ok: true; readonly value: unknown }
    | { readonly ok: false; readonly problem: string }
}

const isSqsRecord = (value: unknown): value is Record<string, unknown> =>
  isRecord(value) && value.eventSource === 'aws:sqs'

/** Splits one Lambda invocation into the events it carries. Never throws. */
export const unwrapInvocation = (raw: unknown): InvocationItem[] => {
  const records = isRecord(raw) ? raw.Records : undefined
  if (!Array.isArray(records) || records.length === 0 || !records.every(isSqsRecord)) {
    return [{ messageId: undefined, payload: { ok: true, value: raw } }]
  }
  return records.map((record) => {
    const messageId = nonEmptyString(record.messageId)
    if (typeof record.body !== 'string')
      return { messageId, payload: { ok: false, problem: 'SQS record has no body' } }
    try {
      return { messageId, payload: { ok: true, value: JSON.parse(record.body) as unknown } }
    } catch (error) {
      return {
        messageId,
        payload: { ok: false, problem: `SQS body is not JSON: ${(error as Error).message}` },
      }
    }
  })
}

export interface ParsedInvocationItem<Defs extends readonly AnyDefinition[]> {
  readonly messageId: string | undefined
  readonly event: ParsedEvent<Defs>
}

export const parseInvocation = <Defs extends readonly AnyDefinition[]>(
  registry: EventRegistry<Defs>,
  raw: unknown,
): ParsedInvocationItem<Defs>[] =>
  unwrapInvocation(raw).map(({ messageId, payload }) => ({
    messageId,
    event: payload.ok ? registry.parse(payload.value) : malformed(payload.problem),
  }))
