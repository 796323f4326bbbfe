/** "Did you mean …?": the known name closest to a misspelt one, so a typo is answered with one name, not a list. */

/** Levenshtein distance (insertions, deletions, substitutions), case-insensitive; two rows of memory. */
export const editDistance = (a: string, b: string): number => {
  const x = a.toLowerCase()
  const y = b.toLowerCase()
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j)
  for (let i = 1; i <= x.length; i++) {
    const current = [i]
    for (let j = 1; j <= y.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (x[i - 1] === y[j - 1] ? 0 : 1)
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution))
    }
    previous = current
  }
  return previous[y.length] ?? 0
}

/** A third of the name's length, at least 1 and at most 4: `DRYRUN` → `DRY_RUN`, never `REGIONS` → `DRY_RUN`. */
const tolerance = (name: string): number => Math.min(4, Math.max(1, Math.floor(name.length / 3)))

/** The closest known name within tolerance (ties: the first listed), or undefined when none is close. */
export const closestName = (name: string, known: readonly string[]): string | undefined => {
  let best: { name: string; distance: number } | undefined
  for (const candidate of known) {
    const distance = editDistance(name, candidate)
    if (distance <= tolerance(name) && (best === undefined || distance < best.distance))
      best = { name: candidate, distance }
  }
  return best?.name
}

/** `did you mean X?` when a known name is close, else the whole list: one or the other, never both. */
export const suggestion = (name: string, known: readonly string[]): string => {
  const closest = closestName(name, known)
  return closest !== undefined ? `did you mean ${closest}?` : `known: ${known.join(', ')}`
}
