/**
 * The kill switch against moto_server: its SSM parameter read through the real adapter (its
 * GetParameter), and the replacer as deployed launching nothing while it is on.
 */

import { PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm'
import { expect, it } from 'vitest'
import { scheduledEvent } from '../events/builders.ts'
import { motoRegion } from './support/clients.ts'
import { E2E_TIMEOUT_MS } from './support/events.ts'
import { describeMoto, freshAccountPerTest } from './support/moto.ts'
import { loadReplacer, withEnvRestored } from './support/replacer-runs.ts'
import { createGroup, groupState } from './support/world.ts'

const PARAMETER = '/spotswap/kill-switch'

const ssm = () => new SSMClient({ region: motoRegion() })

/** moto loads its SSM backend on the first call, which can take seconds: the test's writes wait for it. */
const putSwitch = async (value: string): Promise<void> => {
  await ssm().send(
    new PutParameterCommand({ Name: PARAMETER, Value: value, Type: 'String', Overwrite: true }),
  )
}

describeMoto('kill switch against moto', (moto) => {
  freshAccountPerTest(moto)

  it('reads the parameter: each mode, and a missing one as on', async () => {
    const { createKillSwitchReader } = await import('../../lambdas/aws/kill-switch.ts')
    const read = createKillSwitchReader(PARAMETER, motoRegion())
    // Another parameter first, so that moto's SSM backend is loaded before the timed read.
    await ssm().send(new PutParameterCommand({ Name: '/warm-up', Value: 'x', Type: 'String' }))
    const missing = await read()
    expect(missing.mode).toBe('on')
    expect(missing.problem).toContain('ParameterNotFound')
    for (const value of ['off', 'on', 'hard']) {
      await putSwitch(value)
      expect(await read()).toEqual({ mode: value })
    }
    await putSwitch('maybe')
    expect((await read()).mode).toBe('on')
  })

  it(
    'the replacer launches nothing while the switch is on, and converts again once it is off',
    async () => {
      const restore = withEnvRestored()
      try {
        await createGroup({ name: 'web', desired: 2, min: 2, max: 2, tags: { 'spot-enabled': 'true' } })
        await putSwitch('on')
        process.env.KILL_SWITCH_PARAMETER = PARAMETER
        let now = new Date()
        const { run } = await loadReplacer(motoRegion(), 'web', () => now)
        const held = await run(scheduledEvent())
        expect(held.actions).toEqual([])
        expect(held.calls.filter((call) => !/:(Describe|Get|List)/.test(call))).toEqual([])
        const before = await groupState('web')
        expect(before.members.every((m) => m.lifecycle === 'on-demand')).toBe(true)

        await putSwitch('off')
        now = new Date(now.getTime() + 6 * 60_000)
        const resumed = await run(scheduledEvent())
        expect(resumed.calls).toContain('ec2:CreateFleet')
        expect(resumed.actions.some((a) => a.kind === 'launch-spot' && a.status === 'done')).toBe(true)
      } finally {
        restore()
      }
    },
    E2E_TIMEOUT_MS,
  )
})
