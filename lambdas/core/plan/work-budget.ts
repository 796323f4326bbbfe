/**
 * A group's planning budget in work units (PLAN_WORK_UNITS_PER_GROUP), not time: one unit per filter a
 * candidate type goes through. Counted, so a chaos seed replays exactly whatever the machine; a group
 * built to stall the region (hundreds of types and zones to choose for, none shared) runs out of units
 * and is skipped with `plan-budget-exceeded` while the region's other groups proceed.
 */
export class PlanBudgetExceededError extends Error {
  override readonly name = 'PlanBudgetExceededError'
  constructor(
    readonly spent: number,
    readonly limit: number,
  ) {
    super(`planning took more than ${limit} work units (filter evaluations)`)
  }
}

export class WorkMeter {
  private spentUnits = 0
  constructor(readonly limit: number) {}

  get spent(): number {
    return this.spentUnits
  }

  /** Counts `units`; throws PlanBudgetExceededError once the budget is spent. */
  charge(units: number): void {
    this.spentUnits += units
    if (this.spentUnits > this.limit) throw new PlanBudgetExceededError(this.spentUnits, this.limit)
  }
}
