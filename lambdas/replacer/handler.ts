/**
 * Lambda entry point of the replacer: the schedule, fan-out SQS messages, run requests and
 * `EC2 Instance Launch Successful` events.
 */
import { createHandler } from './create-handler.ts'
import { defaultDeps } from './default-deps.ts'

export const handler = createHandler(defaultDeps())
