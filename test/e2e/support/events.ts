/** What the moto e2e tests share besides the account (the schedule's event: test/events/builders.ts). */

/** moto builds a new account's EC2 backend on first use and answers DescribeInstanceTypes slowly. */
export const E2E_TIMEOUT_MS = 240_000
