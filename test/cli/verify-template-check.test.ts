import { describe, expect, it } from 'vitest'
import type { MemberView, VerifyCheck } from '../../tools/cli/verify-checks.ts'
import {
  launchesSeen,
  launchTemplateCheck,
  unlessTemplateUnprovable,
  withoutTemplateTag,
} from '../../tools/cli/verify-template-check.ts'

const GROUP_TEMPLATE = 'lt-0123456789abcdef0'

const launch = (id: string, launchTemplateId?: string): MemberView => ({
  id,
  lifecycle: 'spot',
  lifecycleState: 'running',
  type: 't3.micro',
  zone: 'us-east-1a',
  ...(launchTemplateId === undefined ? {} : { launchTemplateId }),
})

describe('launchTemplateCheck', () => {
  it('passes when EC2 tagged every launch with the group’s template', () => {
    const check = launchTemplateCheck(
      [launch('i-1', GROUP_TEMPLATE), launch('i-2', GROUP_TEMPLATE)],
      GROUP_TEMPLATE,
    )
    expect(check).toMatchObject({ name: 'launch-template-tag', status: 'pass' })
  })

  it('fails when a launch came from another template', () => {
    const check = launchTemplateCheck(
      [launch('i-1', GROUP_TEMPLATE), launch('i-2', 'lt-other')],
      GROUP_TEMPLATE,
    )
    expect(check.status).toBe('fail')
    expect(check.reason).toContain('i-2 lt-other')
  })

  it('is not possible, saying why, when the endpoint tagged none (moto’s CreateFleet)', () => {
    const check = launchTemplateCheck([launch('i-1'), launch('i-2')], GROUP_TEMPLATE)
    expect(check.status).toBe('not-possible')
    expect(check.reason).toMatch(/wrote no aws:ec2launchtemplate:id .* moto does not.*: i-1, i-2$/)
  })

  it('is skipped when nothing was launched', () => {
    expect(launchTemplateCheck([], GROUP_TEMPLATE).status).toBe('skipped')
  })
})

describe('withoutTemplateTag', () => {
  it.each([
    ['no launch', [], false],
    ['an untagged launch', [launch('i-1')], true],
    ['a tagged one beside it', [launch('i-1'), launch('i-2', GROUP_TEMPLATE)], false],
  ])('%s: %s', (_, launched, expected) => {
    expect(withoutTemplateTag(launched)).toBe(expected)
  })
})

describe('unlessTemplateUnprovable', () => {
  const converges: VerifyCheck = { name: 'converges', status: 'fail', reason: 'not converged' }

  it('keeps the conversion checks when the template check was made', () => {
    const made: VerifyCheck = { name: 'launch-template-tag', status: 'pass', reason: '' }
    expect(unlessTemplateUnprovable(made, [converges])).toEqual([converges])
  })

  it('reports them not possible, never failed, when it could not be', () => {
    const unprovable: VerifyCheck = { name: 'launch-template-tag', status: 'not-possible', reason: '' }
    expect(unlessTemplateUnprovable(unprovable, [converges])).toEqual([
      expect.objectContaining({ name: 'converges', status: 'not-possible' }),
    ])
  })
})

describe('launchesSeen', () => {
  it('lists each launch once, as last seen', () => {
    const first = { launched: [launch('i-1')] }
    const later = { launched: [launch('i-1', GROUP_TEMPLATE), launch('i-2')] }
    expect(launchesSeen([first, later])).toEqual([launch('i-1', GROUP_TEMPLATE), launch('i-2')])
  })
})
