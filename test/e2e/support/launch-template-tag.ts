/**
 * moto 5.2.1 quirk: an instance launched by CreateFleet lacks `aws:ec2launchtemplate:id`, which EC2 writes
 * on every instance launched from a template
 * (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/launch-instances-from-launch-template.html) and
 * which spotswap's provenance checks (lambdas/core/group/provenance.ts); moto writes it for RunInstances only.
 * The end-to-end suites add it as EC2 would, right after moto answers a CreateFleet, with the template the
 * fleet named. Product code is unchanged. `test/e2e/moto-harness.test.ts` asserts the quirk itself.
 */
import {
  CreateFleetCommand,
  type CreateFleetCommandOutput,
  CreateTagsCommand,
  EC2Client,
} from '@aws-sdk/client-ec2'

export const LAUNCH_TEMPLATE_TAG = 'aws:ec2launchtemplate:id'

let installed = false
/** Off while a suite runs against moto's own CreateFleet (no tag), as test/e2e/launch-bound.test.ts does. */
let tagging = true

/** Until the returned function is called, CreateFleet's launches keep moto's answer: no template tag. */
export const withoutLaunchTemplateTag = (): (() => void) => {
  tagging = false
  return () => {
    tagging = true
  }
}

export const addLaunchTemplateTagAfterCreateFleet = (): void => {
  if (installed) return
  installed = true
  const send = EC2Client.prototype.send as (this: EC2Client, command: unknown) => Promise<unknown>
  EC2Client.prototype.send = async function (this: EC2Client, command: unknown) {
    const output = await send.call(this, command)
    if (!tagging || !(command instanceof CreateFleetCommand)) return output
    const template = command.input.LaunchTemplateConfigs?.[0]?.LaunchTemplateSpecification?.LaunchTemplateId
    const ids = ((output as CreateFleetCommandOutput).Instances ?? []).flatMap((i) => i.InstanceIds ?? [])
    if (template !== undefined && ids.length > 0)
      await send.call(
        this,
        new CreateTagsCommand({ Resources: ids, Tags: [{ Key: LAUNCH_TEMPLATE_TAG, Value: template }] }),
      )
    return output
  } as EC2Client['send']
}
