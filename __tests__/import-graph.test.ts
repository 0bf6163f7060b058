// No import circle in src/: each module can be read (and loaded) after the ones it imports. Type-only
// imports count too: a circle of types is still two modules that each need the other to be understood.
import { describe, expect, test } from '@jest/globals'
import { relative } from 'node:path'
import { importGraph, sourceFiles, SRC } from './helpers/src-imports.js'

/** Every circle found by a depth-first walk, as `a.ts -> b.ts -> a.ts`. */
function circles(graph: Map<string, string[]>): string[] {
  const found: string[] = []
  const state = new Map<string, 'open' | 'done'>()
  const path: string[] = []
  const visit = (file: string): void => {
    state.set(file, 'open')
    path.push(file)
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open')
        found.push([...path.slice(path.indexOf(next)), next].map((f) => relative(SRC, f)).join(' -> '))
      else if (!state.has(next)) visit(next)
    }
    path.pop()
    state.set(file, 'done')
  }
  for (const file of graph.keys()) if (!state.has(file)) visit(file)
  return found
}

describe('the import graph of src/', () => {
  test('the walk finds a circle when there is one', () => {
    const graph = new Map([
      ['/a.ts', ['/b.ts']],
      ['/b.ts', ['/c.ts']],
      ['/c.ts', ['/a.ts']],
    ])
    expect(circles(graph)).toHaveLength(1)
  })

  test('has no circle', () => {
    const files = sourceFiles(SRC)
    expect(files.length).toBeGreaterThan(50)
    expect(circles(importGraph(files))).toEqual([])
  })
})
