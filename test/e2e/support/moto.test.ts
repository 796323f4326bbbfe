import { DescribeAutoScalingGroupsCommand } from '@aws-sdk/client-auto-scaling'
import { DescribeVpcsCommand } from '@aws-sdk/client-ec2'
import { afterEach, describe, expect, it } from 'vitest'
import { autoScaling, ec2 } from './clients.ts'
import { describeMoto, freshAccountPerTest, setMotoEnv, TESTING_CREDENTIALS, withMotoEnv } from './moto.ts'
import { allInstances, createGroup } from './world.ts'

describe('withMotoEnv', () => {
  const saved = { ...process.env }
  afterEach(() => {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name]
    Object.assign(process.env, saved)
  })

  it('points the SDK variables at moto for the duration, then restores them exactly', async () => {
    process.env.AWS_REGION = 'eu-north-1'
    process.env.AWS_PROFILE = 'production'
    process.env.AWS_ENDPOINT_URL_EC2 = 'https://ec2.example'
    delete process.env.AWS_SESSION_TOKEN

    const inside = await withMotoEnv('http://127.0.0.1:1', () => ({ ...process.env }), {
      region: 'ap-south-1',
    })

    expect(inside).toMatchObject({
      AWS_ENDPOINT_URL: 'http://127.0.0.1:1',
      AWS_ACCESS_KEY_ID: 'testing',
      AWS_SECRET_ACCESS_KEY: 'testing',
      AWS_REGION: 'ap-south-1',
    })
    expect(inside).not.toHaveProperty('AWS_PROFILE')
    expect(inside).not.toHaveProperty('AWS_ENDPOINT_URL_EC2')
    expect(process.env.AWS_REGION).toBe('eu-north-1')
    expect(process.env.AWS_PROFILE).toBe('production')
    expect(process.env.AWS_ENDPOINT_URL_EC2).toBe('https://ec2.example')
    expect(process.env).not.toHaveProperty('AWS_ENDPOINT_URL')
    expect(process.env).not.toHaveProperty('AWS_SESSION_TOKEN')
  })

  it('restores the variables when the body throws', async () => {
    process.env.AWS_REGION = 'eu-north-1'

    await expect(withMotoEnv('http://127.0.0.1:1', () => Promise.reject(new Error('boom')))).rejects.toThrow(
      'boom',
    )

    expect(process.env.AWS_REGION).toBe('eu-north-1')
  })
})

describe('test clients', () => {
  it('refuse to run when the SDK is not pointed at this run’s moto', () => {
    const restore = setMotoEnv('https://ec2.us-east-1.amazonaws.com')
    try {
      expect(() => ec2()).toThrow(/only talk to moto/)
    } finally {
      restore()
    }
  })
})

describeMoto('freshAccountPerTest', (moto) => {
  const account = freshAccountPerTest(moto)
  const groupNames = async () =>
    ((await autoScaling().send(new DescribeAutoScalingGroupsCommand({}))).AutoScalingGroups ?? []).map(
      (group) => group.AutoScalingGroupName,
    )

  // Two tests seeding the same names: the second would fail with AlreadyExists in a shared account.
  it.each(['first', 'second'])('gives the %s test an empty account of its own', async () => {
    expect(await groupNames()).toEqual([])
    expect(await allInstances()).toEqual([])

    await createGroup({ name: 'web', desired: 1, min: 1, max: 1 })

    expect(await groupNames()).toEqual(['web'])
    const vpcs = await ec2().send(new DescribeVpcsCommand({}))
    expect(new Set(vpcs.Vpcs?.map((vpc) => vpc.OwnerId))).toEqual(new Set([account().accountId]))
    expect(account().accountId).not.toBe(TESTING_CREDENTIALS.accountId)
  })
})
