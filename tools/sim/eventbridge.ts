/** Simulator events as the EventBridge JSON the Lambdas receive in AWS (test/events/ holds real samples). */
import { SIM_ACCOUNT_ID } from './constants.ts'
import type { SimEvent } from './world.ts'

const DETAIL_TYPES = {
  'spot-interruption': 'EC2 Spot Instance Interruption Warning',
  'rebalance-recommendation': 'EC2 Instance Rebalance Recommendation',
  'instance-launch-successful': 'EC2 Instance Launch Successful',
} as const

/** UUID-shaped and unique per event, but derived from a counter so runs stay reproducible. */
const eventId = (sequence: number): string =>
  `00000000-0000-4000-8000-${sequence.toString(16).padStart(12, '0')}`

export const toEventBridge = (event: SimEvent, atMs: number, sequence: number): Record<string, unknown> => {
  const envelope = {
    version: '0',
    id: eventId(sequence),
    'detail-type': DETAIL_TYPES[event.kind],
    account: SIM_ACCOUNT_ID,
    time: new Date(atMs).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    region: event.region,
  }
  const instanceArn = `arn:aws:ec2:${event.region}:${SIM_ACCOUNT_ID}:instance/${event.instanceId}`
  switch (event.kind) {
    case 'spot-interruption':
      return {
        ...envelope,
        source: 'aws.ec2',
        resources: [instanceArn],
        detail: { 'instance-id': event.instanceId, 'instance-action': 'terminate' },
      }
    case 'rebalance-recommendation':
      return {
        ...envelope,
        source: 'aws.ec2',
        resources: [instanceArn],
        detail: { 'instance-id': event.instanceId },
      }
    case 'instance-launch-successful':
      return {
        ...envelope,
        source: 'aws.autoscaling',
        resources: [
          `arn:aws:autoscaling:${event.region}:${SIM_ACCOUNT_ID}:autoScalingGroup:sim:autoScalingGroupName/${event.group}`,
          instanceArn,
        ],
        detail: {
          AutoScalingGroupName: event.group,
          EC2InstanceId: event.instanceId,
          StatusCode: 'InProgress',
        },
      }
  }
}
