/** Pagination and batching shared by every adapter call that lists or acts on many things. */

export interface Page<T> {
  readonly items: readonly T[]
  readonly nextToken: string | undefined
}

/**
 * Follows NextToken until the last page. A token that repeats would loop forever inside a Lambda, so it
 * ends the listing instead (seen with emulators, never documented for AWS itself).
 */
export const collectPages = async <T>(
  fetchPage: (nextToken: string | undefined) => Promise<Page<T>>,
): Promise<T[]> => {
  const items: T[] = []
  let token: string | undefined
  const seen = new Set<string>()
  do {
    const page = await fetchPage(token)
    // A loop, not push(...items): a page of a thousand instances as arguments is copied once more.
    for (const item of page.items) items.push(item)
    token = page.nextToken || undefined
    if (token !== undefined && seen.has(token)) break
    if (token !== undefined) seen.add(token)
  } while (token !== undefined)
  return items
}

export const chunk = <T>(items: readonly T[], size: number): T[][] => {
  const chunks: T[][] = []
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size))
  return chunks
}
