/**
 * moto 5.2.1 quirk: moto never interrupts a spot instance, so the Spot request of every spot instance it
 * launched (CreateFleet `instant` included) stays `fulfilled`, where EC2 shows `marked-for-termination`
 * from the two-minute warning on (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/spot-request-status.html).
 * A suite that plays a genuine interruption names the instance here; DescribeSpotInstanceRequests answers
 * then show it as EC2 would. Product code is unchanged; instances no test names keep moto's answer, so a
 * forged tag stays unconfirmed. `test/e2e/forged-marker.test.ts` asserts the quirk itself.
 */
import {
  DescribeSpotInstanceRequestsCommand,
  type DescribeSpotInstanceRequestsCommandOutput,
  EC2Client,
} from '@aws-sdk/client-ec2'

/** When EC2 warned each instance: the status's UpdateTime from then on. */
const warnedByEc2 = new Map<string, Date>()

/** EC2 warned this instance of its interruption (what moto cannot do), now unless told when. */
export const warnAsEc2Would = (instanceId: string, at: Date = new Date()): void => {
  install()
  warnedByEc2.set(instanceId, at)
}

let installed = false

const install = (): void => {
  if (installed) return
  installed = true
  const send = EC2Client.prototype.send as (this: EC2Client, command: unknown) => Promise<unknown>
  EC2Client.prototype.send = async function (this: EC2Client, command: unknown) {
    const output = await send.call(this, command)
    if (!(command instanceof DescribeSpotInstanceRequestsCommand)) return output
    const answer = output as DescribeSpotInstanceRequestsCommandOutput
    return {
      ...answer,
      SpotInstanceRequests: (answer.SpotInstanceRequests ?? []).map((request) =>
        request.InstanceId !== undefined && warnedByEc2.has(request.InstanceId)
          ? {
              ...request,
              Status: {
                ...request.Status,
                Code: 'marked-for-termination',
                UpdateTime: warnedByEc2.get(request.InstanceId),
              },
            }
          : request,
      ),
    }
  } as EC2Client['send']
}
