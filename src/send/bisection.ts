// How a batch that failed because of some of its items is searched: probe a part, and let its answer say
// where the odd items are. Pure, so the request counts are unit-tested without a server.
//
// A failed unit is known to hold at least one odd item (a document the service has not got, or has, or
// refuses). Its probe part is sent first; when the probe lands, the odd item is in the rest, which is
// searched the same way without being sent whole (a rest of one is the odd item itself). When the probe
// fails, it is searched in turn and the rest is sent as an ordinary unit. A probe that fails costs one
// request more than one that lands, so the probe is the smaller part, sized so that the worst case over
// every position of one odd item is as small as it can be.

/** worstCost[n]: requests to land a failed unit of n items with one odd item, its odd item last. */
const worstCost: number[] = [0, 1]
const bestProbe: number[] = [0, 0]

function fill(size: number): void {
  for (let n = worstCost.length; n <= size; n++) {
    let best = Number.POSITIVE_INFINITY
    let probe = 1
    for (let part = 1; part <= n / 2; part++) {
      // The probe fails (its search, then the rest sent whole) or lands (the rest is searched).
      const cost = 1 + Math.max(worstCost[part] + 1, worstCost[n - part])
      if (cost < best) {
        best = cost
        probe = part
      }
    }
    worstCost[n] = best
    bestProbe[n] = probe
  }
}

/** How many of a failed unit's `size` items (at least 2) are sent first as the probe. */
export function probeSize(size: number): number {
  if (size < 2) throw new RangeError(`a unit of ${size} cannot be split`)
  fill(size)
  return bestProbe[size]
}

/**
 * Requests, at most, to land every item of a failed unit of `size` items of which one is odd (after the
 * failed request): probes, the rest sent whole, and the odd item sent alone with the operation it needs.
 */
export function searchCost(size: number): number {
  fill(size)
  return worstCost[size]
}

/**
 * What is done with the rest of a unit under search once its probe answered: sent whole when the probe
 * failed too (the rest may be fine), searched when the probe landed (the odd item is in the rest), and
 * a rest of one after a landed probe is the odd item: sent as the other operation when what made the
 * unit fail was the operation (else alone, for its own answer).
 */
export function afterProbe(
  probeLanded: boolean,
  restSize: number,
  oddNeedsOther: boolean,
): 'whole' | 'search' | 'other-operation' {
  if (!probeLanded) return 'whole'
  if (restSize > 1) return 'search'
  return oddNeedsOther ? 'other-operation' : 'whole'
}
