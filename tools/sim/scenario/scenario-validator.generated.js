// Generated from scenarios/scenario.schema.json by `npm run generate:scenario-validator`
// (tools/sim/scenario/validator-source.ts). Do not edit: change the schema and regenerate;
// test/sim/scenario-validator.test.ts fails while this file is stale.
import { createRequire } from 'node:module'

// Ajv's standalone ESM output still loads its runtime helpers (string length, deep equality) with require.
const require = createRequire(import.meta.url)

"use strict";
export const validate = validate20;
export default validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://github.com/spotswap/spotswap/scenarios/scenario.schema.json","description":"An offline AWS account for `spotswap simulate`: regions, Auto Scaling groups, spot prices and capacity, the engine's environment, and what happens over time. Times are ISO 8601 with a zone. The same seed gives the same report, byte for byte. See docs/simulator.md.","type":"object","additionalProperties":false,"required":["name","seed","start","durationHours","scheduleMinutes","regions"],"properties":{"$schema":{"type":"string"},"name":{"type":"string","minLength":1,"description":"Named in the report."},"description":{"type":"string","minLength":1},"seed":{"type":"integer","minimum":0,"maximum":4294967295,"description":"Seeds every random choice (faults, interruption victims, scale-in victims, backoff jitter)."},"start":{"$ref":"#/$defs/time","description":"When simulated time starts. The embedded spot prices are those of 2022-05-31 18:00Z-24:00Z; later, each pool keeps its last price."},"durationHours":{"type":"number","exclusiveMinimum":0,"maximum":8784},"scheduleMinutes":{"type":"integer","minimum":1,"maximum":1440,"description":"Minutes between replacer runs; also SCHEDULE_MINUTES unless env sets it."},"env":{"type":"object","description":"The replacer's and interruption handler's environment variables (TAG_FILTERS, MIN_ON_DEMAND_NUMBER, DRY_RUN, ...).","additionalProperties":{"type":"string","title":"a string (environment variables are strings)"}},"regions":{"type":"object","title":"an object of at least one region","minProperties":1,"propertyNames":{"$ref":"#/$defs/regionName"},"additionalProperties":{"$ref":"#/$defs/region"}},"faults":{"type":"object","additionalProperties":false,"properties":{"apiErrorRate":{"type":"number","minimum":0,"maximum":1,"default":0,"description":"Probability that an API request fails with a server-side error (as seen after the SDK's retries)."},"throttle":{"type":"boolean","default":true,"description":"Apply EC2's published API token buckets, with the SDK's retries and backoff."},"crashRate":{"type":"number","minimum":0,"maximum":1,"default":0,"description":"Probability that the calling Lambda process dies at an API request (half before it takes effect, half after)."}}},"interruptions":{"type":"array","description":"Scripted spot interruptions: at `at`, EC2 warns `count` in-service spot members of `group` and interrupts them two minutes later.","items":{"type":"object","additionalProperties":false,"required":["at","group","count"],"properties":{"at":{"$ref":"#/$defs/time"},"group":{"type":"string","minLength":1},"count":{"type":"integer","minimum":1,"maximum":10000}}}},"scheduledEvents":{"type":"array","description":"EC2 scheduled events: at `at`, EC2 schedules `code` on `count` in-service members of `group` (of `lifecycle`, default on-demand), NotBefore `leadMinutes` later. At NotBefore a stop or retirement stops a member still running and Auto Scaling replaces it; for a reboot or maintenance Auto Scaling replaces the member too (it counts any due event as unhealthy), unless HealthCheck, ReplaceUnhealthy or Terminate is suspended: then it goes offline (60 s for instance-reboot, 300 s otherwise) and serves again.","items":{"type":"object","additionalProperties":false,"required":["at","group","count","code","leadMinutes"],"properties":{"at":{"$ref":"#/$defs/time"},"group":{"type":"string","minLength":1},"count":{"type":"integer","minimum":1,"maximum":10000},"code":{"enum":["instance-retirement","instance-stop","instance-reboot","system-reboot","system-maintenance"]},"leadMinutes":{"type":"integer","minimum":0,"maximum":43200},"lifecycle":{"enum":["on-demand","spot"]}}}}},"$defs":{"time":{"type":"string","title":"an ISO 8601 time with a zone, e.g. \"2022-05-31T18:00:00Z\"","pattern":"^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$"},"price":{"type":"number","exclusiveMinimum":0,"maximum":1000},"regionName":{"type":"string","title":"a region name such as \"us-east-1\"","pattern":"^[a-z]{2}(-[a-z]+)+-\\d$"},"zoneName":{"type":"string","title":"a zone name such as \"us-east-1a\"","pattern":"^[a-z]{2}(-[a-z]+)+-\\d[a-z]$"},"poolKey":{"type":"string","title":"\"<instance type>/<zone>\"","pattern":"^[a-z0-9-]+\\.[a-z0-9-]+/[a-z]{2}(-[a-z]+)+-\\d[a-z]$"},"region":{"type":"object","additionalProperties":false,"required":["zones","groups"],"properties":{"zones":{"type":"array","minItems":1,"uniqueItems":true,"items":{"$ref":"#/$defs/zoneName"},"description":"The region's zones; every group spans all of them."},"spotPrices":{"type":"object","description":"Overrides of the embedded spot prices: type -> zone -> a constant USD/hour or [[time, price], ...] steps. A pool without a price is not offered as spot.","additionalProperties":{"type":"object","additionalProperties":{"if":{"type":"number"},"then":{"$ref":"#/$defs/price"},"else":{"type":"array","title":"a price in USD/hour or [[<ISO time>, <price>], ...]","minItems":1,"items":{"type":"array","title":"[<ISO time>, <price>]","prefixItems":[{"$ref":"#/$defs/time"},{"$ref":"#/$defs/price"}],"minItems":2,"maxItems":2}}}}},"capacity":{"type":"object","description":"Spot capacity per pool (`<type>/<zone>`). Pools not listed always have capacity.","propertyNames":{"$ref":"#/$defs/poolKey"},"additionalProperties":{"type":"object","if":{"required":["available"],"properties":{"available":true}},"then":{"additionalProperties":false,"properties":{"available":{"const":false,"title":"false (a pool with a trace is available when the trace says so)"}}},"else":{"type":"object","additionalProperties":false,"required":["trace"],"properties":{"trace":{"type":"string","minLength":1,"description":"An embedded trace name (e.g. preemption/1-node/aws-04-22-2023/us-west-2b_v100_1) or a file, relative to the scenario, in the spot-traces JSON format."},"startIndex":{"type":"integer","minimum":0,"default":0}}}}},"groups":{"type":"array","items":{"$ref":"#/$defs/group"}},"commitments":{"$ref":"#/$defs/commitments"}}},"commitments":{"type":"object","additionalProperties":false,"description":"What the account has committed to in this region, and the on-demand usage outside any group that competes for it. Billed each clock hour in AWS's order (docs/simulator.md).","properties":{"reservedInstances":{"type":"array","items":{"$ref":"#/$defs/reservedInstances"}},"savingsPlans":{"type":"array","items":{"$ref":"#/$defs/savingsPlan"}},"capacityReservations":{"type":"array","items":{"$ref":"#/$defs/capacityReservation"}},"unmanagedUsage":{"type":"array","items":{"$ref":"#/$defs/unmanagedUsage"}}}},"platform":{"enum":["Linux/UNIX","Windows","Red Hat Enterprise Linux","SUSE Linux"],"default":"Linux/UNIX"},"tenancy":{"enum":["default","dedicated"],"default":"default"},"reservedInstances":{"type":"object","additionalProperties":false,"required":["type","count"],"properties":{"type":{"type":"string","minLength":1,"description":"An instance type of the embedded catalogue."},"count":{"type":"integer","minimum":1,"maximum":10000},"zone":{"$ref":"#/$defs/zoneName","description":"A zonal RI's zone; without it the RI is regional."},"platform":{"$ref":"#/$defs/platform"},"tenancy":{"$ref":"#/$defs/tenancy"},"hourlyRateUsd":{"type":"number","minimum":0,"maximum":1000,"description":"What one costs per hour, upfront amortised; default 60% of the on-demand price."},"start":{"$ref":"#/$defs/time","description":"Default: the scenario's start."},"end":{"$ref":"#/$defs/time","description":"Default: never (after the run)."}}},"savingsPlan":{"type":"object","additionalProperties":false,"required":["kind","hourlyCommitmentUsd"],"properties":{"kind":{"enum":["compute","ec2-instance"]},"family":{"type":"string","pattern":"^[a-z][a-z0-9-]*$","description":"An EC2 Instance plan's family (required for one, refused for a Compute plan)."},"hourlyCommitmentUsd":{"type":"number","exclusiveMinimum":0,"maximum":100000,"description":"For a Compute plan, the share this region may use."},"discount":{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":1,"description":"Fraction off the on-demand price for types `rates` does not list; default 0.28 (compute) or 0.4 (ec2-instance)."},"rates":{"type":"object","description":"Instance type -> the plan's USD/hour for it (Linux/UNIX, default tenancy).","additionalProperties":{"$ref":"#/$defs/price"}},"start":{"$ref":"#/$defs/time"},"end":{"$ref":"#/$defs/time"}}},"capacityReservation":{"type":"object","additionalProperties":false,"required":["type","zone","count"],"properties":{"type":{"type":"string","minLength":1},"zone":{"$ref":"#/$defs/zoneName"},"count":{"type":"integer","minimum":1,"maximum":10000},"platform":{"$ref":"#/$defs/platform"},"tenancy":{"$ref":"#/$defs/tenancy"},"matchCriteria":{"enum":["open","targeted"],"default":"open"},"start":{"$ref":"#/$defs/time"},"end":{"$ref":"#/$defs/time"}}},"unmanagedUsage":{"type":"object","additionalProperties":false,"required":["type","zone","count"],"description":"On-demand instances no group of the scenario holds (another team's, a database): billed, and first in line for the commitments when spotswap decides.","properties":{"type":{"type":"string","minLength":1},"zone":{"$ref":"#/$defs/zoneName"},"count":{"type":"integer","minimum":1,"maximum":10000},"platform":{"$ref":"#/$defs/platform"},"tenancy":{"$ref":"#/$defs/tenancy"},"start":{"$ref":"#/$defs/time"},"end":{"$ref":"#/$defs/time"}}},"group":{"type":"object","additionalProperties":false,"required":["name","instanceType","min","max","desired"],"properties":{"name":{"type":"string","title":"a group name of 1 to 255 characters without ':'","pattern":"^[^:]{1,255}$","description":"Unique in the scenario."},"instanceType":{"type":"string","minLength":1,"description":"The type of its launch template or configuration; must be in the embedded catalogue with an on-demand price."},"min":{"type":"integer","minimum":0,"maximum":10000},"max":{"type":"integer","minimum":0,"maximum":10000},"desired":{"type":"integer","minimum":0,"maximum":10000},"tags":{"type":"object","description":"Group tags, all propagated at launch (spot-enabled, autospotting_* settings, ...).","propertyNames":{"type":"string","title":"a tag key of 1 to 128 characters","minLength":1,"maxLength":128},"additionalProperties":{"type":"string","maxLength":256}},"healthCheckGracePeriod":{"type":"integer","minimum":0,"maximum":86400,"default":300},"launch":{"enum":["template","configuration"],"default":"template"},"terminationHook":{"type":"boolean","default":false,"description":"An autoscaling:EC2_INSTANCE_TERMINATING hook that holds terminating instances for 90 s."},"protectedFromScaleIn":{"type":"integer","minimum":0,"default":0,"description":"The first n initial instances are protected from scale-in."},"terminationProtected":{"type":"integer","minimum":0,"default":0,"description":"The first n initial instances have API termination protection (DisableApiTermination)."},"desiredSchedule":{"type":"array","description":"The owner's scaling: [[time, desired], ...].","items":{"type":"array","title":"[<ISO time>, <desired>]","prefixItems":[{"$ref":"#/$defs/time"},{"type":"integer","minimum":0,"maximum":10000}],"minItems":2,"maxItems":2}},"loadBalancers":{"type":"array","maxItems":50,"description":"The group's target groups and classic load balancers. Auto Scaling registers a member when it is InService (attached instances at once); it serves once the health checks pass (interval × healthy threshold after it is registered and booted). Leaving the group (detach, termination) deregisters it: it drains for the deregistration delay (at once if it never served), and a member Auto Scaling terminates runs, billed, until it has drained.","items":{"$ref":"#/$defs/loadBalancer"}},"unhealthyReplacementFraction":{"type":"number","minimum":0,"maximum":1,"default":0,"description":"The share of the spot instances spotswap launches for the group that never pass a load balancer health check (a broken image), drawn from the scenario's seed. Only groups with load balancers can tell."},"image":{"type":"object","additionalProperties":false,"description":"What the group's AMI carries. EC2 refuses to launch a type that requires ENA from an image without EnaSupport (InvalidParameterCombination); a Nitro type shows EBS volumes as NVMe devices, so an image without NVMe drivers launches there and never passes a health check.","properties":{"enaSupport":{"type":"boolean","default":true,"description":"The AMI's EnaSupport attribute."},"nvmeDrivers":{"type":"boolean","default":true,"description":"Whether the image boots with EBS volumes as NVMe devices."}}},"launchHook":{"type":"boolean","default":false,"description":"An autoscaling:EC2_INSTANCE_LAUNCHING hook: members Auto Scaling launches wait 120 s in Pending:Wait; attached instances skip it."},"suspendedProcesses":{"type":"array","default":[],"uniqueItems":true,"description":"Auto Scaling processes suspended for the whole run. Launch stops launches, Terminate stops scale-in, AddToLoadBalancer stops registrations; the others are named only.","items":{"enum":["Launch","Terminate","AddToLoadBalancer","HealthCheck","ReplaceUnhealthy","AZRebalance","AlarmNotification","ScheduledActions","InstanceRefresh"]}},"capacityRebalance":{"type":"boolean","default":false,"description":"CapacityRebalance: Auto Scaling replaces a spot member given a rebalance recommendation or an interruption warning, and lets it go once the replacement is in service."},"warmPool":{"type":"object","additionalProperties":false,"required":["minSize"],"description":"A warm pool of stopped on-demand instances beside the group: not members, drawn on first when it scales out, refilled to minSize.","properties":{"minSize":{"type":"integer","minimum":0,"maximum":100}}},"instanceRefreshes":{"type":"array","default":[],"description":"When instance refreshes start: each is Pending for 60 s, then InProgress, replacing every member launched before it one at a time (the new one in service first), then Successful.","items":{"$ref":"#/$defs/time"}},"instanceRefreshesUnreadable":{"type":"boolean","default":false,"description":"DescribeInstanceRefreshes fails for the group with HTTP 500, as moto answers it."},"ecs":{"type":"object","additionalProperties":false,"description":"The group stands behind an ECS capacity provider: it carries the AmazonECSManaged tag, DescribeCapacityProviders lists a provider naming it, and a cluster runs on its members (docs/simulator.md): each running member registers a container instance, the services' tasks are placed on them, and the first protectedFromScaleIn initial members each run a standalone task, which ECS never moves. With managed termination protection, ECS protects a member while it runs tasks.","properties":{"managedTerminationProtection":{"type":"boolean","default":true},"managedDraining":{"type":"boolean","default":true},"slotsPerInstance":{"type":"integer","minimum":1,"maximum":100,"default":4,"description":"Tasks one container instance runs at most."},"managedScaling":{"type":"object","additionalProperties":false,"description":"The capacity provider's managed scaling, on: ECS publishes CapacityProviderReservation (instances the tasks need against the instances running) every minute and a target tracking policy moves the group's desired capacity to keep it at targetCapacity (docs/simulator.md). Absent: off, desired capacity moves only as the owner sets it.","properties":{"targetCapacity":{"type":"integer","minimum":1,"maximum":100,"default":100},"minimumScalingStepSize":{"type":"integer","minimum":1,"maximum":10000,"default":1},"maximumScalingStepSize":{"type":"integer","minimum":1,"maximum":10000,"default":10000},"instanceWarmupPeriod":{"type":"integer","minimum":0,"maximum":10000,"default":300,"description":"Seconds after its launch before a new instance counts in the metric; no further scale-out while one is warming up."}}},"services":{"type":"array","default":[],"items":{"type":"object","additionalProperties":false,"required":["name","desiredCount"],"properties":{"name":{"type":"string","minLength":1},"desiredCount":{"type":"integer","minimum":0,"maximum":10000},"minimumHealthyPercent":{"type":"integer","minimum":0,"maximum":100,"default":100},"maximumPercent":{"type":"integer","minimum":100,"maximum":200,"default":200},"deregistrationDelaySeconds":{"type":"integer","minimum":0,"maximum":3600,"default":300,"description":"How long a stopped task drains from its load balancer before it is gone."},"placementStrategy":{"enum":["spread","binpack"],"default":"spread","description":"Where ECS places the service's tasks: spread (the instance with the fewest of the service's tasks, then the fewest tasks) or binpack on task slots (the fullest instance with a free slot; a scale-in stops tasks on the emptiest instance first, so instances empty out)."},"desiredSchedule":{"type":"array","description":"The owner's changes of the service's desired count: [[time, count], ...].","items":{"type":"array","title":"[<ISO time>, <desired count>]","prefixItems":[{"$ref":"#/$defs/time"},{"type":"integer","minimum":0,"maximum":10000}],"minItems":2,"maxItems":2}}}}}}}}},"loadBalancer":{"type":"object","additionalProperties":false,"required":["type"],"properties":{"type":{"enum":["target-group","classic"],"description":"An Elastic Load Balancing v2 target group (DescribeTargetHealth) or a classic load balancer (DescribeInstanceHealth)."},"healthCheckIntervalSeconds":{"type":"integer","minimum":5,"maximum":300,"default":30},"healthyThreshold":{"type":"integer","minimum":2,"maximum":10,"description":"Consecutive successful health checks before a registered instance is healthy. Default: 5 for a target group, 10 for a classic load balancer (AWS's defaults)."},"deregistrationDelaySeconds":{"type":"integer","minimum":0,"maximum":3600,"default":300,"description":"How long a deregistered instance drains (a classic load balancer's connection draining timeout)."}}}}};
const schema32 = {"type":"string","title":"an ISO 8601 time with a zone, e.g. \"2022-05-31T18:00:00Z\"","pattern":"^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$"};
const schema33 = {"type":"string","title":"a region name such as \"us-east-1\"","pattern":"^[a-z]{2}(-[a-z]+)+-\\d$"};
const func1 = Object.prototype.hasOwnProperty;
const func2 = require("ajv/dist/runtime/ucs2length").default;
const pattern4 = new RegExp("^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$", "u");
const pattern5 = new RegExp("^[a-z]{2}(-[a-z]+)+-\\d$", "u");
const schema34 = {"type":"object","additionalProperties":false,"required":["zones","groups"],"properties":{"zones":{"type":"array","minItems":1,"uniqueItems":true,"items":{"$ref":"#/$defs/zoneName"},"description":"The region's zones; every group spans all of them."},"spotPrices":{"type":"object","description":"Overrides of the embedded spot prices: type -> zone -> a constant USD/hour or [[time, price], ...] steps. A pool without a price is not offered as spot.","additionalProperties":{"type":"object","additionalProperties":{"if":{"type":"number"},"then":{"$ref":"#/$defs/price"},"else":{"type":"array","title":"a price in USD/hour or [[<ISO time>, <price>], ...]","minItems":1,"items":{"type":"array","title":"[<ISO time>, <price>]","prefixItems":[{"$ref":"#/$defs/time"},{"$ref":"#/$defs/price"}],"minItems":2,"maxItems":2}}}}},"capacity":{"type":"object","description":"Spot capacity per pool (`<type>/<zone>`). Pools not listed always have capacity.","propertyNames":{"$ref":"#/$defs/poolKey"},"additionalProperties":{"type":"object","if":{"required":["available"],"properties":{"available":true}},"then":{"additionalProperties":false,"properties":{"available":{"const":false,"title":"false (a pool with a trace is available when the trace says so)"}}},"else":{"type":"object","additionalProperties":false,"required":["trace"],"properties":{"trace":{"type":"string","minLength":1,"description":"An embedded trace name (e.g. preemption/1-node/aws-04-22-2023/us-west-2b_v100_1) or a file, relative to the scenario, in the spot-traces JSON format."},"startIndex":{"type":"integer","minimum":0,"default":0}}}}},"groups":{"type":"array","items":{"$ref":"#/$defs/group"}},"commitments":{"$ref":"#/$defs/commitments"}}};
const schema35 = {"type":"string","title":"a zone name such as \"us-east-1a\"","pattern":"^[a-z]{2}(-[a-z]+)+-\\d[a-z]$"};
const schema36 = {"type":"number","exclusiveMinimum":0,"maximum":1000};
const schema39 = {"type":"string","title":"\"<instance type>/<zone>\"","pattern":"^[a-z0-9-]+\\.[a-z0-9-]+/[a-z]{2}(-[a-z]+)+-\\d[a-z]$"};
const pattern6 = new RegExp("^[a-z]{2}(-[a-z]+)+-\\d[a-z]$", "u");
const pattern8 = new RegExp("^[a-z0-9-]+\\.[a-z0-9-]+/[a-z]{2}(-[a-z]+)+-\\d[a-z]$", "u");
const func0 = require("ajv/dist/runtime/equal").default;
const schema40 = {"type":"object","additionalProperties":false,"required":["name","instanceType","min","max","desired"],"properties":{"name":{"type":"string","title":"a group name of 1 to 255 characters without ':'","pattern":"^[^:]{1,255}$","description":"Unique in the scenario."},"instanceType":{"type":"string","minLength":1,"description":"The type of its launch template or configuration; must be in the embedded catalogue with an on-demand price."},"min":{"type":"integer","minimum":0,"maximum":10000},"max":{"type":"integer","minimum":0,"maximum":10000},"desired":{"type":"integer","minimum":0,"maximum":10000},"tags":{"type":"object","description":"Group tags, all propagated at launch (spot-enabled, autospotting_* settings, ...).","propertyNames":{"type":"string","title":"a tag key of 1 to 128 characters","minLength":1,"maxLength":128},"additionalProperties":{"type":"string","maxLength":256}},"healthCheckGracePeriod":{"type":"integer","minimum":0,"maximum":86400,"default":300},"launch":{"enum":["template","configuration"],"default":"template"},"terminationHook":{"type":"boolean","default":false,"description":"An autoscaling:EC2_INSTANCE_TERMINATING hook that holds terminating instances for 90 s."},"protectedFromScaleIn":{"type":"integer","minimum":0,"default":0,"description":"The first n initial instances are protected from scale-in."},"terminationProtected":{"type":"integer","minimum":0,"default":0,"description":"The first n initial instances have API termination protection (DisableApiTermination)."},"desiredSchedule":{"type":"array","description":"The owner's scaling: [[time, desired], ...].","items":{"type":"array","title":"[<ISO time>, <desired>]","prefixItems":[{"$ref":"#/$defs/time"},{"type":"integer","minimum":0,"maximum":10000}],"minItems":2,"maxItems":2}},"loadBalancers":{"type":"array","maxItems":50,"description":"The group's target groups and classic load balancers. Auto Scaling registers a member when it is InService (attached instances at once); it serves once the health checks pass (interval × healthy threshold after it is registered and booted). Leaving the group (detach, termination) deregisters it: it drains for the deregistration delay (at once if it never served), and a member Auto Scaling terminates runs, billed, until it has drained.","items":{"$ref":"#/$defs/loadBalancer"}},"unhealthyReplacementFraction":{"type":"number","minimum":0,"maximum":1,"default":0,"description":"The share of the spot instances spotswap launches for the group that never pass a load balancer health check (a broken image), drawn from the scenario's seed. Only groups with load balancers can tell."},"image":{"type":"object","additionalProperties":false,"description":"What the group's AMI carries. EC2 refuses to launch a type that requires ENA from an image without EnaSupport (InvalidParameterCombination); a Nitro type shows EBS volumes as NVMe devices, so an image without NVMe drivers launches there and never passes a health check.","properties":{"enaSupport":{"type":"boolean","default":true,"description":"The AMI's EnaSupport attribute."},"nvmeDrivers":{"type":"boolean","default":true,"description":"Whether the image boots with EBS volumes as NVMe devices."}}},"launchHook":{"type":"boolean","default":false,"description":"An autoscaling:EC2_INSTANCE_LAUNCHING hook: members Auto Scaling launches wait 120 s in Pending:Wait; attached instances skip it."},"suspendedProcesses":{"type":"array","default":[],"uniqueItems":true,"description":"Auto Scaling processes suspended for the whole run. Launch stops launches, Terminate stops scale-in, AddToLoadBalancer stops registrations; the others are named only.","items":{"enum":["Launch","Terminate","AddToLoadBalancer","HealthCheck","ReplaceUnhealthy","AZRebalance","AlarmNotification","ScheduledActions","InstanceRefresh"]}},"capacityRebalance":{"type":"boolean","default":false,"description":"CapacityRebalance: Auto Scaling replaces a spot member given a rebalance recommendation or an interruption warning, and lets it go once the replacement is in service."},"warmPool":{"type":"object","additionalProperties":false,"required":["minSize"],"description":"A warm pool of stopped on-demand instances beside the group: not members, drawn on first when it scales out, refilled to minSize.","properties":{"minSize":{"type":"integer","minimum":0,"maximum":100}}},"instanceRefreshes":{"type":"array","default":[],"description":"When instance refreshes start: each is Pending for 60 s, then InProgress, replacing every member launched before it one at a time (the new one in service first), then Successful.","items":{"$ref":"#/$defs/time"}},"instanceRefreshesUnreadable":{"type":"boolean","default":false,"description":"DescribeInstanceRefreshes fails for the group with HTTP 500, as moto answers it."},"ecs":{"type":"object","additionalProperties":false,"description":"The group stands behind an ECS capacity provider: it carries the AmazonECSManaged tag, DescribeCapacityProviders lists a provider naming it, and a cluster runs on its members (docs/simulator.md): each running member registers a container instance, the services' tasks are placed on them, and the first protectedFromScaleIn initial members each run a standalone task, which ECS never moves. With managed termination protection, ECS protects a member while it runs tasks.","properties":{"managedTerminationProtection":{"type":"boolean","default":true},"managedDraining":{"type":"boolean","default":true},"slotsPerInstance":{"type":"integer","minimum":1,"maximum":100,"default":4,"description":"Tasks one container instance runs at most."},"managedScaling":{"type":"object","additionalProperties":false,"description":"The capacity provider's managed scaling, on: ECS publishes CapacityProviderReservation (instances the tasks need against the instances running) every minute and a target tracking policy moves the group's desired capacity to keep it at targetCapacity (docs/simulator.md). Absent: off, desired capacity moves only as the owner sets it.","properties":{"targetCapacity":{"type":"integer","minimum":1,"maximum":100,"default":100},"minimumScalingStepSize":{"type":"integer","minimum":1,"maximum":10000,"default":1},"maximumScalingStepSize":{"type":"integer","minimum":1,"maximum":10000,"default":10000},"instanceWarmupPeriod":{"type":"integer","minimum":0,"maximum":10000,"default":300,"description":"Seconds after its launch before a new instance counts in the metric; no further scale-out while one is warming up."}}},"services":{"type":"array","default":[],"items":{"type":"object","additionalProperties":false,"required":["name","desiredCount"],"properties":{"name":{"type":"string","minLength":1},"desiredCount":{"type":"integer","minimum":0,"maximum":10000},"minimumHealthyPercent":{"type":"integer","minimum":0,"maximum":100,"default":100},"maximumPercent":{"type":"integer","minimum":100,"maximum":200,"default":200},"deregistrationDelaySeconds":{"type":"integer","minimum":0,"maximum":3600,"default":300,"description":"How long a stopped task drains from its load balancer before it is gone."},"placementStrategy":{"enum":["spread","binpack"],"default":"spread","description":"Where ECS places the service's tasks: spread (the instance with the fewest of the service's tasks, then the fewest tasks) or binpack on task slots (the fullest instance with a free slot; a scale-in stops tasks on the emptiest instance first, so instances empty out)."},"desiredSchedule":{"type":"array","description":"The owner's changes of the service's desired count: [[time, count], ...].","items":{"type":"array","title":"[<ISO time>, <desired count>]","prefixItems":[{"$ref":"#/$defs/time"},{"type":"integer","minimum":0,"maximum":10000}],"minItems":2,"maxItems":2}}}}}}}}};
const schema42 = {"type":"object","additionalProperties":false,"required":["type"],"properties":{"type":{"enum":["target-group","classic"],"description":"An Elastic Load Balancing v2 target group (DescribeTargetHealth) or a classic load balancer (DescribeInstanceHealth)."},"healthCheckIntervalSeconds":{"type":"integer","minimum":5,"maximum":300,"default":30},"healthyThreshold":{"type":"integer","minimum":2,"maximum":10,"description":"Consecutive successful health checks before a registered instance is healthy. Default: 5 for a target group, 10 for a classic load balancer (AWS's defaults)."},"deregistrationDelaySeconds":{"type":"integer","minimum":0,"maximum":3600,"default":300,"description":"How long a deregistered instance drains (a classic load balancer's connection draining timeout)."}}};
const pattern9 = new RegExp("^[^:]{1,255}$", "u");

