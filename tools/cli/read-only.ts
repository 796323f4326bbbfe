/**
 * A CloudPort that can only read. `plan` runs the replacer with DRY_RUN forced, which already issues no
 * write; this guard makes that a property of the wiring rather than of the engine's code paths.
 */
import { type CloudPort, PORT_WRITES } from '../../lambdas/core/port.ts'

export class ReadOnlyViolationError extends Error {
  override readonly name = 'ReadOnlyViolationError'
}

export const readOnly = (cloud: CloudPort): CloudPort => {
  const refuse = (method: string) => () =>
    Promise.reject(new ReadOnlyViolationError(`spotswap plan never writes, but ${method} was called`))
  return {
    region: cloud.region,
    describeGroups: (query) => cloud.describeGroups(query),
    describeInstances: (ids, options) => cloud.describeInstances(ids, options),
    describeLaunchedSpotInstances: () => cloud.describeLaunchedSpotInstances(),
    describeInstanceTypes: () => cloud.describeInstanceTypes(),
    describeSpotPrices: (description, now) => cloud.describeSpotPrices(description, now),
    onDemandPrices: (platform) => cloud.onDemandPrices(platform),
    terminationProtected: (ids) => cloud.terminationProtected(ids),
    stackStatuses: (names) => cloud.stackStatuses(names),
    lifecycleHooks: (name) => cloud.lifecycleHooks(name),
    instanceRefreshes: (name) => cloud.instanceRefreshes(name),
    groupOfInstances: (ids) => cloud.groupOfInstances(ids),
    subnetZones: (ids) => cloud.subnetZones(ids),
    spotRequestStatuses: (ids) => cloud.spotRequestStatuses(ids),
    scalingActivities: (name, since) => cloud.scalingActivities(name, since),
    verifyMarkers: (markers) => cloud.verifyMarkers(markers),
    ...Object.fromEntries(PORT_WRITES.map((method) => [method, refuse(method)])),
  } as CloudPort
}
