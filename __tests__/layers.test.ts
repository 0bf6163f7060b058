// The floors of src/, read from the code's own imports: each file imports only from its own floor or
// below. The order is written once, here and in CONTRIBUTING ("The floors"); a new import up a floor
// fails this test. Type-only imports count: a type from a floor above is still a dependency on it.
import { describe, expect, test } from '@jest/globals'
import { relative, resolve } from 'node:path'
import { importGraph, sourceFiles, SRC } from './helpers/src-imports.js'

/** Top to bottom. A place is a folder of src/ (`name/`) or a file at its root. */
const FLOORS: readonly { floor: string; holds: readonly string[] }[] = [
  { floor: 'faces', holds: ['cli.ts', 'cli/', 'actions/'] },
  { floor: 'jobs', holds: ['jobs/'] },
  { floor: 'report', holds: ['report/'] },
  {
    floor: 'stages',
    holds: ['send/', 'state/', 'history/', 'sitemaps/', 'emulator/', 'plan.ts', 'placeholders.ts'],
  },
  { floor: 'inputs', holds: ['config/'] },
  { floor: 'checks', holds: ['checks/'] },
  { floor: 'flow run', holds: ['flow/'] },
  { floor: 'selection', holds: ['select/'] },
  { floor: 'wire', holds: ['service/', 'github/'] },
  {
    floor: 'ground',
    holds: [
      'model.ts',
      'log.ts',
      'git.ts',
      'cancellation.ts',
      'claim-signals.ts',
      'map-limited.ts',
      'temp-folder.ts',
      'chunk-release.ts',
      'units.ts',
      'setting-names.ts',
      'likely-name.ts',
      'net/',
      'documents/',
    ],
  },
]

/** The place of a file of src/: its top folder (`checks/`) or its own name at the root. */
function placeOf(file: string): string {
  const path = relative(SRC, file)
  return path.includes('/') ? `${path.split('/')[0]}/` : path
}

/** Floor numbers, 0 at the top, by place. */
function floorIndex(floors: typeof FLOORS): Map<string, number> {
  return new Map(floors.flatMap(({ holds }, index) => holds.map((place) => [place, index] as const)))
}

/** Every import of src/ that runs up a floor, as `from -> to (floor -> floor)`. */
function arrowsUp(graph: Map<string, string[]>, floors: typeof FLOORS): string[] {
  const index = floorIndex(floors)
  const up: string[] = []
  for (const [file, imports] of graph)
    for (const target of imports) {
      const from = index.get(placeOf(file))
      const to = index.get(placeOf(target))
      if (from !== undefined && to !== undefined && to < from)
        up.push(
          `${relative(SRC, file)} -> ${relative(SRC, target)} (${floors[from].floor} -> ${floors[to].floor})`,
        )
    }
  return up
}

const files = sourceFiles(SRC)
const graph = importGraph(files)

describe('the floors of src/', () => {
  test('every place of src/ is on exactly one floor', () => {
    const places = [...new Set(files.map(placeOf))].sort()
    const placed = FLOORS.flatMap(({ holds }) => holds)
    expect(places.filter((place) => !placed.includes(place))).toEqual([])
    expect(placed.filter((place) => !places.includes(place))).toEqual([])
    expect(new Set(placed).size).toBe(placed.length)
  })

  test('the check finds an import up a floor (it is live)', () => {
    const log = resolve(SRC, 'log.ts')
    const job = resolve(SRC, 'jobs/index-job.ts')
    expect(arrowsUp(new Map([[log, [job]]]), FLOORS)).toEqual([
      'log.ts -> jobs/index-job.ts (ground -> jobs)',
    ])
    expect(arrowsUp(new Map([[job, [log]]]), FLOORS)).toEqual([])
  })

  test('no file imports from a floor above its own', () => {
    expect(arrowsUp(graph, FLOORS)).toEqual([])
  })
})
