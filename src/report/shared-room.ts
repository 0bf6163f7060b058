// Lists that share one room (the summary's collapsed lists, a step's outputs) are given max-min fair
// shares of it by what each needs. Measuring a need means making every line (or JSON item) of a list:
// for 100,000 documents, work and garbage for lines that are never shown.

/**
 * What each list needs of `room`, measured only as far as a share can reach: no share is larger than the
 * room, so a list is measured (`upTo`) until it is known to need more; when two or more do, their order
 * decides who gets a rounding unit, and those are measured whole (`upTo` with no cap).
 */
export function needsWithin<T>(
  lists: readonly T[],
  room: number,
  upTo: (list: T, cap: number) => number,
): number[] {
  const cap = Math.max(0, room)
  const needs = lists.map((list) => upTo(list, cap))
  if (needs.filter((need) => need > cap).length > 1)
    needs.forEach((need, index) => {
      if (need > cap) needs[index] = upTo(lists[index], Number.POSITIVE_INFINITY)
    })
  return needs
}
