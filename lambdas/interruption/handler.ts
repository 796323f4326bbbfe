/** Lambda entry point: EC2 spot interruption warnings and rebalance recommendations (EventBridge or SQS). */
import { createHandler } from './create-handler.ts'
import { defaultDeps } from './default-deps.ts'

export const handler = createHandler(defaultDeps())