function validate22(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate22.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.name === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "name"},message:"must have required property '"+"name"+"'",schema:schema40.required,parentSchema:schema40,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.instanceType === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "instanceType"},message:"must have required property '"+"instanceType"+"'",schema:schema40.required,parentSchema:schema40,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.min === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "min"},message:"must have required property '"+"min"+"'",schema:schema40.required,parentSchema:schema40,data};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data.max === undefined){
const err3 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "max"},message:"must have required property '"+"max"+"'",schema:schema40.required,parentSchema:schema40,data};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(data.desired === undefined){
const err4 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "desired"},message:"must have required property '"+"desired"+"'",schema:schema40.required,parentSchema:schema40,data};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
for(const key0 in data){
if(!(func1.call(schema40.properties, key0))){
const err5 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema40,data};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.name !== undefined){
let data0 = data.name;
if(typeof data0 === "string"){
if(!pattern9.test(data0)){
const err6 = {instancePath:instancePath+"/name",schemaPath:"#/properties/name/pattern",keyword:"pattern",params:{pattern: "^[^:]{1,255}$"},message:"must match pattern \""+"^[^:]{1,255}$"+"\"",schema:"^[^:]{1,255}$",parentSchema:schema40.properties.name,data:data0};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
else {
const err7 = {instancePath:instancePath+"/name",schemaPath:"#/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema40.properties.name.type,parentSchema:schema40.properties.name,data:data0};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.instanceType !== undefined){
let data1 = data.instanceType;
if(typeof data1 === "string"){
if(func2(data1) < 1){
const err8 = {instancePath:instancePath+"/instanceType",schemaPath:"#/properties/instanceType/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema40.properties.instanceType,data:data1};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
else {
const err9 = {instancePath:instancePath+"/instanceType",schemaPath:"#/properties/instanceType/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema40.properties.instanceType.type,parentSchema:schema40.properties.instanceType,data:data1};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data.min !== undefined){
let data2 = data.min;
if(!(((typeof data2 == "number") && (!(data2 % 1) && !isNaN(data2))) && (isFinite(data2)))){
const err10 = {instancePath:instancePath+"/min",schemaPath:"#/properties/min/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema40.properties.min.type,parentSchema:schema40.properties.min,data:data2};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
if((typeof data2 == "number") && (isFinite(data2))){
if(data2 > 10000 || isNaN(data2)){
const err11 = {instancePath:instancePath+"/min",schemaPath:"#/properties/min/maximum",keyword:"maximum",params:{comparison: "<=", limit: 10000},message:"must be <= 10000",schema:10000,parentSchema:schema40.properties.min,data:data2};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
if(data2 < 0 || isNaN(data2)){
const err12 = {instancePath:instancePath+"/min",schemaPath:"#/properties/min/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema40.properties.min,data:data2};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
}
if(data.max !== undefined){
let data3 = data.max;
if(!(((typeof data3 == "number") && (!(data3 % 1) && !isNaN(data3))) && (isFinite(data3)))){
const err13 = {instancePath:instancePath+"/max",schemaPath:"#/properties/max/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema40.properties.max.type,parentSchema:schema40.properties.max,data:data3};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
if((typeof data3 == "number") && (isFinite(data3))){
if(data3 > 10000 || isNaN(data3)){
const err14 = {instancePath:instancePath+"/max",schemaPath:"#/properties/max/maximum",keyword:"maximum",params:{comparison: "<=", limit: 10000},message:"must be <= 10000",schema:10000,parentSchema:schema40.properties.max,data:data3};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
if(data3 < 0 || isNaN(data3)){
const err15 = {instancePath:instancePath+"/max",schemaPath:"#/properties/max/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema40.properties.max,data:data3};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
}
if(data.desired !== undefined){
let data4 = data.desired;
if(!(((typeof data4 == "number") && (!(data4 % 1) && !isNaN(data4))) && (isFinite(data4)))){
const err16 = {instancePath:instancePath+"/desired",schemaPath:"#/properties/desired/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema40.properties.desired.type,parentSchema:schema40.properties.desired,data:data4};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
if((typeof data4 == "number") && (isFinite(data4))){
if(data4 > 10000 || isNaN(data4)){
const err17 = {instancePath:instancePath+"/desired",schemaPath:"#/properties/desired/maximum",keyword:"maximum",params:{comparison: "<=", limit: 10000},message:"must be <= 10000",schema:10000,parentSchema:schema40.properties.desired,data:data4};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
if(data4 < 0 || isNaN(data4)){
const err18 = {instancePath:instancePath+"/desired",schemaPath:"#/properties/desired/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema40.properties.desired,data:data4};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
}
if(data.tags !== undefined){
let data5 = data.tags;
if(data5 && typeof data5 == "object" && !Array.isArray(data5)){
for(const key1 in data5){
const _errs14 = errors;
if(typeof key1 === "string"){
if(func2(key1) > 128){
const err19 = {instancePath:instancePath+"/tags",schemaPath:"#/properties/tags/propertyNames/maxLength",keyword:"maxLength",params:{limit: 128},message:"must NOT have more than 128 characters",schema:128,parentSchema:schema40.properties.tags.propertyNames,data:key1,propertyName:key1};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
if(func2(key1) < 1){
const err20 = {instancePath:instancePath+"/tags",schemaPath:"#/properties/tags/propertyNames/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema40.properties.tags.propertyNames,data:key1,propertyName:key1};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
else {
const err21 = {instancePath:instancePath+"/tags",schemaPath:"#/properties/tags/propertyNames/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema40.properties.tags.propertyNames.type,parentSchema:schema40.properties.tags.propertyNames,data:key1,propertyName:key1};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
var valid1 = _errs14 === errors;
if(!valid1){
const err22 = {instancePath:instancePath+"/tags",schemaPath:"#/properties/tags/propertyNames",keyword:"propertyNames",params:{propertyName: key1},message:"property name must be valid",schema:schema40.properties.tags.propertyNames,parentSchema:schema40.properties.tags,data:data5};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
for(const key2 in data5){
let data6 = data5[key2];
if(typeof data6 === "string"){
if(func2(data6) > 256){
const err23 = {instancePath:instancePath+"/tags/" + key2.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/tags/additionalProperties/maxLength",keyword:"maxLength",params:{limit: 256},message:"must NOT have more than 256 characters",schema:256,parentSchema:schema40.properties.tags.additionalProperties,data:data6};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
}
else {
const err24 = {instancePath:instancePath+"/tags/" + key2.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/tags/additionalProperties/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema40.properties.tags.additionalProperties.type,parentSchema:schema40.properties.tags.additionalProperties,data:data6};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
}
}
else {
const err25 = {instancePath:instancePath+"/tags",schemaPath:"#/properties/tags/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema40.properties.tags.type,parentSchema:schema40.properties.tags,data:data5};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
}
if(data.healthCheckGracePeriod !== undefined){
let data7 = data.healthCheckGracePeriod;
if(!(((typeof data7 == "number") && (!(data7 % 1) && !isNaN(data7))) && (isFinite(data7)))){
const err26 = {instancePath:instancePath+"/healthCheckGracePeriod",schemaPath:"#/properties/healthCheckGracePeriod/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema40.properties.healthCheckGracePeriod.type,parentSchema:schema40.properties.healthCheckGracePeriod,data:data7};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
}
if((typeof data7 == "number") && (isFinite(data7))){
if(data7 > 86400 || isNaN(data7)){
const err27 = {instancePath:instancePath+"/healthCheckGracePeriod",schemaPath:"#/properties/healthCheckGracePeriod/maximum",keyword:"maximum",params:{comparison: "<=", limit: 86400},message:"must be <= 86400",schema:86400,parentSchema:schema40.properties.healthCheckGracePeriod,data:data7};
if(vErrors === null){
vErrors = [err27];
}
else {
vErrors.push(err27);
}
errors++;
}
if(data7 < 0 || isNaN(data7)){
const err28 = {instancePath:instancePath+"/healthCheckGracePeriod",schemaPath:"#/properties/healthCheckGracePeriod/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema40.properties.healthCheckGracePeriod,data:data7};
if(vErrors === null){
vErrors = [err28];
}
else {
vErrors.push(err28);
}
errors++;
}
}
}
if(data.launch !== undefined){
let data8 = data.launch;
if(!((data8 === "template") || (data8 === "configuration"))){
const err29 = {instancePath:instancePath+"/launch",schemaPath:"#/properties/launch/enum",keyword:"enum",params:{allowedValues: schema40.properties.launch.enum},message:"must be equal to one of the allowed values",schema:schema40.properties.launch.enum,parentSchema:schema40.properties.launch,data:data8};
if(vErrors === null){
vErrors = [err29];
}
else {
vErrors.push(err29);
}
errors++;
}
}
if(data.terminationHook !== undefined){
let data9 = data.terminationHook;
if(typeof data9 !== "boolean"){
const err30 = {instancePath:instancePath+"/terminationHook",schemaPath:"#/properties/terminationHook/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema40.properties.terminationHook.type,parentSchema:schema40.properties.terminationHook,data:data9};
if(vErrors === null){
vErrors = [err30];
}
else {
vErrors.push(err30);
}
errors++;
}
}
if(data.protectedFromScaleIn !== undefined){
let data10 = data.protectedFromScaleIn;
if(!(((typeof data10 == "number") && (!(data10 % 1) && !isNaN(data10))) && (isFinite(data10)))){
const err31 = {instancePath:instancePath+"/protectedFromScaleIn",schemaPath:"#/properties/protectedFromScaleIn/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema40.properties.protectedFromScaleIn.type,parentSchema:schema40.properties.protectedFromScaleIn,data:data10};
if(vErrors === null){
vErrors = [err31];
}
else {
vErrors.push(err31);
}
errors++;
}
if((typeof data10 == "number") && (isFinite(data10))){
if(data10 < 0 || isNaN(data10)){
const err32 = {instancePath:instancePath+"/protectedFromScaleIn",schemaPath:"#/properties/protectedFromScaleIn/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema40.properties.protectedFromScaleIn,data:data10};
if(vErrors === null){
vErrors = [err32];
}
else {
vErrors.push(err32);
}
errors++;
}
}
}
if(data.terminationProtected !== undefined){
let data11 = data.terminationProtected;
if(!(((typeof data11 == "number") && (!(data11 % 1) && !isNaN(data11))) && (isFinite(data11)))){
const err33 = {instancePath:instancePath+"/terminationProtected",schemaPath:"#/properties/terminationProtected/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema40.properties.terminationProtected.type,parentSchema:schema40.properties.terminationProtected,data:data11};
if(vErrors === null){
vErrors = [err33];
}
else {
vErrors.push(err33);
}
errors++;
}
if((typeof data11 == "number") && (isFinite(data11))){
if(data11 < 0 || isNaN(data11)){
const err34 = {instancePath:instancePath+"/terminationProtected",schemaPath:"#/properties/terminationProtected/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema40.properties.terminationProtected,data:data11};
if(vErrors === null){
vErrors = [err34];
}
else {
vErrors.push(err34);
}
errors++;
}
}
}
if(data.desiredSchedule !== undefined){
let data12 = data.desiredSchedule;
if(Array.isArray(data12)){
const len0 = data12.length;
for(let i0=0; i0<len0; i0++){
let data13 = data12[i0];
if(Array.isArray(data13)){
if(data13.length > 2){
const err35 = {instancePath:instancePath+"/desiredSchedule/" + i0,schemaPath:"#/properties/desiredSchedule/items/maxItems",keyword:"maxItems",params:{limit: 2},message:"must NOT have more than 2 items",schema:2,parentSchema:schema40.properties.desiredSchedule.items,data:data13};
if(vErrors === null){
vErrors = [err35];
}
else {
vErrors.push(err35);
}
errors++;
}
if(data13.length < 2){
const err36 = {instancePath:instancePath+"/desiredSchedule/" + i0,schemaPath:"#/properties/desiredSchedule/items/minItems",keyword:"minItems",params:{limit: 2},message:"must NOT have fewer than 2 items",schema:2,parentSchema:schema40.properties.desiredSchedule.items,data:data13};
if(vErrors === null){
vErrors = [err36];
}
else {
vErrors.push(err36);
}
errors++;
}
const len1 = data13.length;
if(len1 > 0){
let data14 = data13[0];
if(typeof data14 === "string"){
if(!pattern4.test(data14)){
const err37 = {instancePath:instancePath+"/desiredSchedule/" + i0+"/0",schemaPath:"#/$defs/time/pattern",keyword:"pattern",params:{pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$"},message:"must match pattern \""+"^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$"+"\"",schema:"^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$",parentSchema:schema32,data:data14};
if(vErrors === null){
vErrors = [err37];
}
else {
vErrors.push(err37);
}
errors++;
}
}
else {
const err38 = {instancePath:instancePath+"/desiredSchedule/" + i0+"/0",schemaPath:"#/$defs/time/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.type,parentSchema:schema32,data:data14};
if(vErrors === null){
vErrors = [err38];
}
else {
vErrors.push(err38);
}
errors++;
}
}
if(len1 > 1){
let data15 = data13[1];
if(!(((typeof data15 == "number") && (!(data15 % 1) && !isNaN(data15))) && (isFinite(data15)))){
const err39 = {instancePath:instancePath+"/desiredSchedule/" + i0+"/1",schemaPath:"#/properties/desiredSchedule/items/prefixItems/1/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema40.properties.desiredSchedule.items.prefixItems[1].type,parentSchema:schema40.properties.desiredSchedule.items.prefixItems[1],data:data15};
if(vErrors === null){
vErrors = [err39];
}
else {
vErrors.push(err39);
}
errors++;
}
if((typeof data15 == "number") && (isFinite(data15))){
if(data15 > 10000 || isNaN(data15)){
const err40 = {instancePath:instancePath+"/desiredSchedule/" + i0+"/1",schemaPath:"#/properties/desiredSchedule/items/prefixItems/1/maximum",keyword:"maximum",params:{comparison: "<=", limit: 10000},message:"must be <= 10000",schema:10000,parentSchema:schema40.properties.desiredSchedule.items.prefixItems[1],data:data15};
if(vErrors === null){
vErrors = [err40];
}
else {
vErrors.push(err40);
}
errors++;
}
if(data15 < 0 || isNaN(data15)){
const err41 = {instancePath:instancePath+"/desiredSchedule/" + i0+"/1",schemaPath:"#/properties/desiredSchedule/items/prefixItems/1/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema40.properties.desiredSchedule.items.prefixItems[1],data:data15};
if(vErrors === null){
vErrors = [err41];
}
else {
vErrors.push(err41);
}
errors++;
}
}
}
}
else {
const err42 = {instancePath:instancePath+"/desiredSchedule/" + i0,schemaPath:"#/properties/desiredSchedule/items/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema40.properties.desiredSchedule.items.type,parentSchema:schema40.properties.desiredSchedule.items,data:data13};
if(vErrors === null){
vErrors = [err42];
}
else {
vErrors.push(err42);
}
errors++;
}
}
}
else {
const err43 = {instancePath:instancePath+"/desiredSchedule",schemaPath:"#/properties/desiredSchedule/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema40.properties.desiredSchedule.type,parentSchema:schema40.properties.desiredSchedule,data:data12};
if(vErrors === null){
vErrors = [err43];
}
else {
vErrors.push(err43);
}
errors++;
}
}
if(data.loadBalancers !== undefined){
let data16 = data.loadBalancers;
if(Array.isArray(data16)){
if(data16.length > 50){
const err44 = {instancePath:instancePath+"/loadBalancers",schemaPath:"#/properties/loadBalancers/maxItems",keyword:"maxItems",params:{limit: 50},message:"must NOT have more than 50 items",schema:50,parentSchema:schema40.properties.loadBalancers,data:data16};
if(vErrors === null){
vErrors = [err44];
}
else {
vErrors.push(err44);
}
errors++;
}
const len2 = data16.length;
for(let i1=0; i1<len2; i1++){
let data17 = data16[i1];
if(data17 && typeof data17 == "object" && !Array.isArray(data17)){
if(data17.type === undefined){
const err45 = {instancePath:instancePath+"/loadBalancers/" + i1,schemaPath:"#/$defs/loadBalancer/required",keyword:"required",params:{missingProperty: "type"},message:"must have required property '"+"type"+"'",schema:schema42.required,parentSchema:schema42,data:data17};
if(vErrors === null){
vErrors = [err45];
}
else {
vErrors.push(err45);
}
errors++;
}
for(const key3 in data17){
if(!((((key3 === "type") || (key3 === "healthCheckIntervalSeconds")) || (key3 === "healthyThreshold")) || (key3 === "deregistrationDelaySeconds"))){
const err46 = {instancePath:instancePath+"/loadBalancers/" + i1,schemaPath:"#/$defs/loadBalancer/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key3},message:"must NOT have additional properties",schema:false,parentSchema:schema42,data:data17};
if(vErrors === null){
vErrors = [err46];
}
else {
vErrors.push(err46);
}
errors++;
}
}
if(data17.type !== undefined){
let data18 = data17.type;
if(!((data18 === "target-group") || (data18 === "classic"))){
const err47 = {instancePath:instancePath+"/loadBalancers/" + i1+"/type",schemaPath:"#/$defs/loadBalancer/properties/type/enum",keyword:"enum",params:{allowedValues: schema42.properties.type.enum},message:"must be equal to one of the allowed values",schema:schema42.properties.type.enum,parentSchema:schema42.properties.type,data:data18};
if(vErrors === null){
vErrors = [err47];
}
else {
vErrors.push(err47);
}
errors++;
}
}
if(data17.healthCheckIntervalSeconds !== undefined){
let data19 = data17.healthCheckIntervalSeconds;
if(!(((typeof data19 == "number") && (!(data19 % 1) && !isNaN(data19))) && (isFinite(data19)))){
const err48 = {instancePath:instancePath+"/loadBalancers/" + i1+"/healthCheckIntervalSeconds",schemaPath:"#/$defs/loadBalancer/properties/healthCheckIntervalSeconds/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema42.properties.healthCheckIntervalSeconds.type,parentSchema:schema42.properties.healthCheckIntervalSeconds,data:data19};
if(vErrors === null){
vErrors = [err48];
}
else {
vErrors.push(err48);
}
errors++;
}
if((typeof data19 == "number") && (isFinite(data19))){
if(data19 > 300 || isNaN(data19)){
const err49 = {instancePath:instancePath+"/loadBalancers/" + i1+"/healthCheckIntervalSeconds",schemaPath:"#/$defs/loadBalancer/properties/healthCheckIntervalSeconds/maximum",keyword:"maximum",params:{comparison: "<=", limit: 300},message:"must be <= 300",schema:300,parentSchema:schema42.properties.healthCheckIntervalSeconds,data:data19};
if(vErrors === null){
vErrors = [err49];
}
else {
vErrors.push(err49);
}
errors++;
}
if(data19 < 5 || isNaN(data19)){
const err50 = {instancePath:instancePath+"/loadBalancers/" + i1+"/healthCheckIntervalSeconds",schemaPath:"#/$defs/loadBalancer/properties/healthCheckIntervalSeconds/minimum",keyword:"minimum",params:{comparison: ">=", limit: 5},message:"must be >= 5",schema:5,parentSchema:schema42.properties.healthCheckIntervalSeconds,data:data19};
if(vErrors === null){
vErrors = [err50];
}
else {
vErrors.push(err50);
}
errors++;
}
}
}
if(data17.healthyThreshold !== undefined){
let data20 = data17.healthyThreshold;
if(!(((typeof data20 == "number") && (!(data20 % 1) && !isNaN(data20))) && (isFinite(data20)))){
const err51 = {instancePath:instancePath+"/loadBalancers/" + i1+"/healthyThreshold",schemaPath:"#/$defs/loadBalancer/properties/healthyThreshold/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema42.properties.healthyThreshold.type,parentSchema:schema42.properties.healthyThreshold,data:data20};
if(vErrors === null){
vErrors = [err51];
}
else {
vErrors.push(err51);
}
errors++;
}
if((typeof data20 == "number") && (isFinite(data20))){
if(data20 > 10 || isNaN(data20)){
const err52 = {instancePath:instancePath+"/loadBalancers/" + i1+"/healthyThreshold",schemaPath:"#/$defs/loadBalancer/properties/healthyThreshold/maximum",keyword:"maximum",params:{comparison: "<=", limit: 10},message:"must be <= 10",schema:10,parentSchema:schema42.properties.healthyThreshold,data:data20};
if(vErrors === null){
vErrors = [err52];
}
else {
vErrors.push(err52);
}
errors++;
}
if(data20 < 2 || isNaN(data20)){
const err53 = {instancePath:instancePath+"/loadBalancers/" + i1+"/healthyThreshold",schemaPath:"#/$defs/loadBalancer/properties/healthyThreshold/minimum",keyword:"minimum",params:{comparison: ">=", limit: 2},message:"must be >= 2",schema:2,parentSchema:schema42.properties.healthyThreshold,data:data20};
if(vErrors === null){
vErrors = [err53];
}
else {
vErrors.push(err53);
}
errors++;
}
}
}
if(data17.deregistrationDelaySeconds !== undefined){
let data21 = data17.deregistrationDelaySeconds;
if(!(((typeof data21 == "number") && (!(data21 % 1) && !isNaN(data21))) && (isFinite(data21)))){
const err54 = {instancePath:instancePath+"/loadBalancers/" + i1+"/deregistrationDelaySeconds",schemaPath:"#/$defs/loadBalancer/properties/deregistrationDelaySeconds/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema42.properties.deregistrationDelaySeconds.type,parentSchema:schema42.properties.deregistrationDelaySeconds,data:data21};
if(vErrors === null){
vErrors = [err54];
}
else {
vErrors.push(err54);
}
errors++;
}
if((typeof data21 == "number") && (isFinite(data21))){
if(data21 > 3600 || isNaN(data21)){
const err55 = {instancePath:instancePath+"/loadBalancers/" + i1+"/deregistrationDelaySeconds",schemaPath:"#/$defs/loadBalancer/properties/deregistrationDelaySeconds/maximum",keyword:"maximum",params:{comparison: "<=", limit: 3600},message:"must be <= 3600",schema:3600,parentSchema:schema42.properties.deregistrationDelaySeconds,data:data21};
if(vErrors === null){
vErrors = [err55];
}
else {
vErrors.push(err55);
}
errors++;
}
if(data21 < 0 || isNaN(data21)){
const err56 = {instancePath:instancePath+"/loadBalancers/" + i1+"/deregistrationDelaySeconds",schemaPath:"#/$defs/loadBalancer/properties/deregistrationDelaySeconds/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema42.properties.deregistrationDelaySeconds,data:data21};
if(vErrors === null){
vErrors = [err56];
}
else {
vErrors.push(err56);
}
errors++;
}
}
}
}
else {
const err57 = {instancePath:instancePath+"/loadBalancers/" + i1,schemaPath:"#/$defs/loadBalancer/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema42.type,parentSchema:schema42,data:data17};
if(vErrors === null){
vErrors = [err57];
}
else {
vErrors.push(err57);
}
errors++;
}
}
}
else {
const err58 = {instancePath:instancePath+"/loadBalancers",schemaPath:"#/properties/loadBalancers/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema40.properties.loadBalancers.type,parentSchema:schema40.properties.loadBalancers,data:data16};
if(vErrors === null){
vErrors = [err58];
}
else {
vErrors.push(err58);
}
errors++;
}
}
if(data.unhealthyReplacementFraction !== undefined){
let data22 = data.unhealthyReplacementFraction;
if((typeof data22 == "number") && (isFinite(data22))){
if(data22 > 1 || isNaN(data22)){
const err59 = {instancePath:instancePath+"/unhealthyReplacementFraction",schemaPath:"#/properties/unhealthyReplacementFraction/maximum",keyword:"maximum",params:{comparison: "<=", limit: 1},message:"must be <= 1",schema:1,parentSchema:schema40.properties.unhealthyReplacementFraction,data:data22};
if(vErrors === null){
vErrors = [err59];
}
else {
vErrors.push(err59);
}
errors++;
}
if(data22 < 0 || isNaN(data22)){
const err60 = {instancePath:instancePath+"/unhealthyReplacementFraction",schemaPath:"#/properties/unhealthyReplacementFraction/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema40.properties.unhealthyReplacementFraction,data:data22};
if(vErrors === null){
vErrors = [err60];
}
else {
vErrors.push(err60);
}
errors++;
}
}
else {
const err61 = {instancePath:instancePath+"/unhealthyReplacementFraction",schemaPath:"#/properties/unhealthyReplacementFraction/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema40.properties.unhealthyReplacementFraction.type,parentSchema:schema40.properties.unhealthyReplacementFraction,data:data22};
if(vErrors === null){
vErrors = [err61];
}
else {
vErrors.push(err61);
}
errors++;
}
}
if(data.image !== undefined){
let data23 = data.image;
if(data23 && typeof data23 == "object" && !Array.isArray(data23)){
for(const key4 in data23){
if(!((key4 === "enaSupport") || (key4 === "nvmeDrivers"))){
const err62 = {instancePath:instancePath+"/image",schemaPath:"#/properties/image/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key4},message:"must NOT have additional properties",schema:false,parentSchema:schema40.properties.image,data:data23};
if(vErrors === null){
vErrors = [err62];
}
else {
vErrors.push(err62);
}
errors++;
}
}
if(data23.enaSupport !== undefined){
let data24 = data23.enaSupport;
if(typeof data24 !== "boolean"){
const err63 = {instancePath:instancePath+"/image/enaSupport",schemaPath:"#/properties/image/properties/enaSupport/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema40.properties.image.properties.enaSupport.type,parentSchema:schema40.properties.image.properties.enaSupport,data:data24};
if(vErrors === null){
vErrors = [err63];
}
else {
vErrors.push(err63);
}
errors++;
}
}
if(data23.nvmeDrivers !== undefined){
let data25 = data23.nvmeDrivers;
if(typeof data25 !== "boolean"){
const err64 = {instancePath:instancePath+"/image/nvmeDrivers",schemaPath:"#/properties/image/properties/nvmeDrivers/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema40.properties.image.properties.nvmeDrivers.type,parentSchema:schema40.properties.image.properties.nvmeDrivers,data:data25};
if(vErrors === null){
vErrors = [err64];
}
else {
vErrors.push(err64);
}
errors++;
}
}
}
else {
const err65 = {instancePath:instancePath+"/image",schemaPath:"#/properties/image/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema40.properties.image.type,parentSchema:schema40.properties.image,data:data23};
if(vErrors === null){
vErrors = [err65];
}
else {
vErrors.push(err65);
}
errors++;
}
}
if(data.launchHook !== undefined){
let data26 = data.launchHook;
if(typeof data26 !== "boolean"){
const err66 = {instancePath:instancePath+"/launchHook",schemaPath:"#/properties/launchHook/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema40.properties.launchHook.type,parentSchema:schema40.properties.launchHook,data:data26};
if(vErrors === null){
vErrors = [err66];
}
else {
vErrors.push(err66);
}
errors++;
}
}
if(data.suspendedProcesses !== undefined){
let data27 = data.suspendedProcesses;
if(Array.isArray(data27)){
const len3 = data27.length;
for(let i2=0; i2<len3; i2++){
let data28 = data27[i2];
if(!(((((((((data28 === "Launch") || (data28 === "Terminate")) || (data28 === "AddToLoadBalancer")) || (data28 === "HealthCheck")) || (data28 === "ReplaceUnhealthy")) || (data28 === "AZRebalance")) || (data28 === "AlarmNotification")) || (data28 === "ScheduledActions")) || (data28 === "InstanceRefresh"))){
const err67 = {instancePath:instancePath+"/suspendedProcesses/" + i2,schemaPath:"#/properties/suspendedProcesses/items/enum",keyword:"enum",params:{allowedValues: schema40.properties.suspendedProcesses.items.enum},message:"must be equal to one of the allowed values",schema:schema40.properties.suspendedProcesses.items.enum,parentSchema:schema40.properties.suspendedProcesses.items,data:data28};
if(vErrors === null){
vErrors = [err67];
}
else {
vErrors.push(err67);
}
errors++;
}
}
let i3 = data27.length;
let j0;
if(i3 > 1){
outer0:
for(;i3--;){
for(j0 = i3; j0--;){
if(func0(data27[i3], data27[j0])){
const err68 = {instancePath:instancePath+"/suspendedProcesses",schemaPath:"#/properties/suspendedProcesses/uniqueItems",keyword:"uniqueItems",params:{i: i3, j: j0},message:"must NOT have duplicate items (items ## "+j0+" and "+i3+" are identical)",schema:true,parentSchema:schema40.properties.suspendedProcesses,data:data27};
if(vErrors === null){
vErrors = [err68];
}
else {
vErrors.push(err68);
}
errors++;
break outer0;
}
}
}
}
}
else {
const err69 = {instancePath:instancePath+"/suspendedProcesses",schemaPath:"#/properties/suspendedProcesses/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema40.properties.suspendedProcesses.type,parentSchema:schema40.properties.suspendedProcesses,data:data27};
if(vErrors === null){
vErrors = [err69];
}
else {
vErrors.push(err69);
}
errors++;
}
}
if(data.capacityRebalance !== undefined){
let data29 = data.capacityRebalance;
if(typeof data29 !== "boolean"){
const err70 = {instancePath:instancePath+"/capacityRebalance",schemaPath:"#/properties/capacityRebalance/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema40.properties.capacityRebalance.type,parentSchema:schema40.properties.capacityRebalance,data:data29};
if(vErrors === null){
vErrors = [err70];
}
else {
vErrors.push(err70);
}
errors++;
}
}
if(data.warmPool !== undefined){
let data30 = data.warmPool;
if(data30 && typeof data30 == "object" && !Array.isArray(data30)){
if(data30.minSize === undefined){
const err71 = {instancePath:instancePath+"/warmPool",schemaPath:"#/properties/warmPool/required",keyword:"required",params:{missingProperty: "minSize"},message:"must have required property '"+"minSize"+"'",schema:schema40.properties.warmPool.required,parentSchema:schema40.properties.warmPool,data:data30};
if(vErrors === null){
vErrors = [err71];
}
else {
vErrors.push(err71);
}
errors++;
}
for(const key5 in data30){
if(!(key5 === "minSize")){
const err72 = {instancePath:instancePath+"/warmPool",schemaPath:"#/properties/warmPool/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key5},message:"must NOT have additional properties",schema:false,parentSchema:schema40.properties.warmPool,data:data30};
if(vErrors === null){
vErrors = [err72];
}
else {
vErrors.push(err72);
}
errors++;
}
}
if(data30.minSize !== undefined){
let data31 = data30.minSize;
if(!(((typeof data31 == "number") && (!(data31 % 1) && !isNaN(data31))) && (isFinite(data31)))){
const err73 = {instancePath:instancePath+"/warmPool/minSize",schemaPath:"#/properties/warmPool/properties/minSize/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema40.properties.warmPool.properties.minSize.type,parentSchema:schema40.properties.warmPool.properties.minSize,data:data31};
if(vErrors === null){
vErrors = [err73];
}
else {
vErrors.push(err73);
}
errors++;
}
if((typeof data31 == "number") && (isFinite(data31))){
if(data31 > 100 || isNaN(data31)){
const err74 = {instancePath:instancePath+"/warmPool/minSize",schemaPath:"#/properties/warmPool/properties/minSize/maximum",keyword:"maximum",params:{comparison: "<=", limit: 100},message:"must be <= 100",schema:100,parentSchema:schema40.properties.warmPool.properties.minSize,data:data31};
if(vErrors === null){
vErrors = [err74];
}
else {
vErrors.push(err74);
}
errors++;
}
if(data31 < 0 || isNaN(data31)){
const err75 = {instancePath:instancePath+"/warmPool/minSize",schemaPath:"#/properties/warmPool/properties/minSize/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema40.properties.warmPool.properties.minSize,data:data31};
if(vErrors === null){
vErrors = [err75];
}
else {
vErrors.push(err75);
}
errors++;
}
}
}
}
else {
const err76 = {instancePath:instancePath+"/warmPool",schemaPath:"#/properties/warmPool/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema40.properties.warmPool.type,parentSchema:schema40.properties.warmPool,data:data30};
if(vErrors === null){
vErrors = [err76];
}
else {
vErrors.push(err76);
}
errors++;
}
}
if(data.instanceRefreshes !== undefined){
let data32 = data.instanceRefreshes;
if(Array.isArray(data32)){
const len4 = data32.length;
for(let i4=0; i4<len4; i4++){
let data33 = data32[i4];
if(typeof data33 === "string"){
if(!pattern4.test(data33)){
const err77 = {instancePath:instancePath+"/instanceRefreshes/" + i4,schemaPath:"#/$defs/time/pattern",keyword:"pattern",params:{pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$"},message:"must match pattern \""+"^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$"+"\"",schema:"^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$",parentSchema:schema32,data:data33};
if(vErrors === null){
vErrors = [err77];
}
else {
vErrors.push(err77);
}
errors++;
}
}
else {
const err78 = {instancePath:instancePath+"/instanceRefreshes/" + i4,schemaPath:"#/$defs/time/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.type,parentSchema:schema32,data:data33};
if(vErrors === null){
vErrors = [err78];
}
else {
vErrors.push(err78);
}
errors++;
}
}
}
else {
const err79 = {instancePath:instancePath+"/instanceRefreshes",schemaPath:"#/properties/instanceRefreshes/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema40.properties.instanceRefreshes.type,parentSchema:schema40.properties.instanceRefreshes,data:data32};
if(vErrors === null){
vErrors = [err79];
}
else {
vErrors.push(err79);
}
errors++;
}
}
if(data.instanceRefreshesUnreadable !== undefined){
let data34 = data.instanceRefreshesUnreadable;
if(typeof data34 !== "boolean"){
const err80 = {instancePath:instancePath+"/instanceRefreshesUnreadable",schemaPath:"#/properties/instanceRefreshesUnreadable/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema40.properties.instanceRefreshesUnreadable.type,parentSchema:schema40.properties.instanceRefreshesUnreadable,data:data34};
if(vErrors === null){
vErrors = [err80];
}
else {
vErrors.push(err80);
}
errors++;
}
}
if(data.ecs !== undefined){
let data35 = data.ecs;
if(data35 && typeof data35 == "object" && !Array.isArray(data35)){
for(const key6 in data35){
if(!(((((key6 === "managedTerminationProtection") || (key6 === "managedDraining")) || (key6 === "slotsPerInstance")) || (key6 === "managedScaling")) || (key6 === "services"))){
const err81 = {instancePath:instancePath+"/ecs",schemaPath:"#/properties/ecs/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key6},message:"must NOT have additional properties",schema:false,parentSchema:schema40.properties.ecs,data:data35};
if(vErrors === null){
vErrors = [err81];
}
else {
vErrors.push(err81);
}
errors++;
}
}
if(data35.managedTerminationProtection !== undefined){
let data36 = data35.managedTerminationProtection;
if(typeof data36 !== "boolean"){
const err82 = {instancePath:instancePath+"/ecs/managedTerminationProtection",schemaPath:"#/properties/ecs/properties/managedTerminationProtection/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema40.properties.ecs.properties.managedTerminationProtection.type,parentSchema:schema40.properties.ecs.properties.managedTerminationProtection,data:data36};
if(vErrors === null){
vErrors = [err82];
}
else {
vErrors.push(err82);
}
errors++;
}
}
if(data35.managedDraining !== undefined){
let data37 = data35.managedDraining;
if(typeof data37 !== "boolean"){
const err83 = {instancePath:instancePath+"/ecs/managedDraining",schemaPath:"#/properties/ecs/properties/managedDraining/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema40.properties.ecs.properties.managedDraining.type,parentSchema:schema40.properties.ecs.properties.managedDraining,data:data37};
if(vErrors === null){
vErrors = [err83];
}
else {
vErrors.push(err83);
}
errors++;
}
}
if(data35.slotsPerInstance !== undefined){
let data38 = data35.slotsPerInstance;
if(!(((typeof data38 == "number") && (!(data38 % 1) && !isNaN(data38))) && (isFinite(data38)))){
const err84 = {instancePath:instancePath+"/ecs/slotsPerInstance",schemaPath:"#/properties/ecs/properties/slotsPerInstance/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema40.properties.ecs.properties.slotsPerInstance.type,parentSchema:schema40.properties.ecs.properties.slotsPerInstance,data:data38};
if(vErrors === null){
vErrors = [err84];
}
else {
vErrors.push(err84);
}
errors++;
}
if((typeof data38 == "number") && (isFinite(data38))){
if(data38 > 100 || isNaN(data38)){
const err85 = {instancePath:instancePath+"/ecs/slotsPerInstance",schemaPath:"#/properties/ecs/properties/slotsPerInstance/maximum",keyword:"maximum",params:{comparison: "<=", limit: 100},message:"must be <= 100",schema:100,parentSchema:schema40.properties.ecs.properties.slotsPerInstance,data:data38};
if(vErrors === null){
vErrors = [err85];
}
else {
vErrors.push(err85);
}
errors++;
}
if(data38 < 1 || isNaN(data38)){
const err86 = {instancePath:instancePath+"/ecs/slotsPerInstance",schemaPath:"#/properties/ecs/properties/slotsPerInstance/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1",schema:1,parentSchema:schema40.properties.ecs.properties.slotsPerInstance,data:data38};
if(vErrors === null){
vErrors = [err86];
}
else {
vErrors.push(err86);
}
errors++;
}
}
}
if(data35.managedScaling !== undefined){
let data39 = data35.managedScaling;
if(data39 && typeof data39 == "object" && !Array.isArray(data39)){
for(const key7 in data39){
if(!((((key7 === "targetCapacity") || (key7 === "minimumScalingStepSize")) || (key7 === "maximumScalingStepSize")) || (key7 === "instanceWarmupPeriod"))){
const err87 = {instancePath:instancePath+"/ecs/managedScaling",schemaPath:"#/properties/ecs/properties/managedScaling/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key7},message:"must NOT have additional properties",schema:false,parentSchema:schema40.properties.ecs.properties.managedScaling,data:data39};
if(vErrors === null){
vErrors = [err87];
}
else {
vErrors.push(err87);
}
errors++;
}
}
if(data39.targetCapacity !== undefined){
let data40 = data39.targetCapacity;
if(!(((typeof data40 == "number") && (!(data40 % 1) && !isNaN(data40))) && (isFinite(data40)))){
const err88 = {instancePath:instancePath+"/ecs/managedScaling/targetCapacity",schemaPath:"#/properties/ecs/properties/managedScaling/properties/targetCapacity/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema40.properties.ecs.properties.managedScaling.properties.targetCapacity.type,parentSchema:schema40.properties.ecs.properties.managedScaling.properties.targetCapacity,data:data40};
if(vErrors === null){
vErrors = [err88];
}
else {
vErrors.push(err88);
}
errors++;
}
if((typeof data40 == "number") && (isFinite(data40))){
if(data40 > 100 || isNaN(data40)){
const err89 = {instancePath:instancePath+"/ecs/managedScaling/targetCapacity",schemaPath:"#/properties/ecs/properties/managedScaling/properties/targetCapacity/maximum",keyword:"maximum",params:{comparison: "<=", limit: 100},message:"must be <= 100",schema:100,parentSchema:schema40.properties.ecs.properties.managedScaling.properties.targetCapacity,data:data40};
if(vErrors === null){
vErrors = [err89];
}
else {
vErrors.push(err89);
}
errors++;
}
if(data40 < 1 || isNaN(data40)){
const err90 = {instancePath:instancePath+"/ecs/managedScaling/targetCapacity",schemaPath:"#/properties/ecs/properties/managedScaling/properties/targetCapacity/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1",schema:1,parentSchema:schema40.properties.ecs.properties.managedScaling.properties.targetCapacity,data:data40};
if(vErrors === null){
vErrors = [err90];
}
else {
vErrors.push(err90);
}
errors++;
}
}
}
if(data39.minimumScalingStepSize !== undefined){
let data41 = data39.minimumScalingStepSize;
if(!(((typeof data41 == "number") && (!(data41 % 1) && !isNaN(data41))) && (isFinite(data41)))){
const err91 = {instancePath:instancePath+"/ecs/managedScaling/minimumScalingStepSize",schemaPath:"#/properties/ecs/properties/managedScaling/properties/minimumScalingStepSize/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema40.properties.ecs.properties.managedScaling.properties.minimumScalingStepSize.type,parentSchema:schema40.properties.ecs.properties.managedScaling.properties.minimumScalingStepSize,data:data41};
if(vErrors === null){
vErrors = [err91];
}
else {
vErrors.push(err91);
}
errors++;
}
if((typeof data41 == "number") && (isFinite(data41))){
if(data41 > 10000 || isNaN(data41)){
const err92 = {instancePath:instancePath+"/ecs/managedScaling/minimumScalingStepSize",schemaPath:"#/properties/ecs/properties/managedScaling/properties/minimumScalingStepSize/maximum",keyword:"maximum",params:{comparison: "<=", limit: 10000},message:"must be <= 10000",schema:10000,parentSchema:schema40.properties.ecs.properties.managedScaling.properties.minimumScalingStepSize,data:data41};
if(vErrors === null){
vErrors = [err92];
}
else {
vErrors.push(err92);
}
errors++;
}
if(data41 < 1 || isNaN(data41)){
const err93 = {instancePath:instancePath+"/ecs/managedScaling/minimumScalingStepSize",schemaPath:"#/properties/ecs/properties/managedScaling/properties/minimumScalingStepSize/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1",schema:1,parentSchema:schema40.properties.ecs.properties.managedScaling.properties.minimumScalingStepSize,data:data41};
if(vErrors === null){
vErrors = [err93];
}
else {
vErrors.push(err93);
}
errors++;
}
}
}
if(data39.maximumScalingStepSize !== undefined){
let data42 = data39.maximumScalingStepSize;
if(!(((typeof data42 == "number") && (!(data42 % 1) && !isNaN(data42))) && (isFinite(data42)))){
const err94 = {instancePath:instancePath+"/ecs/managedScaling/maximumScalingStepSize",schemaPath:"#/properties/ecs/properties/managedScaling/properties/maximumScalingStepSize/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema40.properties.ecs.properties.managedScaling.properties.maximumScalingStepSize.type,parentSchema:schema40.properties.ecs.properties.managedScaling.properties.maximumScalingStepSize,data:data42};
if(vErrors === null){
vErrors = [err94];
}
else {
vErrors.push(err94);
}
errors++;
}
if((typeof data42 == "number") && (isFinite(data42))){
if(data42 > 10000 || isNaN(data42)){
const err95 = {instancePath:instancePath+"/ecs/managedScaling/maximumScalingStepSize",schemaPath:"#/properties/ecs/properties/managedScaling/properties/maximumScalingStepSize/maximum",keyword:"maximum",params:{comparison: "<=", limit: 10000},message:"must be <= 10000",schema:10000,parentSchema:schema40.properties.ecs.properties.managedScaling.properties.maximumScalingStepSize,data:data42};
if(vErrors === null){
vErrors = [err95];
}
else {
vErrors.push(err95);
}
errors++;
}
if(data42 < 1 || isNaN(data42)){
const err96 = {instancePath:instancePath+"/ecs/managedScaling/maximumScalingStepSize",schemaPath:"#/properties/ecs/properties/managedScaling/properties/maximumScalingStepSize/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1",schema:1,parentSchema:schema40.properties.ecs.properties.managedScaling.properties.maximumScalingStepSize,data:data42};
if(vErrors === null){
vErrors = [err96];
}
else {
vErrors.push(err96);
}
errors++;
}
}
}
if(data39.instanceWarmupPeriod !== undefined){
let data43 = data39.instanceWarmupPeriod;
if(!(((typeof data43 == "number") && (!(data43 % 1) && !isNaN(data43))) && (isFinite(data43)))){
const err97 = {instancePath:instancePath+"/ecs/managedScaling/instanceWarmupPeriod",schemaPath:"#/properties/ecs/properties/managedScaling/properties/instanceWarmupPeriod/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema40.properties.ecs.properties.managedScaling.properties.instanceWarmupPeriod.type,parentSchema:schema40.properties.ecs.properties.managedScaling.properties.instanceWarmupPeriod,data:data43};
if(vErrors === null){
vErrors = [err97];
}
else {
vErrors.push(err97);
}
errors++;
}
if((typeof data43 == "number") && (isFinite(data43))){
if(data43 > 10000 || isNaN(data43)){
const err98 = {instancePath:instancePath+"/ecs/managedScaling/instanceWarmupPeriod",schemaPath:"#/properties/ecs/properties/managedScaling/properties/instanceWarmupPeriod/maximum",keyword:"maximum",params:{comparison: "<=", limit: 10000},message:"must be <= 10000",schema:10000,parentSchema:schema40.properties.ecs.properties.managedScaling.properties.instanceWarmupPeriod,data:data43};
if(vErrors === null){
vErrors = [err98];
}
else {
vErrors.push(err98);
}
errors++;
}
if(data43 < 0 || isNaN(data43)){
const err99 = {instancePath:instancePath+"/ecs/managedScaling/instanceWarmupPeriod",schemaPath:"#/properties/ecs/properties/managedScaling/properties/instanceWarmupPeriod/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema40.properties.ecs.properties.managedScaling.properties.instanceWarmupPeriod,data:data43};
if(vErrors === null){
vErrors = [err99];
}
else {
vErrors.push(err99);
}
errors++;
}
}
}
}
else {
const err100 = {instancePath:instancePath+"/ecs/managedScaling",schemaPath:"#/properties/ecs/properties/managedScaling/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema40.properties.ecs.properties.managedScaling.type,parentSchema:schema40.properties.ecs.properties.managedScaling,data:data39};
if(vErrors === null){
vErrors = [err100];
}
else {
vErrors.push(err100);
}
errors++;
}
}
if(data35.services !== undefined){
let data44 = data35.services;
if(Array.isArray(data44)){
const len5 = data44.length;
for(let i5=0; i5<len5; i5++){
let data45 = data44[i5];
if(data45 && typeof data45 == "object" && !Array.isArray(data45)){
if(data45.name === undefined){
const err101 = {instancePath:instancePath+"/ecs/services/" + i5,schemaPath:"#/properties/ecs/properties/services/items/required",keyword:"required",params:{missingProperty: "name"},message:"must have required property '"+"name"+"'",schema:schema40.properties.ecs.properties.services.items.required,parentSchema:schema40.properties.ecs.properties.services.items,data:data45};
if(vErrors === null){
vErrors = [err101];
}
else {
vErrors.push(err101);
}
errors++;
}
if(data45.desiredCount === undefined){
const err102 = {instancePath:instancePath+"/ecs/services/" + i5,schemaPath:"#/properties/ecs/properties/services/items/required",keyword:"required",params:{missingProperty: "desiredCount"},message:"must have required property '"+"desiredCount"+"'",schema:schema40.properties.ecs.properties.services.items.required,parentSchema:schema40.properties.ecs.properties.services.items,data:data45};
if(vErrors === null){
vErrors = [err102];
}
else {
vErrors.push(err102);
}
errors++;
}
for(const key8 in data45){
if(!(((((((key8 === "name") || (key8 === "desiredCount")) || (key8 === "minimumHealthyPercent")) || (key8 === "maximumPercent")) || (key8 === "deregistrationDelaySeconds")) || (key8 === "placementStrategy")) || (key8 === "desiredSchedule"))){
const err103 = {instancePath:instancePath+"/ecs/services/" + i5,schemaPath:"#/properties/ecs/properties/services/items/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key8},message:"must NOT have additional properties",schema:false,parentSchema:schema40.properties.ecs.properties.services.items,data:data45};
if(vErrors === null){
vErrors = [err103];
}
else {
vErrors.push(err103);
}
errors++;
}
}
if(data45.name !== undefined){
let data46 = data45.name;
if(typeof data46 === "string"){
if(func2(data46) < 1){
const err104 = {instancePath:instancePath+"/ecs/services/" + i5+"/name",schemaPath:"#/properties/ecs/properties/services/items/properties/name/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema40.properties.ecs.properties.services.items.properties.name,data:data46};
if(vErrors === null){
vErrors = [err104];
}
else {
vErrors.push(err104);
}
errors++;
}
}
else {
const err105 = {instancePath:instancePath+"/ecs/services/" + i5+"/name",schemaPath:"#/properties/ecs/properties/services/items/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema40.properties.ecs.properties.services.items.properties.name.type,parentSchema:schema40.properties.ecs.properties.services.items.properties.name,data:data46};
if(vErrors === null){
vErrors = [err105];
}
else {
vErrors.push(err105);
}
errors++;
}
}
if(data45.desiredCount !== undefined){
let data47 = data45.desiredCount;
if(!(((typeof data47 == "number") && (!(data47 % 1) && !isNaN(data47))) && (isFinite(data47)))){
const err106 = {instancePath:instancePath+"/ecs/services/" + i5+"/desiredCount",schemaPath:"#/properties/ecs/properties/services/items/properties/desiredCount/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema40.properties.ecs.properties.services.items.properties.desiredCount.type,parentSchema:schema40.properties.ecs.properties.services.items.properties.desiredCount,data:data47};
if(vErrors === null){
vErrors = [err106];
}
else {
vErrors.push(err106);
}
errors++;
}
if((typeof data47 == "number") && (isFinite(data47))){
if(data47 > 10000 || isNaN(data47)){
const err107 = {instancePath:instancePath+"/ecs/services/" + i5+"/desiredCount",schemaPath:"#/properties/ecs/properties/services/items/properties/desiredCount/maximum",keyword:"maximum",params:{comparison: "<=", limit: 10000},message:"must be <= 10000",schema:10000,parentSchema:schema40.properties.ecs.properties.services.items.properties.desiredCount,data:data47};
if(vErrors === null){
vErrors = [err107];
}
else {
vErrors.push(err107);
}
errors++;
}
if(data47 < 0 || isNaN(data47)){
const err108 = {instancePath:instancePath+"/ecs/services/" + i5+"/desiredCount",schemaPath:"#/properties/ecs/properties/services/items/properties/desiredCount/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema40.properties.ecs.properties.services.items.properties.desiredCount,data:data47};
if(vErrors === null){
vErrors = [err108];
}
else {
vErrors.push(err108);
}
errors++;
}
}
}
if(data45.minimumHealthyPercent !== undefined){
let data48 = data45.minimumHealthyPercent;
if(!(((typeof data48 == "number") && (!(data48 % 1) && !isNaN(data48))) && (isFinite(data48)))){
const err109 = {instancePath:instancePath+"/ecs/services/" + i5+"/minimumHealthyPercent",schemaPath:"#/properties/ecs/properties/services/items/properties/minimumHealthyPercent/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema40.properties.ecs.properties.services.items.properties.minimumHealthyPercent.type,parentSchema:schema40.properties.ecs.properties.services.items.properties.minimumHealthyPercent,data:data48};
if(vErrors === null){
vErrors = [err109];
}
else {
vErrors.push(err109);
}
errors++;
}
if((typeof data48 == "number") && (isFinite(data48))){
if(data48 > 100 || isNaN(data48)){
const err110 = {instancePath:instancePath+"/ecs/services/" + i5+"/minimumHealthyPercent",schemaPath:"#/properties/ecs/properties/services/items/properties/minimumHealthyPercent/maximum",keyword:"maximum",params:{comparison: "<=", limit: 100},message:"must be <= 100",schema:100,parentSchema:schema40.properties.ecs.properties.services.items.properties.minimumHealthyPercent,data:data48};
if(vErrors === null){
vErrors = [err110];
}
else {
vErrors.push(err110);
}
errors++;
}
if(data48 < 0 || isNaN(data48)){
const err111 = {instancePath:instancePath+"/ecs/services/" + i5+"/minimumHealthyPercent",schemaPath:"#/properties/ecs/properties/services/items/properties/minimumHealthyPercent/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema40.properties.ecs.properties.services.items.properties.minimumHealthyPercent,data:data48};
if(vErrors === null){
vErrors = [err111];
}
else {
vErrors.push(err111);
}
errors++;
}
}
}
if(data45.maximumPercent !== undefined){
let data49 = data45.maximumPercent;
if(!(((typeof data49 == "number") && (!(data49 % 1) && !isNaN(data49))) && (isFinite(data49)))){
const err112 = {instancePath:instancePath+"/ecs/services/" + i5+"/maximumPercent",schemaPath:"#/properties/ecs/properties/services/items/properties/maximumPercent/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema40.properties.ecs.properties.services.items.properties.maximumPercent.type,parentSchema:schema40.properties.ecs.properties.services.items.properties.maximumPercent,data:data49};
if(vErrors === null){
vErrors = [err112];
}
else {
vErrors.push(err112);
}
errors++;
}
if((typeof data49 == "number") && (isFinite(data49))){
if(data49 > 200 || isNaN(data49)){
const err113 = {instancePath:instancePath+"/ecs/services/" + i5+"/maximumPercent",schemaPath:"#/properties/ecs/properties/services/items/properties/maximumPercent/maximum",keyword:"maximum",params:{comparison: "<=", limit: 200},message:"must be <= 200",schema:200,parentSchema:schema40.properties.ecs.properties.services.items.properties.maximumPercent,data:data49};
if(vErrors === null){
vErrors = [err113];
}
else {
vErrors.push(err113);
}
errors++;
}
if(data49 < 100 || isNaN(data49)){
const err114 = {instancePath:instancePath+"/ecs/services/" + i5+"/maximumPercent",schemaPath:"#/properties/ecs/properties/services/items/properties/maximumPercent/minimum",keyword:"minimum",params:{comparison: ">=", limit: 100},message:"must be >= 100",schema:100,parentSchema:schema40.properties.ecs.properties.services.items.properties.maximumPercent,data:data49};
if(vErrors === null){
vErrors = [err114];
}
else {
vErrors.push(err114);
}
errors++;
}
}
}
if(data45.deregistrationDelaySeconds !== undefined){
let data50 = data45.deregistrationDelaySeconds;
if(!(((typeof data50 == "number") && (!(data50 % 1) && !isNaN(data50))) && (isFinite(data50)))){
const err115 = {instancePath:instancePath+"/ecs/services/" + i5+"/deregistrationDelaySeconds",schemaPath:"#/properties/ecs/properties/services/items/properties/deregistrationDelaySeconds/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema40.properties.ecs.properties.services.items.properties.deregistrationDelaySeconds.type,parentSchema:schema40.properties.ecs.properties.services.items.properties.deregistrationDelaySeconds,data:data50};
if(vErrors === null){
vErrors = [err115];
}
else {
vErrors.push(err115);
}
errors++;
}
if((typeof data50 == "number") && (isFinite(data50))){
if(data50 > 3600 || isNaN(data50)){
const err116 = {instancePath:instancePath+"/ecs/services/" + i5+"/deregistrationDelaySeconds",schemaPath:"#/properties/ecs/properties/services/items/properties/deregistrationDelaySeconds/maximum",keyword:"maximum",params:{comparison: "<=", limit: 3600},message:"must be <= 3600",schema:3600,parentSchema:schema40.properties.ecs.properties.services.items.properties.deregistrationDelaySeconds,data:data50};
if(vErrors === null){
vErrors = [err116];
}
else {
vErrors.push(err116);
}
errors++;
}
if(data50 < 0 || isNaN(data50)){
const err117 = {instancePath:instancePath+"/ecs/services/" + i5+"/deregistrationDelaySeconds",schemaPath:"#/properties/ecs/properties/services/items/properties/deregistrationDelaySeconds/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema40.properties.ecs.properties.services.items.properties.deregistrationDelaySeconds,data:data50};
if(vErrors === null){
vErrors = [err117];
}
else {
vErrors.push(err117);
}
errors++;
}
}
}
if(data45.placementStrategy !== undefined){
let data51 = data45.placementStrategy;
if(!((data51 === "spread") || (data51 === "binpack"))){
const err118 = {instancePath:instancePath+"/ecs/services/" + i5+"/placementStrategy",schemaPath:"#/properties/ecs/properties/services/items/properties/placementStrategy/enum",keyword:"enum",params:{allowedValues: schema40.properties.ecs.properties.services.items.properties.placementStrategy.enum},message:"must be equal to one of the allowed values",schema:schema40.properties.ecs.properties.services.items.properties.placementStrategy.enum,parentSchema:schema40.properties.ecs.properties.services.items.properties.placementStrategy,data:data51};
if(vErrors === null){
vErrors = [err118];
}
else {
vErrors.push(err118);
}
errors++;
}
}
if(data45.desiredSchedule !== undefined){
let data52 = data45.desiredSchedule;
if(Array.isArray(data52)){
const len6 = data52.length;
for(let i6=0; i6<len6; i6++){
let data53 = data52[i6];
if(Array.isArray(data53)){
if(data53.length > 2){
const err119 = {instancePath:instancePath+"/ecs/services/" + i5+"/desiredSchedule/" + i6,schemaPath:"#/properties/ecs/properties/services/items/properties/desiredSchedule/items/maxItems",keyword:"maxItems",params:{limit: 2},message:"must NOT have more than 2 items",schema:2,parentSchema:schema40.properties.ecs.properties.services.items.properties.desiredSchedule.items,data:data53};
if(vErrors === null){
vErrors = [err119];
}
else {
vErrors.push(err119);
}
errors++;
}
if(data53.length < 2){
const err120 = {instancePath:instancePath+"/ecs/services/" + i5+"/desiredSchedule/" + i6,schemaPath:"#/properties/ecs/properties/services/items/properties/desiredSchedule/items/minItems",keyword:"minItems",params:{limit: 2},message:"must NOT have fewer than 2 items",schema:2,parentSchema:schema40.properties.ecs.properties.services.items.properties.desiredSchedule.items,data:data53};
if(vErrors === null){
vErrors = [err120];
}
else {
vErrors.push(err120);
}
errors++;
}
const len7 = data53.length;
if(len7 > 0){
let data54 = data53[0];
if(typeof data54 === "string"){
if(!pattern4.test(data54)){
const err121 = {instancePath:instancePath+"/ecs/services/" + i5+"/desiredSchedule/" + i6+"/0",schemaPath:"#/$defs/time/pattern",keyword:"pattern",params:{pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$"},message:"must match pattern \""+"^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$"+"\"",schema:"^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$",parentSchema:schema32,data:data54};
if(vErrors === null){
vErrors = [err121];
}
else {
vErrors.push(err121);
}
errors++;
}
}
else {
const err122 = {instancePath:instancePath+"/ecs/services/" + i5+"/desiredSchedule/" + i6+"/0",schemaPath:"#/$defs/time/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.type,parentSchema:schema32,data:data54};
if(vErrors === null){
vErrors = [err122];
}
else {
vErrors.push(err122);
}
errors++;
}
}
if(len7 > 1){
let data55 = data53[1];
if(!(((typeof data55 == "number") && (!(data55 % 1) && !isNaN(data55))) && (isFinite(data55)))){
const err123 = {instancePath:instancePath+"/ecs/services/" + i5+"/desiredSchedule/" + i6+"/1",schemaPath:"#/properties/ecs/properties/services/items/properties/desiredSchedule/items/prefixItems/1/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema40.properties.ecs.properties.services.items.properties.desiredSchedule.items.prefixItems[1].type,parentSchema:schema40.properties.ecs.properties.services.items.properties.desiredSchedule.items.prefixItems[1],data:data55};
if(vErrors === null){
vErrors = [err123];
}
else {
vErrors.push(err123);
}
errors++;
}
if((typeof data55 == "number") && (isFinite(data55))){
if(data55 > 10000 || isNaN(data55)){
const err124 = {instancePath:instancePath+"/ecs/services/" + i5+"/desiredSchedule/" + i6+"/1",schemaPath:"#/properties/ecs/properties/services/items/properties/desiredSchedule/items/prefixItems/1/maximum",keyword:"maximum",params:{comparison: "<=", limit: 10000},message:"must be <= 10000",schema:10000,parentSchema:schema40.properties.ecs.properties.services.items.properties.desiredSchedule.items.prefixItems[1],data:data55};
if(vErrors === null){
vErrors = [err124];
}
else {
vErrors.push(err124);
}
errors++;
}
if(data55 < 0 || isNaN(data55)){
const err125 = {instancePath:instancePath+"/ecs/services/" + i5+"/desiredSchedule/" + i6+"/1",schemaPath:"#/properties/ecs/properties/services/items/properties/desiredSchedule/items/prefixItems/1/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema40.properties.ecs.properties.services.items.properties.desiredSchedule.items.prefixItems[1],data:data55};
if(vErrors === null){
vErrors = [err125];
}
else {
vErrors.push(err125);
}
errors++;
}
}
}
}
else {
const err126 = {instancePath:instancePath+"/ecs/services/" + i5+"/desiredSchedule/" + i6,schemaPath:"#/properties/ecs/properties/services/items/properties/desiredSchedule/items/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema40.properties.ecs.properties.services.items.properties.desiredSchedule.items.type,parentSchema:schema40.properties.ecs.properties.services.items.properties.desiredSchedule.items,data:data53};
if(vErrors === null){
vErrors = [err126];
}
else {
vErrors.push(err126);
}
errors++;
}
}
}
else {
const err127 = {instancePath:instancePath+"/ecs/services/" + i5+"/desiredSchedule",schemaPath:"#/properties/ecs/properties/services/items/properties/desiredSchedule/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema40.properties.ecs.properties.services.items.properties.desiredSchedule.type,parentSchema:schema40.properties.ecs.properties.services.items.properties.desiredSchedule,data:data52};
if(vErrors === null){
vErrors = [err127];
}
else {
vErrors.push(err127);
}
errors++;
}
}
}
else {
const err128 = {instancePath:instancePath+"/ecs/services/" + i5,schemaPath:"#/properties/ecs/properties/services/items/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema40.properties.ecs.properties.services.items.type,parentSchema:schema40.properties.ecs.properties.services.items,data:data45};
if(vErrors === null){
vErrors = [err128];
}
else {
vErrors.push(err128);
}
errors++;
}
}
}
else {
const err129 = {instancePath:instancePath+"/ecs/services",schemaPath:"#/properties/ecs/properties/services/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema40.properties.ecs.properties.services.type,parentSchema:schema40.properties.ecs.properties.services,data:data44};
if(vErrors === null){
vErrors = [err129];
}
else {
vErrors.push(err129);
}
errors++;
}
}
}
else {
const err130 = {instancePath:instancePath+"/ecs",schemaPath:"#/properties/ecs/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema40.properties.ecs.type,parentSchema:schema40.properties.ecs,data:data35};
if(vErrors === null){
vErrors = [err130];
}
else {
vErrors.push(err130);
}
errors++;
}
}
}
else {
const err131 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema40.type,parentSchema:schema40,data};
if(vErrors === null){
vErrors = [err131];
}
else {
vErrors.push(err131);
}
errors++;
}
validate22.errors = vErrors;
return errors === 0;
}
validate22.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

const schema45 = {"type":"object","additionalProperties":false,"description":"What the account has committed to in this region, and the on-demand usage outside any group that competes for it. Billed each clock hour in AWS's order (docs/simulator.md).","properties":{"reservedInstances":{"type":"array","items":{"$ref":"#/$defs/reservedInstances"}},"savingsPlans":{"type":"array","items":{"$ref":"#/$defs/savingsPlan"}},"capacityReservations":{"type":"array","items":{"$ref":"#/$defs/capacityReservation"}},"unmanagedUsage":{"type":"array","items":{"$ref":"#/$defs/unmanagedUsage"}}}};
const schema46 = {"type":"object","additionalProperties":false,"required":["type","count"],"properties":{"type":{"type":"string","minLength":1,"description":"An instance type of the embedded catalogue."},"count":{"type":"integer","minimum":1,"maximum":10000},"zone":{"$ref":"#/$defs/zoneName","description":"A zonal RI's zone; without it the RI is regional."},"platform":{"$ref":"#/$defs/platform"},"tenancy":{"$ref":"#/$defs/tenancy"},"hourlyRateUsd":{"type":"number","minimum":0,"maximum":1000,"description":"What one costs per hour, upfront amortised; default 60% of the on-demand price."},"start":{"$ref":"#/$defs/time","description":"Default: the scenario's start."},"end":{"$ref":"#/$defs/time","description":"Default: never (after the run)."}}};
const schema48 = {"enum":["Linux/UNIX","Windows","Red Hat Enterprise Linux","SUSE Linux"],"default":"Linux/UNIX"};
const schema49 = {"enum":["default","dedicated"],"default":"default"};

function validate25(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate25.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.type === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "type"},message:"must have required property '"+"type"+"'",schema:schema46.required,parentSchema:schema46,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.count === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "count"},message:"must have required property '"+"count"+"'",schema:schema46.required,parentSchema:schema46,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
for(const key0 in data){
if(!((((((((key0 === "type") || (key0 === "count")) || (key0 === "zone")) || (key0 === "platform")) || (key0 === "tenancy")) || (key0 === "hourlyRateUsd")) || (key0 === "start")) || (key0 === "end"))){
const err2 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema46,data};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.type !== undefined){
let data0 = data.type;
if(typeof data0 === "string"){
if(func2(data0) < 1){
const err3 = {instancePath:instancePath+"/type",schemaPath:"#/properties/type/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema46.properties.type,data:data0};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
else {
const err4 = {instancePath:instancePath+"/type",schemaPath:"#/properties/type/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema46.properties.type.type,parentSchema:schema46.properties.type,data:data0};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.count !== undefined){
let data1 = data.count;
if(!(((typeof data1 == "number") && (!(data1 % 1) && !isNaN(data1))) && (isFinite(data1)))){
const err5 = {instancePath:instancePath+"/count",schemaPath:"#/properties/count/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema46.properties.count.type,parentSchema:schema46.properties.count,data:data1};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if((typeof data1 == "number") && (isFinite(data1))){
if(data1 > 10000 || isNaN(data1)){
const err6 = {instancePath:instancePath+"/count",schemaPath:"#/properties/count/maximum",keyword:"maximum",params:{comparison: "<=", limit: 10000},message:"must be <= 10000",schema:10000,parentSchema:schema46.properties.count,data:data1};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
if(data1 < 1 || isNaN(data1)){
const err7 = {instancePath:instancePath+"/count",schemaPath:"#/properties/count/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1",schema:1,parentSchema:schema46.properties.count,data:data1};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
}
if(data.zone !== undefined){
let data2 = data.zone;
if(typeof data2 === "string"){
if(!pattern6.test(data2)){
const err8 = {instancePath:instancePath+"/zone",schemaPath:"#/$defs/zoneName/pattern",keyword:"pattern",params:{pattern: "^[a-z]{2}(-[a-z]+)+-\\d[a-z]$"},message:"must match pattern \""+"^[a-z]{2}(-[a-z]+)+-\\d[a-z]$"+"\"",schema:"^[a-z]{2}(-[a-z]+)+-\\d[a-z]$",parentSchema:schema35,data:data2};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
else {
const err9 = {instancePath:instancePath+"/zone",schemaPath:"#/$defs/zoneName/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema35.type,parentSchema:schema35,data:data2};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data.platform !== undefined){
let data3 = data.platform;
if(!((((data3 === "Linux/UNIX") || (data3 === "Windows")) || (data3 === "Red Hat Enterprise Linux")) || (data3 === "SUSE Linux"))){
const err10 = {instancePath:instancePath+"/platform",schemaPath:"#/$defs/platform/enum",keyword:"enum",params:{allowedValues: schema48.enum},message:"must be equal to one of the allowed values",schema:schema48.enum,parentSchema:schema48,data:data3};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data.tenancy !== undefined){
let data4 = data.tenancy;
if(!((data4 === "default") || (data4 === "dedicated"))){
const err11 = {instancePath:instancePath+"/tenancy",schemaPath:"#/$defs/tenancy/enum",keyword:"enum",params:{allowedValues: schema49.enum},message:"must be equal to one of the allowed values",schema:schema49.enum,parentSchema:schema49,data:data4};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data.hourlyRateUsd !== undefined){
let data5 = data.hourlyRateUsd;
if((typeof data5 == "number") && (isFinite(data5))){
if(data5 > 1000 || isNaN(data5)){
const err12 = {instancePath:instancePath+"/hourlyRateUsd",schemaPath:"#/properties/hourlyRateUsd/maximum",keyword:"maximum",params:{comparison: "<=", limit: 1000},message:"must be <= 1000",schema:1000,parentSchema:schema46.properties.hourlyRateUsd,data:data5};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
if(data5 < 0 || isNaN(data5)){
const err13 = {instancePath:instancePath+"/hourlyRateUsd",schemaPath:"#/properties/hourlyRateUsd/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema46.properties.hourlyRateUsd,data:data5};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
else {
const err14 = {instancePath:instancePath+"/hourlyRateUsd",schemaPath:"#/properties/hourlyRateUsd/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema46.properties.hourlyRateUsd.type,parentSchema:schema46.properties.hourlyRateUsd,data:data5};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
if(data.start !== undefined){
let data6 = data.start;
if(typeof data6 === "string"){
if(!pattern4.test(data6)){
const err15 = {instancePath:instancePath+"/start",schemaPath:"#/$defs/time/pattern",keyword:"pattern",params:{pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$"},message:"must match pattern \""+"^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$"+"\"",schema:"^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$",parentSchema:schema32,data:data6};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
else {
const err16 = {instancePath:instancePath+"/start",schemaPath:"#/$defs/time/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.type,parentSchema:schema32,data:data6};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
if(data.end !== undefined){
let data7 = data.end;
if(typeof data7 === "string"){
if(!pattern4.test(data7)){
const err17 = {instancePath:instancePath+"/end",schemaPath:"#/$defs/time/pattern",keyword:"pattern",params:{pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$"},message:"must match pattern \""+"^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$"+"\"",schema:"^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$",parentSchema:schema32,data:data7};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
else {
const err18 = {instancePath:instancePath+"/end",schemaPath:"#/$defs/time/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.type,parentSchema:schema32,data:data7};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
}
else {
const err19 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema46.type,parentSchema:schema46,data};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
validate25.errors = vErrors;
return errors === 0;
}
validate25.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

const schema52 = {"type":"object","additionalProperties":false,"required":["kind","hourlyCommitmentUsd"],"properties":{"kind":{"enum":["compute","ec2-instance"]},"family":{"type":"string","pattern":"^[a-z][a-z0-9-]*$","description":"An EC2 Instance plan's family (required for one, refused for a Compute plan)."},"hourlyCommitmentUsd":{"type":"number","exclusiveMinimum":0,"maximum":100000,"description":"For a Compute plan, the share this region may use."},"discount":{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":1,"description":"Fraction off the on-demand price for types `rates` does not list; default 0.28 (compute) or 0.4 (ec2-instance)."},"rates":{"type":"object","description":"Instance type -> the plan's USD/hour for it (Linux/UNIX, default tenancy).","additionalProperties":{"$ref":"#/$defs/price"}},"start":{"$ref":"#/$defs/time"},"end":{"$ref":"#/$defs/time"}}};
const pattern16 = new RegExp("^[a-z][a-z0-9-]*$", "u");

function validate27(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate27.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.kind === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "kind"},message:"must have required property '"+"kind"+"'",schema:schema52.required,parentSchema:schema52,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.hourlyCommitmentUsd === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "hourlyCommitmentUsd"},message:"must have required property '"+"hourlyCommitmentUsd"+"'",schema:schema52.required,parentSchema:schema52,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
for(const key0 in data){
if(!(((((((key0 === "kind") || (key0 === "family")) || (key0 === "hourlyCommitmentUsd")) || (key0 === "discount")) || (key0 === "rates")) || (key0 === "start")) || (key0 === "end"))){
const err2 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema52,data};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.kind !== undefined){
let data0 = data.kind;
if(!((data0 === "compute") || (data0 === "ec2-instance"))){
const err3 = {instancePath:instancePath+"/kind",schemaPath:"#/properties/kind/enum",keyword:"enum",params:{allowedValues: schema52.properties.kind.enum},message:"must be equal to one of the allowed values",schema:schema52.properties.kind.enum,parentSchema:schema52.properties.kind,data:data0};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.family !== undefined){
let data1 = data.family;
if(typeof data1 === "string"){
if(!pattern16.test(data1)){
const err4 = {instancePath:instancePath+"/family",schemaPath:"#/properties/family/pattern",keyword:"pattern",params:{pattern: "^[a-z][a-z0-9-]*$"},message:"must match pattern \""+"^[a-z][a-z0-9-]*$"+"\"",schema:"^[a-z][a-z0-9-]*$",parentSchema:schema52.properties.family,data:data1};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
else {
const err5 = {instancePath:instancePath+"/family",schemaPath:"#/properties/family/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema52.properties.family.type,parentSchema:schema52.properties.family,data:data1};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.hourlyCommitmentUsd !== undefined){
let data2 = data.hourlyCommitmentUsd;
if((typeof data2 == "number") && (isFinite(data2))){
if(data2 > 100000 || isNaN(data2)){
const err6 = {instancePath:instancePath+"/hourlyCommitmentUsd",schemaPath:"#/properties/hourlyCommitmentUsd/maximum",keyword:"maximum",params:{comparison: "<=", limit: 100000},message:"must be <= 100000",schema:100000,parentSchema:schema52.properties.hourlyCommitmentUsd,data:data2};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
if(data2 <= 0 || isNaN(data2)){
const err7 = {instancePath:instancePath+"/hourlyCommitmentUsd",schemaPath:"#/properties/hourlyCommitmentUsd/exclusiveMinimum",keyword:"exclusiveMinimum",params:{comparison: ">", limit: 0},message:"must be > 0",schema:0,parentSchema:schema52.properties.hourlyCommitmentUsd,data:data2};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
else {
const err8 = {instancePath:instancePath+"/hourlyCommitmentUsd",schemaPath:"#/properties/hourlyCommitmentUsd/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema52.properties.hourlyCommitmentUsd.type,parentSchema:schema52.properties.hourlyCommitmentUsd,data:data2};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.discount !== undefined){
let data3 = data.discount;
if((typeof data3 == "number") && (isFinite(data3))){
if(data3 >= 1 || isNaN(data3)){
const err9 = {instancePath:instancePath+"/discount",schemaPath:"#/properties/discount/exclusiveMaximum",keyword:"exclusiveMaximum",params:{comparison: "<", limit: 1},message:"must be < 1",schema:1,parentSchema:schema52.properties.discount,data:data3};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
if(data3 <= 0 || isNaN(data3)){
const err10 = {instancePath:instancePath+"/discount",schemaPath:"#/properties/discount/exclusiveMinimum",keyword:"exclusiveMinimum",params:{comparison: ">", limit: 0},message:"must be > 0",schema:0,parentSchema:schema52.properties.discount,data:data3};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
else {
const err11 = {instancePath:instancePath+"/discount",schemaPath:"#/properties/discount/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema52.properties.discount.type,parentSchema:schema52.properties.discount,data:data3};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data.rates !== undefined){
let data4 = data.rates;
if(data4 && typeof data4 == "object" && !Array.isArray(data4)){
for(const key1 in data4){
let data5 = data4[key1];
if((typeof data5 == "number") && (isFinite(data5))){
if(data5 > 1000 || isNaN(data5)){
const err12 = {instancePath:instancePath+"/rates/" + key1.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/price/maximum",keyword:"maximum",params:{comparison: "<=", limit: 1000},message:"must be <= 1000",schema:1000,parentSchema:schema36,data:data5};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
if(data5 <= 0 || isNaN(data5)){
const err13 = {instancePath:instancePath+"/rates/" + key1.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/price/exclusiveMinimum",keyword:"exclusiveMinimum",params:{comparison: ">", limit: 0},message:"must be > 0",schema:0,parentSchema:schema36,data:data5};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
else {
const err14 = {instancePath:instancePath+"/rates/" + key1.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/price/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema36.type,parentSchema:schema36,data:data5};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
}
else {
const err15 = {instancePath:instancePath+"/rates",schemaPath:"#/properties/rates/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema52.properties.rates.type,parentSchema:schema52.properties.rates,data:data4};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
if(data.start !== undefined){
let data6 = data.start;
if(typeof data6 === "string"){
if(!pattern4.test(data6)){
const err16 = {instancePath:instancePath+"/start",schemaPath:"#/$defs/time/pattern",keyword:"pattern",params:{pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$"},message:"must match pattern \""+"^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$"+"\"",schema:"^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$",parentSchema:schema32,data:data6};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
else {
const err17 = {instancePath:instancePath+"/start",schemaPath:"#/$defs/time/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.type,parentSchema:schema32,data:data6};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
if(data.end !== undefined){
let data7 = data.end;
if(typeof data7 === "string"){
if(!pattern4.test(data7)){
const err18 = {instancePath:instancePath+"/end",schemaPath:"#/$defs/time/pattern",keyword:"pattern",params:{pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$"},message:"must match pattern \""+"^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$"+"\"",schema:"^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$",parentSchema:schema32,data:data7};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
else {
const err19 = {instancePath:instancePath+"/end",schemaPath:"#/$defs/time/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.type,parentSchema:schema32,data:data7};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
}
else {
const err20 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema52.type,parentSchema:schema52,data};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
validate27.errors = vErrors;
return errors === 0;
}
validate27.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

const schema56 = {"type":"object","additionalProperties":false,"required":["type","zone","count"],"properties":{"type":{"type":"string","minLength":1},"zone":{"$ref":"#/$defs/zoneName"},"count":{"type":"integer","minimum":1,"maximum":10000},"platform":{"$ref":"#/$defs/platform"},"tenancy":{"$ref":"#/$defs/tenancy"},"matchCriteria":{"enum":["open","targeted"],"default":"open"},"start":{"$ref":"#/$defs/time"},"end":{"$ref":"#/$defs/time"}}};

function validate29(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate29.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.type === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "type"},message:"must have required property '"+"type"+"'",schema:schema56.required,parentSchema:schema56,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.zone === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "zone"},message:"must have required property '"+"zone"+"'",schema:schema56.required,parentSchema:schema56,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.count === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "count"},message:"must have required property '"+"count"+"'",schema:schema56.required,parentSchema:schema56,data};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
for(const key0 in data){
if(!((((((((key0 === "type") || (key0 === "zone")) || (key0 === "count")) || (key0 === "platform")) || (key0 === "tenancy")) || (key0 === "matchCriteria")) || (key0 === "start")) || (key0 === "end"))){
const err3 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema56,data};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.type !== undefined){
let data0 = data.type;
if(typeof data0 === "string"){
if(func2(data0) < 1){
const err4 = {instancePath:instancePath+"/type",schemaPath:"#/properties/type/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema56.properties.type,data:data0};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
else {
const err5 = {instancePath:instancePath+"/type",schemaPath:"#/properties/type/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema56.properties.type.type,parentSchema:schema56.properties.type,data:data0};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.zone !== undefined){
let data1 = data.zone;
if(typeof data1 === "string"){
if(!pattern6.test(data1)){
const err6 = {instancePath:instancePath+"/zone",schemaPath:"#/$defs/zoneName/pattern",keyword:"pattern",params:{pattern: "^[a-z]{2}(-[a-z]+)+-\\d[a-z]$"},message:"must match pattern \""+"^[a-z]{2}(-[a-z]+)+-\\d[a-z]$"+"\"",schema:"^[a-z]{2}(-[a-z]+)+-\\d[a-z]$",parentSchema:schema35,data:data1};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
else {
const err7 = {instancePath:instancePath+"/zone",schemaPath:"#/$defs/zoneName/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema35.type,parentSchema:schema35,data:data1};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.count !== undefined){
let data2 = data.count;
if(!(((typeof data2 == "number") && (!(data2 % 1) && !isNaN(data2))) && (isFinite(data2)))){
const err8 = {instancePath:instancePath+"/count",schemaPath:"#/properties/count/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema56.properties.count.type,parentSchema:schema56.properties.count,data:data2};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
if((typeof data2 == "number") && (isFinite(data2))){
if(data2 > 10000 || isNaN(data2)){
const err9 = {instancePath:instancePath+"/count",schemaPath:"#/properties/count/maximum",keyword:"maximum",params:{comparison: "<=", limit: 10000},message:"must be <= 10000",schema:10000,parentSchema:schema56.properties.count,data:data2};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
if(data2 < 1 || isNaN(data2)){
const err10 = {instancePath:instancePath+"/count",schemaPath:"#/properties/count/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1",schema:1,parentSchema:schema56.properties.count,data:data2};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
}
if(data.platform !== undefined){
let data3 = data.platform;
if(!((((data3 === "Linux/UNIX") || (data3 === "Windows")) || (data3 === "Red Hat Enterprise Linux")) || (data3 === "SUSE Linux"))){
const err11 = {instancePath:instancePath+"/platform",schemaPath:"#/$defs/platform/enum",keyword:"enum",params:{allowedValues: schema48.enum},message:"must be equal to one of the allowed values",schema:schema48.enum,parentSchema:schema48,data:data3};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data.tenancy !== undefined){
let data4 = data.tenancy;
if(!((data4 === "default") || (data4 === "dedicated"))){
const err12 = {instancePath:instancePath+"/tenancy",schemaPath:"#/$defs/tenancy/enum",keyword:"enum",params:{allowedValues: schema49.enum},message:"must be equal to one of the allowed values",schema:schema49.enum,parentSchema:schema49,data:data4};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(data.matchCriteria !== undefined){
let data5 = data.matchCriteria;
if(!((data5 === "open") || (data5 === "targeted"))){
const err13 = {instancePath:instancePath+"/matchCriteria",schemaPath:"#/properties/matchCriteria/enum",keyword:"enum",params:{allowedValues: schema56.properties.matchCriteria.enum},message:"must be equal to one of the allowed values",schema:schema56.properties.matchCriteria.enum,parentSchema:schema56.properties.matchCriteria,data:data5};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data.start !== undefined){
let data6 = data.start;
if(typeof data6 === "string"){
if(!pattern4.test(data6)){
const err14 = {instancePath:instancePath+"/start",schemaPath:"#/$defs/time/pattern",keyword:"pattern",params:{pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$"},message:"must match pattern \""+"^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$"+"\"",schema:"^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$",parentSchema:schema32,data:data6};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
else {
const err15 = {instancePath:instancePath+"/start",schemaPath:"#/$defs/time/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.type,parentSchema:schema32,data:data6};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
if(data.end !== undefined){
let data7 = data.end;
if(typeof data7 === "string"){
if(!pattern4.test(data7)){
const err16 = {instancePath:instancePath+"/end",schemaPath:"#/$defs/time/pattern",keyword:"pattern",params:{pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$"},message:"must match pattern \""+"^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$"+"\"",schema:"^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$",parentSchema:schema32,data:data7};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
else {
const err17 = {instancePath:instancePath+"/end",schemaPath:"#/$defs/time/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.type,parentSchema:schema32,data:data7};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
}
else {
const err18 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema56.type,parentSchema:schema56,data};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
validate29.errors = vErrors;
return errors === 0;
}
validate29.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

const schema62 = {"type":"object","additionalProperties":false,"required":["type","zone","count"],"description":"On-demand instances no group of the scenario holds (another team's, a database): billed, and first in line for the commitments when spotswap decides.","properties":{"type":{"type":"string","minLength":1},"zone":{"$ref":"#/$defs/zoneName"},"count":{"type":"integer","minimum":1,"maximum":10000},"platform":{"$ref":"#/$defs/platform"},"tenancy":{"$ref":"#/$defs/tenancy"},"start":{"$ref":"#/$defs/time"},"end":{"$ref":"#/$defs/time"}}};

function validate31(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate31.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.type === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "type"},message:"must have required property '"+"type"+"'",schema:schema62.required,parentSchema:schema62,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.zone === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "zone"},message:"must have required property '"+"zone"+"'",schema:schema62.required,parentSchema:schema62,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.count === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "count"},message:"must have required property '"+"count"+"'",schema:schema62.required,parentSchema:schema62,data};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
for(const key0 in data){
if(!(((((((key0 === "type") || (key0 === "zone")) || (key0 === "count")) || (key0 === "platform")) || (key0 === "tenancy")) || (key0 === "start")) || (key0 === "end"))){
const err3 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema62,data};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.type !== undefined){
let data0 = data.type;
if(typeof data0 === "string"){
if(func2(data0) < 1){
const err4 = {instancePath:instancePath+"/type",schemaPath:"#/properties/type/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema62.properties.type,data:data0};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
else {
const err5 = {instancePath:instancePath+"/type",schemaPath:"#/properties/type/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema62.properties.type.type,parentSchema:schema62.properties.type,data:data0};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.zone !== undefined){
let data1 = data.zone;
if(typeof data1 === "string"){
if(!pattern6.test(data1)){
const err6 = {instancePath:instancePath+"/zone",schemaPath:"#/$defs/zoneName/pattern",keyword:"pattern",params:{pattern: "^[a-z]{2}(-[a-z]+)+-\\d[a-z]$"},message:"must match pattern \""+"^[a-z]{2}(-[a-z]+)+-\\d[a-z]$"+"\"",schema:"^[a-z]{2}(-[a-z]+)+-\\d[a-z]$",parentSchema:schema35,data:data1};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
else {
const err7 = {instancePath:instancePath+"/zone",schemaPath:"#/$defs/zoneName/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema35.type,parentSchema:schema35,data:data1};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.count !== undefined){
let data2 = data.count;
if(!(((typeof data2 == "number") && (!(data2 % 1) && !isNaN(data2))) && (isFinite(data2)))){
const err8 = {instancePath:instancePath+"/count",schemaPath:"#/properties/count/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema62.properties.count.type,parentSchema:schema62.properties.count,data:data2};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
if((typeof data2 == "number") && (isFinite(data2))){
if(data2 > 10000 || isNaN(data2)){
const err9 = {instancePath:instancePath+"/count",schemaPath:"#/properties/count/maximum",keyword:"maximum",params:{comparison: "<=", limit: 10000},message:"must be <= 10000",schema:10000,parentSchema:schema62.properties.count,data:data2};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
if(data2 < 1 || isNaN(data2)){
const err10 = {instancePath:instancePath+"/count",schemaPath:"#/properties/count/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1",schema:1,parentSchema:schema62.properties.count,data:data2};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
}
if(data.platform !== undefined){
let data3 = data.platform;
if(!((((data3 === "Linux/UNIX") || (data3 === "Windows")) || (data3 === "Red Hat Enterprise Linux")) || (data3 === "SUSE Linux"))){
const err11 = {instancePath:instancePath+"/platform",schemaPath:"#/$defs/platform/enum",keyword:"enum",params:{allowedValues: schema48.enum},message:"must be equal to one of the allowed values",schema:schema48.enum,parentSchema:schema48,data:data3};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data.tenancy !== undefined){
let data4 = data.tenancy;
if(!((data4 === "default") || (data4 === "dedicated"))){
const err12 = {instancePath:instancePath+"/tenancy",schemaPath:"#/$defs/tenancy/enum",keyword:"enum",params:{allowedValues: schema49.enum},message:"must be equal to one of the allowed values",schema:schema49.enum,parentSchema:schema49,data:data4};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(data.start !== undefined){
let data5 = data.start;
if(typeof data5 === "string"){
if(!pattern4.test(data5)){
const err13 = {instancePath:instancePath+"/start",schemaPath:"#/$defs/time/pattern",keyword:"pattern",params:{pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$"},message:"must match pattern \""+"^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$"+"\"",schema:"^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$",parentSchema:schema32,data:data5};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
else {
const err14 = {instancePath:instancePath+"/start",schemaPath:"#/$defs/time/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.type,parentSchema:schema32,data:data5};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
if(data.end !== undefined){
let data6 = data.end;
if(typeof data6 === "string"){
if(!pattern4.test(data6)){
const err15 = {instancePath:instancePath+"/end",schemaPath:"#/$defs/time/pattern",keyword:"pattern",params:{pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$"},message:"must match pattern \""+"^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$"+"\"",schema:"^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$",parentSchema:schema32,data:data6};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
else {
const err16 = {instancePath:instancePath+"/end",schemaPath:"#/$defs/time/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.type,parentSchema:schema32,data:data6};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
}
else {
const err17 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema62.type,parentSchema:schema62,data};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
validate31.errors = vErrors;
return errors === 0;
}
validate31.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};


function validate24(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate24.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
for(const key0 in data){
if(!((((key0 === "reservedInstances") || (key0 === "savingsPlans")) || (key0 === "capacityReservations")) || (key0 === "unmanagedUsage"))){
const err0 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema45,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
if(data.reservedInstances !== undefined){
let data0 = data.reservedInstances;
if(Array.isArray(data0)){
const len0 = data0.length;
for(let i0=0; i0<len0; i0++){
if(!(validate25(data0[i0], {instancePath:instancePath+"/reservedInstances/" + i0,parentData:data0,parentDataProperty:i0,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate25.errors : vErrors.concat(validate25.errors);
errors = vErrors.length;
}
}
}
else {
const err1 = {instancePath:instancePath+"/reservedInstances",schemaPath:"#/properties/reservedInstances/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema45.properties.reservedInstances.type,parentSchema:schema45.properties.reservedInstances,data:data0};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.savingsPlans !== undefined){
let data2 = data.savingsPlans;
if(Array.isArray(data2)){
const len1 = data2.length;
for(let i1=0; i1<len1; i1++){
if(!(validate27(data2[i1], {instancePath:instancePath+"/savingsPlans/" + i1,parentData:data2,parentDataProperty:i1,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate27.errors : vErrors.concat(validate27.errors);
errors = vErrors.length;
}
}
}
else {
const err2 = {instancePath:instancePath+"/savingsPlans",schemaPath:"#/properties/savingsPlans/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema45.properties.savingsPlans.type,parentSchema:schema45.properties.savingsPlans,data:data2};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.capacityReservations !== undefined){
let data4 = data.capacityReservations;
if(Array.isArray(data4)){
const len2 = data4.length;
for(let i2=0; i2<len2; i2++){
if(!(validate29(data4[i2], {instancePath:instancePath+"/capacityReservations/" + i2,parentData:data4,parentDataProperty:i2,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate29.errors : vErrors.concat(validate29.errors);
errors = vErrors.length;
}
}
}
else {
const err3 = {instancePath:instancePath+"/capacityReservations",schemaPath:"#/properties/capacityReservations/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema45.properties.capacityReservations.type,parentSchema:schema45.properties.capacityReservations,data:data4};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.unmanagedUsage !== undefined){
let data6 = data.unmanagedUsage;
if(Array.isArray(data6)){
const len3 = data6.length;
for(let i3=0; i3<len3; i3++){
if(!(validate31(data6[i3], {instancePath:instancePath+"/unmanagedUsage/" + i3,parentData:data6,parentDataProperty:i3,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate31.errors : vErrors.concat(validate31.errors);
errors = vErrors.length;
}
}
}
else {
const err4 = {instancePath:instancePath+"/unmanagedUsage",schemaPath:"#/properties/unmanagedUsage/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema45.properties.unmanagedUsage.type,parentSchema:schema45.properties.unmanagedUsage,data:data6};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
}
else {
const err5 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema45.type,parentSchema:schema45,data};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
validate24.errors = vErrors;
return errors === 0;
}
validate24.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};


function validate21(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate21.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.zones === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "zones"},message:"must have required property '"+"zones"+"'",schema:schema34.required,parentSchema:schema34,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.groups === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "groups"},message:"must have required property '"+"groups"+"'",schema:schema34.required,parentSchema:schema34,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
for(const key0 in data){
if(!(((((key0 === "zones") || (key0 === "spotPrices")) || (key0 === "capacity")) || (key0 === "groups")) || (key0 === "commitments"))){
const err2 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema34,data};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.zones !== undefined){
let data0 = data.zones;
if(Array.isArray(data0)){
if(data0.length < 1){
const err3 = {instancePath:instancePath+"/zones",schemaPath:"#/properties/zones/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items",schema:1,parentSchema:schema34.properties.zones,data:data0};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
const len0 = data0.length;
for(let i0=0; i0<len0; i0++){
let data1 = data0[i0];
if(typeof data1 === "string"){
if(!pattern6.test(data1)){
const err4 = {instancePath:instancePath+"/zones/" + i0,schemaPath:"#/$defs/zoneName/pattern",keyword:"pattern",params:{pattern: "^[a-z]{2}(-[a-z]+)+-\\d[a-z]$"},message:"must match pattern \""+"^[a-z]{2}(-[a-z]+)+-\\d[a-z]$"+"\"",schema:"^[a-z]{2}(-[a-z]+)+-\\d[a-z]$",parentSchema:schema35,data:data1};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
else {
const err5 = {instancePath:instancePath+"/zones/" + i0,schemaPath:"#/$defs/zoneName/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema35.type,parentSchema:schema35,data:data1};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
let i1 = data0.length;
let j0;
if(i1 > 1){
outer0:
for(;i1--;){
for(j0 = i1; j0--;){
if(func0(data0[i1], data0[j0])){
const err6 = {instancePath:instancePath+"/zones",schemaPath:"#/properties/zones/uniqueItems",keyword:"uniqueItems",params:{i: i1, j: j0},message:"must NOT have duplicate items (items ## "+j0+" and "+i1+" are identical)",schema:true,parentSchema:schema34.properties.zones,data:data0};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
break outer0;
}
}
}
}
}
else {
const err7 = {instancePath:instancePath+"/zones",schemaPath:"#/properties/zones/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema34.properties.zones.type,parentSchema:schema34.properties.zones,data:data0};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.spotPrices !== undefined){
let data2 = data.spotPrices;
if(data2 && typeof data2 == "object" && !Array.isArray(data2)){
for(const key1 in data2){
let data3 = data2[key1];
if(data3 && typeof data3 == "object" && !Array.isArray(data3)){
for(const key2 in data3){
let data4 = data3[key2];
const _errs14 = errors;
let valid7 = true;
const _errs15 = errors;
if(!((typeof data4 == "number") && (isFinite(data4)))){
const err8 = {};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
var _valid0 = _errs15 === errors;
errors = _errs14;
if(vErrors !== null){
if(_errs14){
vErrors.length = _errs14;
}
else {
vErrors = null;
}
}
let ifClause0;
if(_valid0){
const _errs17 = errors;
if((typeof data4 == "number") && (isFinite(data4))){
if(data4 > 1000 || isNaN(data4)){
const err9 = {instancePath:instancePath+"/spotPrices/" + key1.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key2.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/price/maximum",keyword:"maximum",params:{comparison: "<=", limit: 1000},message:"must be <= 1000",schema:1000,parentSchema:schema36,data:data4};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
if(data4 <= 0 || isNaN(data4)){
const err10 = {instancePath:instancePath+"/spotPrices/" + key1.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key2.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/price/exclusiveMinimum",keyword:"exclusiveMinimum",params:{comparison: ">", limit: 0},message:"must be > 0",schema:0,parentSchema:schema36,data:data4};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
else {
const err11 = {instancePath:instancePath+"/spotPrices/" + key1.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key2.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/price/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema36.type,parentSchema:schema36,data:data4};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
var _valid0 = _errs17 === errors;
valid7 = _valid0;
ifClause0 = "then";
}
else {
const _errs20 = errors;
if(Array.isArray(data4)){
if(data4.length < 1){
const err12 = {instancePath:instancePath+"/spotPrices/" + key1.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key2.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/spotPrices/additionalProperties/additionalProperties/else/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items",schema:1,parentSchema:schema34.properties.spotPrices.additionalProperties.additionalProperties.else,data:data4};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
const len1 = data4.length;
for(let i2=0; i2<len1; i2++){
let data5 = data4[i2];
if(Array.isArray(data5)){
if(data5.length > 2){
const err13 = {instancePath:instancePath+"/spotPrices/" + key1.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key2.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + i2,schemaPath:"#/properties/spotPrices/additionalProperties/additionalProperties/else/items/maxItems",keyword:"maxItems",params:{limit: 2},message:"must NOT have more than 2 items",schema:2,parentSchema:schema34.properties.spotPrices.additionalProperties.additionalProperties.else.items,data:data5};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
if(data5.length < 2){
const err14 = {instancePath:instancePath+"/spotPrices/" + key1.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key2.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + i2,schemaPath:"#/properties/spotPrices/additionalProperties/additionalProperties/else/items/minItems",keyword:"minItems",params:{limit: 2},message:"must NOT have fewer than 2 items",schema:2,parentSchema:schema34.properties.spotPrices.additionalProperties.additionalProperties.else.items,data:data5};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
const len2 = data5.length;
if(len2 > 0){
let data6 = data5[0];
if(typeof data6 === "string"){
if(!pattern4.test(data6)){
const err15 = {instancePath:instancePath+"/spotPrices/" + key1.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key2.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + i2+"/0",schemaPath:"#/$defs/time/pattern",keyword:"pattern",params:{pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$"},message:"must match pattern \""+"^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$"+"\"",schema:"^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$",parentSchema:schema32,data:data6};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
else {
const err16 = {instancePath:instancePath+"/spotPrices/" + key1.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key2.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + i2+"/0",schemaPath:"#/$defs/time/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.type,parentSchema:schema32,data:data6};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
if(len2 > 1){
let data7 = data5[1];
if((typeof data7 == "number") && (isFinite(data7))){
if(data7 > 1000 || isNaN(data7)){
const err17 = {instancePath:instancePath+"/spotPrices/" + key1.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key2.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + i2+"/1",schemaPath:"#/$defs/price/maximum",keyword:"maximum",params:{comparison: "<=", limit: 1000},message:"must be <= 1000",schema:1000,parentSchema:schema36,data:data7};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
if(data7 <= 0 || isNaN(data7)){
const err18 = {instancePath:instancePath+"/spotPrices/" + key1.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key2.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + i2+"/1",schemaPath:"#/$defs/price/exclusiveMinimum",keyword:"exclusiveMinimum",params:{comparison: ">", limit: 0},message:"must be > 0",schema:0,parentSchema:schema36,data:data7};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
else {
const err19 = {instancePath:instancePath+"/spotPrices/" + key1.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key2.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + i2+"/1",schemaPath:"#/$defs/price/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema36.type,parentSchema:schema36,data:data7};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
}
else {
const err20 = {instancePath:instancePath+"/spotPrices/" + key1.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key2.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + i2,schemaPath:"#/properties/spotPrices/additionalProperties/additionalProperties/else/items/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema34.properties.spotPrices.additionalProperties.additionalProperties.else.items.type,parentSchema:schema34.properties.spotPrices.additionalProperties.additionalProperties.else.items,data:data5};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
}
else {
const err21 = {instancePath:instancePath+"/spotPrices/" + key1.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key2.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/spotPrices/additionalProperties/additionalProperties/else/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema34.properties.spotPrices.additionalProperties.additionalProperties.else.type,parentSchema:schema34.properties.spotPrices.additionalProperties.additionalProperties.else,data:data4};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
var _valid0 = _errs20 === errors;
valid7 = _valid0;
ifClause0 = "else";
}
if(!valid7){
const err22 = {instancePath:instancePath+"/spotPrices/" + key1.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key2.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/spotPrices/additionalProperties/additionalProperties/if",keyword:"if",params:{failingKeyword: ifClause0},message:"must match \""+ifClause0+"\" schema",schema:schema34.properties.spotPrices.additionalProperties.additionalProperties.if,parentSchema:schema34.properties.spotPrices.additionalProperties.additionalProperties,data:data4};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
}
else {
const err23 = {instancePath:instancePath+"/spotPrices/" + key1.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/spotPrices/additionalProperties/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema34.properties.spotPrices.additionalProperties.type,parentSchema:schema34.properties.spotPrices.additionalProperties,data:data3};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
}
}
else {
const err24 = {instancePath:instancePath+"/spotPrices",schemaPath:"#/properties/spotPrices/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema34.properties.spotPrices.type,parentSchema:schema34.properties.spotPrices,data:data2};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
}
if(data.capacity !== undefined){
let data8 = data.capacity;
if(data8 && typeof data8 == "object" && !Array.isArray(data8)){
for(const key3 in data8){
const _errs32 = errors;
if(typeof key3 === "string"){
if(!pattern8.test(key3)){
const err25 = {instancePath:instancePath+"/capacity",schemaPath:"#/$defs/poolKey/pattern",keyword:"pattern",params:{pattern: "^[a-z0-9-]+\\.[a-z0-9-]+/[a-z]{2}(-[a-z]+)+-\\d[a-z]$"},message:"must match pattern \""+"^[a-z0-9-]+\\.[a-z0-9-]+/[a-z]{2}(-[a-z]+)+-\\d[a-z]$"+"\"",schema:"^[a-z0-9-]+\\.[a-z0-9-]+/[a-z]{2}(-[a-z]+)+-\\d[a-z]$",parentSchema:schema39,data:key3,propertyName:key3};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
}
else {
const err26 = {instancePath:instancePath+"/capacity",schemaPath:"#/$defs/poolKey/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema39.type,parentSchema:schema39,data:key3,propertyName:key3};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
}
var valid14 = _errs32 === errors;
if(!valid14){
const err27 = {instancePath:instancePath+"/capacity",schemaPath:"#/properties/capacity/propertyNames",keyword:"propertyNames",params:{propertyName: key3},message:"property name must be valid",schema:schema34.properties.capacity.propertyNames,parentSchema:schema34.properties.capacity,data:data8};
if(vErrors === null){
vErrors = [err27];
}
else {
vErrors.push(err27);
}
errors++;
}
}
for(const key4 in data8){
let data9 = data8[key4];
if(!(data9 && typeof data9 == "object" && !Array.isArray(data9))){
const err28 = {instancePath:instancePath+"/capacity/" + key4.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/capacity/additionalProperties/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema34.properties.capacity.additionalProperties.type,parentSchema:schema34.properties.capacity.additionalProperties,data:data9};
if(vErrors === null){
vErrors = [err28];
}
else {
vErrors.push(err28);
}
errors++;
}
const _errs38 = errors;
let valid17 = true;
const _errs39 = errors;
if(data9 && typeof data9 == "object" && !Array.isArray(data9)){
let missing0;
if((data9.available === undefined) && (missing0 = "available")){
const err29 = {};
if(vErrors === null){
vErrors = [err29];
}
else {
vErrors.push(err29);
}
errors++;
}
}
var _valid1 = _errs39 === errors;
errors = _errs38;
if(vErrors !== null){
if(_errs38){
vErrors.length = _errs38;
}
else {
vErrors = null;
}
}
let ifClause1;
if(_valid1){
const _errs40 = errors;
if(data9 && typeof data9 == "object" && !Array.isArray(data9)){
for(const key5 in data9){
if(!(key5 === "available")){
const err30 = {instancePath:instancePath+"/capacity/" + key4.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/capacity/additionalProperties/then/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key5},message:"must NOT have additional properties",schema:false,parentSchema:schema34.properties.capacity.additionalProperties.then,data:data9};
if(vErrors === null){
vErrors = [err30];
}
else {
vErrors.push(err30);
}
errors++;
}
}
if(data9.available !== undefined){
let data10 = data9.available;
if(false !== data10){
const err31 = {instancePath:instancePath+"/capacity/" + key4.replace(/~/g, "~0").replace(/\//g, "~1")+"/available",schemaPath:"#/properties/capacity/additionalProperties/then/properties/available/const",keyword:"const",params:{allowedValue: false},message:"must be equal to constant",schema:false,parentSchema:schema34.properties.capacity.additionalProperties.then.properties.available,data:data10};
if(vErrors === null){
vErrors = [err31];
}
else {
vErrors.push(err31);
}
errors++;
}
}
}
var _valid1 = _errs40 === errors;
valid17 = _valid1;
if(valid17){
var props0 = true;
}
ifClause1 = "then";
}
else {
const _errs43 = errors;
if(data9 && typeof data9 == "object" && !Array.isArray(data9)){
if(data9.trace === undefined){
const err32 = {instancePath:instancePath+"/capacity/" + key4.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/capacity/additionalProperties/else/required",keyword:"required",params:{missingProperty: "trace"},message:"must have required property '"+"trace"+"'",schema:schema34.properties.capacity.additionalProperties.else.required,parentSchema:schema34.properties.capacity.additionalProperties.else,data:data9};
if(vErrors === null){
vErrors = [err32];
}
else {
vErrors.push(err32);
}
errors++;
}
for(const key6 in data9){
if(!((key6 === "trace") || (key6 === "startIndex"))){
const err33 = {instancePath:instancePath+"/capacity/" + key4.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/capacity/additionalProperties/else/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key6},message:"must NOT have additional properties",schema:false,parentSchema:schema34.properties.capacity.additionalProperties.else,data:data9};
if(vErrors === null){
vErrors = [err33];
}
else {
vErrors.push(err33);
}
errors++;
}
}
if(data9.trace !== undefined){
let data11 = data9.trace;
if(typeof data11 === "string"){
if(func2(data11) < 1){
const err34 = {instancePath:instancePath+"/capacity/" + key4.replace(/~/g, "~0").replace(/\//g, "~1")+"/trace",schemaPath:"#/properties/capacity/additionalProperties/else/properties/trace/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema34.properties.capacity.additionalProperties.else.properties.trace,data:data11};
if(vErrors === null){
vErrors = [err34];
}
else {
vErrors.push(err34);
}
errors++;
}
}
else {
const err35 = {instancePath:instancePath+"/capacity/" + key4.replace(/~/g, "~0").replace(/\//g, "~1")+"/trace",schemaPath:"#/properties/capacity/additionalProperties/else/properties/trace/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema34.properties.capacity.additionalProperties.else.properties.trace.type,parentSchema:schema34.properties.capacity.additionalProperties.else.properties.trace,data:data11};
if(vErrors === null){
vErrors = [err35];
}
else {
vErrors.push(err35);
}
errors++;
}
}
if(data9.startIndex !== undefined){
let data12 = data9.startIndex;
if(!(((typeof data12 == "number") && (!(data12 % 1) && !isNaN(data12))) && (isFinite(data12)))){
const err36 = {instancePath:instancePath+"/capacity/" + key4.replace(/~/g, "~0").replace(/\//g, "~1")+"/startIndex",schemaPath:"#/properties/capacity/additionalProperties/else/properties/startIndex/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema34.properties.capacity.additionalProperties.else.properties.startIndex.type,parentSchema:schema34.properties.capacity.additionalProperties.else.properties.startIndex,data:data12};
if(vErrors === null){
vErrors = [err36];
}
else {
vErrors.push(err36);
}
errors++;
}
if((typeof data12 == "number") && (isFinite(data12))){
if(data12 < 0 || isNaN(data12)){
const err37 = {instancePath:instancePath+"/capacity/" + key4.replace(/~/g, "~0").replace(/\//g, "~1")+"/startIndex",schemaPath:"#/properties/capacity/additionalProperties/else/properties/startIndex/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema34.properties.capacity.additionalProperties.else.properties.startIndex,data:data12};
if(vErrors === null){
vErrors = [err37];
}
else {
vErrors.push(err37);
}
errors++;
}
}
}
}
else {
const err38 = {instancePath:instancePath+"/capacity/" + key4.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/capacity/additionalProperties/else/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema34.properties.capacity.additionalProperties.else.type,parentSchema:schema34.properties.capacity.additionalProperties.else,data:data9};
if(vErrors === null){
vErrors = [err38];
}
else {
vErrors.push(err38);
}
errors++;
}
var _valid1 = _errs43 === errors;
valid17 = _valid1;
if(valid17){
if(props0 !== true){
props0 = true;
}
}
ifClause1 = "else";
}
if(!valid17){
const err39 = {instancePath:instancePath+"/capacity/" + key4.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/capacity/additionalProperties/if",keyword:"if",params:{failingKeyword: ifClause1},message:"must match \""+ifClause1+"\" schema",schema:schema34.properties.capacity.additionalProperties.if,parentSchema:schema34.properties.capacity.additionalProperties,data:data9};
if(vErrors === null){
vErrors = [err39];
}
else {
vErrors.push(err39);
}
errors++;
}
}
}
else {
const err40 = {instancePath:instancePath+"/capacity",schemaPath:"#/properties/capacity/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema34.properties.capacity.type,parentSchema:schema34.properties.capacity,data:data8};
if(vErrors === null){
vErrors = [err40];
}
else {
vErrors.push(err40);
}
errors++;
}
}
if(data.groups !== undefined){
let data13 = data.groups;
if(Array.isArray(data13)){
const len3 = data13.length;
for(let i3=0; i3<len3; i3++){
if(!(validate22(data13[i3], {instancePath:instancePath+"/groups/" + i3,parentData:data13,parentDataProperty:i3,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate22.errors : vErrors.concat(validate22.errors);
errors = vErrors.length;
}
}
}
else {
const err41 = {instancePath:instancePath+"/groups",schemaPath:"#/properties/groups/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema34.properties.groups.type,parentSchema:schema34.properties.groups,data:data13};
if(vErrors === null){
vErrors = [err41];
}
else {
vErrors.push(err41);
}
errors++;
}
}
if(data.commitments !== undefined){
if(!(validate24(data.commitments, {instancePath:instancePath+"/commitments",parentData:data,parentDataProperty:"commitments",rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate24.errors : vErrors.concat(validate24.errors);
errors = vErrors.length;
}
}
}
else {
const err42 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema34.type,parentSchema:schema34,data};
if(vErrors === null){
vErrors = [err42];
}
else {
vErrors.push(err42);
}
errors++;
}
validate21.errors = vErrors;
return errors === 0;
}
validate21.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};


function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://github.com/spotswap/spotswap/scenarios/scenario.schema.json" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate20.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.name === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "name"},message:"must have required property '"+"name"+"'",schema:schema31.required,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.seed === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "seed"},message:"must have required property '"+"seed"+"'",schema:schema31.required,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.start === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "start"},message:"must have required property '"+"start"+"'",schema:schema31.required,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data.durationHours === undefined){
const err3 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "durationHours"},message:"must have required property '"+"durationHours"+"'",schema:schema31.required,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(data.scheduleMinutes === undefined){
const err4 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "scheduleMinutes"},message:"must have required property '"+"scheduleMinutes"+"'",schema:schema31.required,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(data.regions === undefined){
const err5 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "regions"},message:"must have required property '"+"regions"+"'",schema:schema31.required,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
for(const key0 in data){
if(!(func1.call(schema31.properties, key0))){
const err6 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties",schema:false,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.$schema !== undefined){
let data0 = data.$schema;
if(typeof data0 !== "string"){
const err7 = {instancePath:instancePath+"/$schema",schemaPath:"#/properties/%24schema/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.$schema.type,parentSchema:schema31.properties.$schema,data:data0};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.name !== undefined){
let data1 = data.name;
if(typeof data1 === "string"){
if(func2(data1) < 1){
const err8 = {instancePath:instancePath+"/name",schemaPath:"#/properties/name/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema31.properties.name,data:data1};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
else {
const err9 = {instancePath:instancePath+"/name",schemaPath:"#/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.name.type,parentSchema:schema31.properties.name,data:data1};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data.description !== undefined){
let data2 = data.description;
if(typeof data2 === "string"){
if(func2(data2) < 1){
const err10 = {instancePath:instancePath+"/description",schemaPath:"#/properties/description/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema31.properties.description,data:data2};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
else {
const err11 = {instancePath:instancePath+"/description",schemaPath:"#/properties/description/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.description.type,parentSchema:schema31.properties.description,data:data2};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data.seed !== undefined){
let data3 = data.seed;
if(!(((typeof data3 == "number") && (!(data3 % 1) && !isNaN(data3))) && (isFinite(data3)))){
const err12 = {instancePath:instancePath+"/seed",schemaPath:"#/properties/seed/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema31.properties.seed.type,parentSchema:schema31.properties.seed,data:data3};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
if((typeof data3 == "number") && (isFinite(data3))){
if(data3 > 4294967295 || isNaN(data3)){
const err13 = {instancePath:instancePath+"/seed",schemaPath:"#/properties/seed/maximum",keyword:"maximum",params:{comparison: "<=", limit: 4294967295},message:"must be <= 4294967295",schema:4294967295,parentSchema:schema31.properties.seed,data:data3};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
if(data3 < 0 || isNaN(data3)){
const err14 = {instancePath:instancePath+"/seed",schemaPath:"#/properties/seed/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema31.properties.seed,data:data3};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
}
if(data.start !== undefined){
let data4 = data.start;
if(typeof data4 === "string"){
if(!pattern4.test(data4)){
const err15 = {instancePath:instancePath+"/start",schemaPath:"#/$defs/time/pattern",keyword:"pattern",params:{pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$"},message:"must match pattern \""+"^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$"+"\"",schema:"^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$",parentSchema:schema32,data:data4};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
else {
const err16 = {instancePath:instancePath+"/start",schemaPath:"#/$defs/time/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.type,parentSchema:schema32,data:data4};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
if(data.durationHours !== undefined){
let data5 = data.durationHours;
if((typeof data5 == "number") && (isFinite(data5))){
if(data5 > 8784 || isNaN(data5)){
const err17 = {instancePath:instancePath+"/durationHours",schemaPath:"#/properties/durationHours/maximum",keyword:"maximum",params:{comparison: "<=", limit: 8784},message:"must be <= 8784",schema:8784,parentSchema:schema31.properties.durationHours,data:data5};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
if(data5 <= 0 || isNaN(data5)){
const err18 = {instancePath:instancePath+"/durationHours",schemaPath:"#/properties/durationHours/exclusiveMinimum",keyword:"exclusiveMinimum",params:{comparison: ">", limit: 0},message:"must be > 0",schema:0,parentSchema:schema31.properties.durationHours,data:data5};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
else {
const err19 = {instancePath:instancePath+"/durationHours",schemaPath:"#/properties/durationHours/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema31.properties.durationHours.type,parentSchema:schema31.properties.durationHours,data:data5};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
if(data.scheduleMinutes !== undefined){
let data6 = data.scheduleMinutes;
if(!(((typeof data6 == "number") && (!(data6 % 1) && !isNaN(data6))) && (isFinite(data6)))){
const err20 = {instancePath:instancePath+"/scheduleMinutes",schemaPath:"#/properties/scheduleMinutes/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema31.properties.scheduleMinutes.type,parentSchema:schema31.properties.scheduleMinutes,data:data6};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
if((typeof data6 == "number") && (isFinite(data6))){
if(data6 > 1440 || isNaN(data6)){
const err21 = {instancePath:instancePath+"/scheduleMinutes",schemaPath:"#/properties/scheduleMinutes/maximum",keyword:"maximum",params:{comparison: "<=", limit: 1440},message:"must be <= 1440",schema:1440,parentSchema:schema31.properties.scheduleMinutes,data:data6};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
if(data6 < 1 || isNaN(data6)){
const err22 = {instancePath:instancePath+"/scheduleMinutes",schemaPath:"#/properties/scheduleMinutes/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1",schema:1,parentSchema:schema31.properties.scheduleMinutes,data:data6};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
}
if(data.env !== undefined){
let data7 = data.env;
if(data7 && typeof data7 == "object" && !Array.isArray(data7)){
for(const key1 in data7){
let data8 = data7[key1];
if(typeof data8 !== "string"){
const err23 = {instancePath:instancePath+"/env/" + key1.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/env/additionalProperties/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.env.additionalProperties.type,parentSchema:schema31.properties.env.additionalProperties,data:data8};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
}
}
else {
const err24 = {instancePath:instancePath+"/env",schemaPath:"#/properties/env/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.properties.env.type,parentSchema:schema31.properties.env,data:data7};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
}
if(data.regions !== undefined){
let data9 = data.regions;
if(data9 && typeof data9 == "object" && !Array.isArray(data9)){
if(Object.keys(data9).length < 1){
const err25 = {instancePath:instancePath+"/regions",schemaPath:"#/properties/regions/minProperties",keyword:"minProperties",params:{limit: 1},message:"must NOT have fewer than 1 properties",schema:1,parentSchema:schema31.properties.regions,data:data9};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
for(const key2 in data9){
const _errs24 = errors;
if(typeof key2 === "string"){
if(!pattern5.test(key2)){
const err26 = {instancePath:instancePath+"/regions",schemaPath:"#/$defs/regionName/pattern",keyword:"pattern",params:{pattern: "^[a-z]{2}(-[a-z]+)+-\\d$"},message:"must match pattern \""+"^[a-z]{2}(-[a-z]+)+-\\d$"+"\"",schema:"^[a-z]{2}(-[a-z]+)+-\\d$",parentSchema:schema33,data:key2,propertyName:key2};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
}
}
else {
const err27 = {instancePath:instancePath+"/regions",schemaPath:"#/$defs/regionName/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema33.type,parentSchema:schema33,data:key2,propertyName:key2};
if(vErrors === null){
vErrors = [err27];
}
else {
vErrors.push(err27);
}
errors++;
}
var valid3 = _errs24 === errors;
if(!valid3){
const err28 = {instancePath:instancePath+"/regions",schemaPath:"#/properties/regions/propertyNames",keyword:"propertyNames",params:{propertyName: key2},message:"property name must be valid",schema:schema31.properties.regions.propertyNames,parentSchema:schema31.properties.regions,data:data9};
if(vErrors === null){
vErrors = [err28];
}
else {
vErrors.push(err28);
}
errors++;
}
}
for(const key3 in data9){
if(!(validate21(data9[key3], {instancePath:instancePath+"/regions/" + key3.replace(/~/g, "~0").replace(/\//g, "~1"),parentData:data9,parentDataProperty:key3,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate21.errors : vErrors.concat(validate21.errors);
errors = vErrors.length;
}
}
}
else {
const err29 = {instancePath:instancePath+"/regions",schemaPath:"#/properties/regions/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.properties.regions.type,parentSchema:schema31.properties.regions,data:data9};
if(vErrors === null){
vErrors = [err29];
}
else {
vErrors.push(err29);
}
errors++;
}
}
if(data.faults !== undefined){
let data11 = data.faults;
if(data11 && typeof data11 == "object" && !Array.isArray(data11)){
for(const key4 in data11){
if(!(((key4 === "apiErrorRate") || (key4 === "throttle")) || (key4 === "crashRate"))){
const err30 = {instancePath:instancePath+"/faults",schemaPath:"#/properties/faults/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key4},message:"must NOT have additional properties",schema:false,parentSchema:schema31.properties.faults,data:data11};
if(vErrors === null){
vErrors = [err30];
}
else {
vErrors.push(err30);
}
errors++;
}
}
if(data11.apiErrorRate !== undefined){
let data12 = data11.apiErrorRate;
if((typeof data12 == "number") && (isFinite(data12))){
if(data12 > 1 || isNaN(data12)){
const err31 = {instancePath:instancePath+"/faults/apiErrorRate",schemaPath:"#/properties/faults/properties/apiErrorRate/maximum",keyword:"maximum",params:{comparison: "<=", limit: 1},message:"must be <= 1",schema:1,parentSchema:schema31.properties.faults.properties.apiErrorRate,data:data12};
if(vErrors === null){
vErrors = [err31];
}
else {
vErrors.push(err31);
}
errors++;
}
if(data12 < 0 || isNaN(data12)){
const err32 = {instancePath:instancePath+"/faults/apiErrorRate",schemaPath:"#/properties/faults/properties/apiErrorRate/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema31.properties.faults.properties.apiErrorRate,data:data12};
if(vErrors === null){
vErrors = [err32];
}
else {
vErrors.push(err32);
}
errors++;
}
}
else {
const err33 = {instancePath:instancePath+"/faults/apiErrorRate",schemaPath:"#/properties/faults/properties/apiErrorRate/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema31.properties.faults.properties.apiErrorRate.type,parentSchema:schema31.properties.faults.properties.apiErrorRate,data:data12};
if(vErrors === null){
vErrors = [err33];
}
else {
vErrors.push(err33);
}
errors++;
}
}
if(data11.throttle !== undefined){
let data13 = data11.throttle;
if(typeof data13 !== "boolean"){
const err34 = {instancePath:instancePath+"/faults/throttle",schemaPath:"#/properties/faults/properties/throttle/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema31.properties.faults.properties.throttle.type,parentSchema:schema31.properties.faults.properties.throttle,data:data13};
if(vErrors === null){
vErrors = [err34];
}
else {
vErrors.push(err34);
}
errors++;
}
}
if(data11.crashRate !== undefined){
let data14 = data11.crashRate;
if((typeof data14 == "number") && (isFinite(data14))){
if(data14 > 1 || isNaN(data14)){
const err35 = {instancePath:instancePath+"/faults/crashRate",schemaPath:"#/properties/faults/properties/crashRate/maximum",keyword:"maximum",params:{comparison: "<=", limit: 1},message:"must be <= 1",schema:1,parentSchema:schema31.properties.faults.properties.crashRate,data:data14};
if(vErrors === null){
vErrors = [err35];
}
else {
vErrors.push(err35);
}
errors++;
}
if(data14 < 0 || isNaN(data14)){
const err36 = {instancePath:instancePath+"/faults/crashRate",schemaPath:"#/properties/faults/properties/crashRate/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema31.properties.faults.properties.crashRate,data:data14};
if(vErrors === null){
vErrors = [err36];
}
else {
vErrors.push(err36);
}
errors++;
}
}
else {
const err37 = {instancePath:instancePath+"/faults/crashRate",schemaPath:"#/properties/faults/properties/crashRate/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema31.properties.faults.properties.crashRate.type,parentSchema:schema31.properties.faults.properties.crashRate,data:data14};
if(vErrors === null){
vErrors = [err37];
}
else {
vErrors.push(err37);
}
errors++;
}
}
}
else {
const err38 = {instancePath:instancePath+"/faults",schemaPath:"#/properties/faults/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.properties.faults.type,parentSchema:schema31.properties.faults,data:data11};
if(vErrors === null){
vErrors = [err38];
}
else {
vErrors.push(err38);
}
errors++;
}
}
if(data.interruptions !== undefined){
let data15 = data.interruptions;
if(Array.isArray(data15)){
const len0 = data15.length;
for(let i0=0; i0<len0; i0++){
let data16 = data15[i0];
if(data16 && typeof data16 == "object" && !Array.isArray(data16)){
if(data16.at === undefined){
const err39 = {instancePath:instancePath+"/interruptions/" + i0,schemaPath:"#/properties/interruptions/items/required",keyword:"required",params:{missingProperty: "at"},message:"must have required property '"+"at"+"'",schema:schema31.properties.interruptions.items.required,parentSchema:schema31.properties.interruptions.items,data:data16};
if(vErrors === null){
vErrors = [err39];
}
else {
vErrors.push(err39);
}
errors++;
}
if(data16.group === undefined){
const err40 = {instancePath:instancePath+"/interruptions/" + i0,schemaPath:"#/properties/interruptions/items/required",keyword:"required",params:{missingProperty: "group"},message:"must have required property '"+"group"+"'",schema:schema31.properties.interruptions.items.required,parentSchema:schema31.properties.interruptions.items,data:data16};
if(vErrors === null){
vErrors = [err40];
}
else {
vErrors.push(err40);
}
errors++;
}
if(data16.count === undefined){
const err41 = {instancePath:instancePath+"/interruptions/" + i0,schemaPath:"#/properties/interruptions/items/required",keyword:"required",params:{missingProperty: "count"},message:"must have required property '"+"count"+"'",schema:schema31.properties.interruptions.items.required,parentSchema:schema31.properties.interruptions.items,data:data16};
if(vErrors === null){
vErrors = [err41];
}
else {
vErrors.push(err41);
}
errors++;
}
for(const key5 in data16){
if(!(((key5 === "at") || (key5 === "group")) || (key5 === "count"))){
const err42 = {instancePath:instancePath+"/interruptions/" + i0,schemaPath:"#/properties/interruptions/items/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key5},message:"must NOT have additional properties",schema:false,parentSchema:schema31.properties.interruptions.items,data:data16};
if(vErrors === null){
vErrors = [err42];
}
else {
vErrors.push(err42);
}
errors++;
}
}
if(data16.at !== undefined){
let data17 = data16.at;
if(typeof data17 === "string"){
if(!pattern4.test(data17)){
const err43 = {instancePath:instancePath+"/interruptions/" + i0+"/at",schemaPath:"#/$defs/time/pattern",keyword:"pattern",params:{pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$"},message:"must match pattern \""+"^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$"+"\"",schema:"^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$",parentSchema:schema32,data:data17};
if(vErrors === null){
vErrors = [err43];
}
else {
vErrors.push(err43);
}
errors++;
}
}
else {
const err44 = {instancePath:instancePath+"/interruptions/" + i0+"/at",schemaPath:"#/$defs/time/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.type,parentSchema:schema32,data:data17};
if(vErrors === null){
vErrors = [err44];
}
else {
vErrors.push(err44);
}
errors++;
}
}
if(data16.group !== undefined){
let data18 = data16.group;
if(typeof data18 === "string"){
if(func2(data18) < 1){
const err45 = {instancePath:instancePath+"/interruptions/" + i0+"/group",schemaPath:"#/properties/interruptions/items/properties/group/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema31.properties.interruptions.items.properties.group,data:data18};
if(vErrors === null){
vErrors = [err45];
}
else {
vErrors.push(err45);
}
errors++;
}
}
else {
const err46 = {instancePath:instancePath+"/interruptions/" + i0+"/group",schemaPath:"#/properties/interruptions/items/properties/group/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.interruptions.items.properties.group.type,parentSchema:schema31.properties.interruptions.items.properties.group,data:data18};
if(vErrors === null){
vErrors = [err46];
}
else {
vErrors.push(err46);
}
errors++;
}
}
if(data16.count !== undefined){
let data19 = data16.count;
if(!(((typeof data19 == "number") && (!(data19 % 1) && !isNaN(data19))) && (isFinite(data19)))){
const err47 = {instancePath:instancePath+"/interruptions/" + i0+"/count",schemaPath:"#/properties/interruptions/items/properties/count/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema31.properties.interruptions.items.properties.count.type,parentSchema:schema31.properties.interruptions.items.properties.count,data:data19};
if(vErrors === null){
vErrors = [err47];
}
else {
vErrors.push(err47);
}
errors++;
}
if((typeof data19 == "number") && (isFinite(data19))){
if(data19 > 10000 || isNaN(data19)){
const err48 = {instancePath:instancePath+"/interruptions/" + i0+"/count",schemaPath:"#/properties/interruptions/items/properties/count/maximum",keyword:"maximum",params:{comparison: "<=", limit: 10000},message:"must be <= 10000",schema:10000,parentSchema:schema31.properties.interruptions.items.properties.count,data:data19};
if(vErrors === null){
vErrors = [err48];
}
else {
vErrors.push(err48);
}
errors++;
}
if(data19 < 1 || isNaN(data19)){
const err49 = {instancePath:instancePath+"/interruptions/" + i0+"/count",schemaPath:"#/properties/interruptions/items/properties/count/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1",schema:1,parentSchema:schema31.properties.interruptions.items.properties.count,data:data19};
if(vErrors === null){
vErrors = [err49];
}
else {
vErrors.push(err49);
}
errors++;
}
}
}
}
else {
const err50 = {instancePath:instancePath+"/interruptions/" + i0,schemaPath:"#/properties/interruptions/items/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.properties.interruptions.items.type,parentSchema:schema31.properties.interruptions.items,data:data16};
if(vErrors === null){
vErrors = [err50];
}
else {
vErrors.push(err50);
}
errors++;
}
}
}
else {
const err51 = {instancePath:instancePath+"/interruptions",schemaPath:"#/properties/interruptions/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.interruptions.type,parentSchema:schema31.properties.interruptions,data:data15};
if(vErrors === null){
vErrors = [err51];
}
else {
vErrors.push(err51);
}
errors++;
}
}
if(data.scheduledEvents !== undefined){
let data20 = data.scheduledEvents;
if(Array.isArray(data20)){
const len1 = data20.length;
for(let i1=0; i1<len1; i1++){
let data21 = data20[i1];
if(data21 && typeof data21 == "object" && !Array.isArray(data21)){
if(data21.at === undefined){
const err52 = {instancePath:instancePath+"/scheduledEvents/" + i1,schemaPath:"#/properties/scheduledEvents/items/required",keyword:"required",params:{missingProperty: "at"},message:"must have required property '"+"at"+"'",schema:schema31.properties.scheduledEvents.items.required,parentSchema:schema31.properties.scheduledEvents.items,data:data21};
if(vErrors === null){
vErrors = [err52];
}
else {
vErrors.push(err52);
}
errors++;
}
if(data21.group === undefined){
const err53 = {instancePath:instancePath+"/scheduledEvents/" + i1,schemaPath:"#/properties/scheduledEvents/items/required",keyword:"required",params:{missingProperty: "group"},message:"must have required property '"+"group"+"'",schema:schema31.properties.scheduledEvents.items.required,parentSchema:schema31.properties.scheduledEvents.items,data:data21};
if(vErrors === null){
vErrors = [err53];
}
else {
vErrors.push(err53);
}
errors++;
}
if(data21.count === undefined){
const err54 = {instancePath:instancePath+"/scheduledEvents/" + i1,schemaPath:"#/properties/scheduledEvents/items/required",keyword:"required",params:{missingProperty: "count"},message:"must have required property '"+"count"+"'",schema:schema31.properties.scheduledEvents.items.required,parentSchema:schema31.properties.scheduledEvents.items,data:data21};
if(vErrors === null){
vErrors = [err54];
}
else {
vErrors.push(err54);
}
errors++;
}
if(data21.code === undefined){
const err55 = {instancePath:instancePath+"/scheduledEvents/" + i1,schemaPath:"#/properties/scheduledEvents/items/required",keyword:"required",params:{missingProperty: "code"},message:"must have required property '"+"code"+"'",schema:schema31.properties.scheduledEvents.items.required,parentSchema:schema31.properties.scheduledEvents.items,data:data21};
if(vErrors === null){
vErrors = [err55];
}
else {
vErrors.push(err55);
}
errors++;
}
if(data21.leadMinutes === undefined){
const err56 = {instancePath:instancePath+"/scheduledEvents/" + i1,schemaPath:"#/properties/scheduledEvents/items/required",keyword:"required",params:{missingProperty: "leadMinutes"},message:"must have required property '"+"leadMinutes"+"'",schema:schema31.properties.scheduledEvents.items.required,parentSchema:schema31.properties.scheduledEvents.items,data:data21};
if(vErrors === null){
vErrors = [err56];
}
else {
vErrors.push(err56);
}
errors++;
}
for(const key6 in data21){
if(!((((((key6 === "at") || (key6 === "group")) || (key6 === "count")) || (key6 === "code")) || (key6 === "leadMinutes")) || (key6 === "lifecycle"))){
const err57 = {instancePath:instancePath+"/scheduledEvents/" + i1,schemaPath:"#/properties/scheduledEvents/items/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key6},message:"must NOT have additional properties",schema:false,parentSchema:schema31.properties.scheduledEvents.items,data:data21};
if(vErrors === null){
vErrors = [err57];
}
else {
vErrors.push(err57);
}
errors++;
}
}
if(data21.at !== undefined){
let data22 = data21.at;
if(typeof data22 === "string"){
if(!pattern4.test(data22)){
const err58 = {instancePath:instancePath+"/scheduledEvents/" + i1+"/at",schemaPath:"#/$defs/time/pattern",keyword:"pattern",params:{pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$"},message:"must match pattern \""+"^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$"+"\"",schema:"^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?(Z|[+-]\\d{2}:\\d{2})$",parentSchema:schema32,data:data22};
if(vErrors === null){
vErrors = [err58];
}
else {
vErrors.push(err58);
}
errors++;
}
}
else {
const err59 = {instancePath:instancePath+"/scheduledEvents/" + i1+"/at",schemaPath:"#/$defs/time/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.type,parentSchema:schema32,data:data22};
if(vErrors === null){
vErrors = [err59];
}
else {
vErrors.push(err59);
}
errors++;
}
}
if(data21.group !== undefined){
let data23 = data21.group;
if(typeof data23 === "string"){
if(func2(data23) < 1){
const err60 = {instancePath:instancePath+"/scheduledEvents/" + i1+"/group",schemaPath:"#/properties/scheduledEvents/items/properties/group/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema31.properties.scheduledEvents.items.properties.group,data:data23};
if(vErrors === null){
vErrors = [err60];
}
else {
vErrors.push(err60);
}
errors++;
}
}
else {
const err61 = {instancePath:instancePath+"/scheduledEvents/" + i1+"/group",schemaPath:"#/properties/scheduledEvents/items/properties/group/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.scheduledEvents.items.properties.group.type,parentSchema:schema31.properties.scheduledEvents.items.properties.group,data:data23};
if(vErrors === null){
vErrors = [err61];
}
else {
vErrors.push(err61);
}
errors++;
}
}
if(data21.count !== undefined){
let data24 = data21.count;
if(!(((typeof data24 == "number") && (!(data24 % 1) && !isNaN(data24))) && (isFinite(data24)))){
const err62 = {instancePath:instancePath+"/scheduledEvents/" + i1+"/count",schemaPath:"#/properties/scheduledEvents/items/properties/count/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema31.properties.scheduledEvents.items.properties.count.type,parentSchema:schema31.properties.scheduledEvents.items.properties.count,data:data24};
if(vErrors === null){
vErrors = [err62];
}
else {
vErrors.push(err62);
}
errors++;
}
if((typeof data24 == "number") && (isFinite(data24))){
if(data24 > 10000 || isNaN(data24)){
const err63 = {instancePath:instancePath+"/scheduledEvents/" + i1+"/count",schemaPath:"#/properties/scheduledEvents/items/properties/count/maximum",keyword:"maximum",params:{comparison: "<=", limit: 10000},message:"must be <= 10000",schema:10000,parentSchema:schema31.properties.scheduledEvents.items.properties.count,data:data24};
if(vErrors === null){
vErrors = [err63];
}
else {
vErrors.push(err63);
}
errors++;
}
if(data24 < 1 || isNaN(data24)){
const err64 = {instancePath:instancePath+"/scheduledEvents/" + i1+"/count",schemaPath:"#/properties/scheduledEvents/items/properties/count/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1",schema:1,parentSchema:schema31.properties.scheduledEvents.items.properties.count,data:data24};
if(vErrors === null){
vErrors = [err64];
}
else {
vErrors.push(err64);
}
errors++;
}
}
}
if(data21.code !== undefined){
let data25 = data21.code;
if(!(((((data25 === "instance-retirement") || (data25 === "instance-stop")) || (data25 === "instance-reboot")) || (data25 === "system-reboot")) || (data25 === "system-maintenance"))){
const err65 = {instancePath:instancePath+"/scheduledEvents/" + i1+"/code",schemaPath:"#/properties/scheduledEvents/items/properties/code/enum",keyword:"enum",params:{allowedValues: schema31.properties.scheduledEvents.items.properties.code.enum},message:"must be equal to one of the allowed values",schema:schema31.properties.scheduledEvents.items.properties.code.enum,parentSchema:schema31.properties.scheduledEvents.items.properties.code,data:data25};
if(vErrors === null){
vErrors = [err65];
}
else {
vErrors.push(err65);
}
errors++;
}
}
if(data21.leadMinutes !== undefined){
let data26 = data21.leadMinutes;
if(!(((typeof data26 == "number") && (!(data26 % 1) && !isNaN(data26))) && (isFinite(data26)))){
const err66 = {instancePath:instancePath+"/scheduledEvents/" + i1+"/leadMinutes",schemaPath:"#/properties/scheduledEvents/items/properties/leadMinutes/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema31.properties.scheduledEvents.items.properties.leadMinutes.type,parentSchema:schema31.properties.scheduledEvents.items.properties.leadMinutes,data:data26};
if(vErrors === null){
vErrors = [err66];
}
else {
vErrors.push(err66);
}
errors++;
}
if((typeof data26 == "number") && (isFinite(data26))){
if(data26 > 43200 || isNaN(data26)){
const err67 = {instancePath:instancePath+"/scheduledEvents/" + i1+"/leadMinutes",schemaPath:"#/properties/scheduledEvents/items/properties/leadMinutes/maximum",keyword:"maximum",params:{comparison: "<=", limit: 43200},message:"must be <= 43200",schema:43200,parentSchema:schema31.properties.scheduledEvents.items.properties.leadMinutes,data:data26};
if(vErrors === null){
vErrors = [err67];
}
else {
vErrors.push(err67);
}
errors++;
}
if(data26 < 0 || isNaN(data26)){
const err68 = {instancePath:instancePath+"/scheduledEvents/" + i1+"/leadMinutes",schemaPath:"#/properties/scheduledEvents/items/properties/leadMinutes/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema31.properties.scheduledEvents.items.properties.leadMinutes,data:data26};
if(vErrors === null){
vErrors = [err68];
}
else {
vErrors.push(err68);
}
errors++;
}
}
}
if(data21.lifecycle !== undefined){
let data27 = data21.lifecycle;
if(!((data27 === "on-demand") || (data27 === "spot"))){
const err69 = {instancePath:instancePath+"/scheduledEvents/" + i1+"/lifecycle",schemaPath:"#/properties/scheduledEvents/items/properties/lifecycle/enum",keyword:"enum",params:{allowedValues: schema31.properties.scheduledEvents.items.properties.lifecycle.enum},message:"must be equal to one of the allowed values",schema:schema31.properties.scheduledEvents.items.properties.lifecycle.enum,parentSchema:schema31.properties.scheduledEvents.items.properties.lifecycle,data:data27};
if(vErrors === null){
vErrors = [err69];
}
else {
vErrors.push(err69);
}
errors++;
}
}
}
else {
const err70 = {instancePath:instancePath+"/scheduledEvents/" + i1,schemaPath:"#/properties/scheduledEvents/items/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.properties.scheduledEvents.items.type,parentSchema:schema31.properties.scheduledEvents.items,data:data21};
if(vErrors === null){
vErrors = [err70];
}
else {
vErrors.push(err70);
}
errors++;
}
}
}
else {
const err71 = {instancePath:instancePath+"/scheduledEvents",schemaPath:"#/properties/scheduledEvents/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.scheduledEvents.type,parentSchema:schema31.properties.scheduledEvents,data:data20};
if(vErrors === null){
vErrors = [err71];
}
else {
vErrors.push(err71);
}
errors++;
}
}
}
else {
const err72 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.type,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err72];
}
else {
vErrors.push(err72);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};
