// No import circle in src/: each module can be read (and loaded) after the ones it imports. Type-only
// imports count too: a circle of types is still two modules that each need the other to be understood.
import { describe, expect, test } from '@jest/globals'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import ts from 'typescript'

const SRC = resolve('src')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') ? [path] : []
  })
}

/** Each module's relative imports (and re-exports), as paths of the .ts files they name. */
function importGraph(files: string[]): Map<string, string[]> {
  const known = new Set(files)
  const graph = new Map<string, string[]>()
  for (const file of files) {
    const imported = ts
      .preProcessFile(readFileSync(file, 'utf8'), true, true)
      .importedFiles.map((entry) => entry.fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => resolve(dirname(file), name.replace(/\.js$/, '.ts')))
    graph.set(
      file,
      imported.filter((path) => known.has(path)),
    )
  }
  return graph
}

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
