/**
 * `spotswap plan` over a simulated account: the real AWS adapter over the simulator's SDK clients, so the
 * command's reads, the replacer's planning and the report run as they do against AWS.
 */
import { createAwsCloud } from '../../lambdas/aws/cloud.ts'
import type { AwsClients } from '../../lambdas/aws/sdk.ts'
import { silentLog } from '../../lambdas/core/log.ts'
import { createPlanCommand, type PlanDeps } from '../../tools/cli/plan-command.ts'
import type { CliIo } from '../../tools/shared/io.ts'
import { simClients } from '../../tools/sim/sdk/clients.ts'
import { REGION, type TestWorld } from '../sim/support.ts'

export interface PlanRun {
  readonly code: number
  readonly out: string
  readonly err: string
}

/** `change` swaps some of the simulated clients, e.g. a Pricing API that refuses every call. */
export const simPlanDeps = (
  sim: TestWorld,
  change: (clients: AwsClients) => AwsClients = (clients) => clients,
): PlanDeps => {
  let sessions = 1000
  return {
    regionDirectory: async () => ({ enabledRegions: async () => [REGION] }),
    cloud: async (region, onApiCall) => {
      const session = { id: ++sessions, actor: 'replacer' as const, region, crashed: false, failedCalls: 0 }
      return createAwsCloud(region, {
        clients: change(simClients(sim.world, region, session)),
        logger: silentLog,
        onApiCall,
        now: () => sim.world.clock.now,
        caches: sim.world.adapterCaches,
      })
    },
  }
}

export const runPlan = async (deps: PlanDeps, argv: readonly string[]): Promise<PlanRun> => {
  let out = ''
  let err = ''
  const io: CliIo = {
    out: (text) => {
      out += text
    },
    err: (text) => {
      err += text
    },
    progressStream: undefined,
    writeFile: () => {
      throw new Error('plan writes no file')
    },
    env: {},
  }
  const code = await createPlanCommand(deps).run(argv, io)
  return { code, out, err }
}
