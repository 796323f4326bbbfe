/**
 * `spotswap plan` over a simulated account: the real AWS adapter over the simulator's SDK clients, so the
 * command's reads, the replacer's planning and the report run as they do against AWS.
 */
import { createAwsCloud } from '../../lambdas/aws/cloud.ts'
import type { AwsClients } from '../../lambdas/aws/sdk.ts'
import { silentLog } from '../../lambdas/core/log.ts'
import type { CloudPort } from '../../lambdas/core/port.ts'
import { createPlanCommand, type PlanDeps } from '../../tools/cli/plan-command.ts'
import { simClients } from '../../tools/sim/sdk/clients.ts'
import { REGION, type TestWorld } from '../sim/support.ts'
import { type FakeAccount, fakeAccount, fakePreflightClients } from './plan-preflight-fakes.ts'
import { recordingIo } from './support.ts'

/**
 * A region the simulated account has not opted in to: EC2 answers every call there with OptInRequired
 * (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/errors-overview.html).
 */
const unreachable = (region: string): CloudPort =>
  new Proxy({ region } as CloudPort, {
    // Not a thenable: `then` is no port method.
    get: (target, key) =>
      key === 'region' || key === 'then'
        ? target[key as 'region']
        : () =>
            Promise.reject(
              Object.assign(new Error(`You are not subscribed to this service in ${region}.`), {
                name: 'OptInRequired',
              }),
            ),
  })

export interface PlanRun {
  readonly code: number
  readonly out: string
  readonly err: string
}

/** `change` swaps some of the simulated clients, e.g. a Pricing API that refuses every call. */
export const simPlanDeps = (
  sim: TestWorld,
  change: (clients: AwsClients) => AwsClients = (clients) => clients,
  account: FakeAccount = fakeAccount(),
): PlanDeps => {
  let sessions = 1000
  return {
    regionDirectory: async () => ({ enabledRegions: async () => [REGION] }),
    cloud: async (region, onApiCall) => {
      if (region !== REGION) return unreachable(region)
      const session = { id: ++sessions, actor: 'replacer' as const, region, crashed: false, failedCalls: 0 }
      return createAwsCloud(region, {
        clients: change(simClients(sim.world, region, session)),
        logger: silentLog,
        onApiCall,
        now: () => sim.world.clock.now,
        caches: sim.world.adapterCaches,
      })
    },
    preflightClients: async () => fakePreflightClients(account),
  }
}

export const runPlan = async (deps: PlanDeps, argv: readonly string[]): Promise<PlanRun> => {
  const { io, output } = recordingIo()
  const code = await createPlanCommand(deps).run(argv, io)
  const { out, err, files } = output()
  if (files.size > 0) throw new Error('plan writes no file')
  return { code, out, err }
}
