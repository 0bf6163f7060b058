// The README's inputs and outputs tables are the users' reference: they must list every input and
// output of action.yml and run-flow/action.yml, in the same order, with the same defaults and the same
// required inputs.
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'

const root = process.cwd()
const readme = readFileSync(join(root, 'README.md'), 'utf8')

interface Metadata {
  inputs: Record<string, { default?: string; required?: boolean }>
  outputs: Record<string, unknown>
}

/** The lines of the section under `heading` (a whole heading line), up to the next heading of its level or above. */
function sectionOf(text: string, heading: string): string[] {
  const lines = text.split('\n')
  const start = lines.indexOf(heading)
  if (start < 0) return []
  const level = /^#+/.exec(heading)![0].length
  const end = lines.findIndex(
    (line, i) => i > start && /^#+ /.test(line) && /^#+/.exec(line)![0].length <= level,
  )
  return lines.slice(start + 1, end < 0 ? undefined : end)
}

/** Splits a table row into cells; a `|` inside a code span does not split. */
function cellsOf(row: string): string[] {
  const cells: string[] = []
  let cell = ''
  let inCode = false
  for (const char of row.trim().replace(/^\||\|$/g, '')) {
    if (char === '`') inCode = !inCode
    if (char === '|' && !inCode) {
      cells.push(cell.trim())
      cell = ''
    } else cell += char
  }
  cells.push(cell.trim())
  return cells
}

/** The body rows of the section's table whose first header cell is `kind` (`input` or `output`). */
function tableRows(section: string[], kind: string): string[][] {
  const start = section.findIndex((line) => line.startsWith('|') && cellsOf(line)[0] === kind)
  if (start < 0) return []
  const rows: string[][] = []
  for (const line of section.slice(start + 2)) {
    if (!line.startsWith('|')) break
    rows.push(cellsOf(line))
  }
  return rows
}

const codeSpans = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1])

/** A default cell is one code span (the default), "(required)", some other words in parentheses, or empty. */
function defaultOf(cell: string): { value?: string; required: boolean } | string {
  const literal = /^`([^`]*)`$/.exec(cell)
  if (literal) return { value: literal[1], required: false }
  if (cell === '(required)') return { required: true }
  if (cell === '' || /^\([^`]*\)$/.test(cell)) return { required: false }
  return `default cell "${cell}" is neither one code span, "(required)", words in parentheses nor empty`
}

/** Every difference between the README section's tables and the action's metadata. */
function tableProblems(text: string, heading: string, actionFile: string): string[] {
  const meta = parse(readFileSync(join(root, actionFile), 'utf8')) as Metadata
  const section = sectionOf(text, heading)
  if (section.length === 0) return [`no section "${heading}"`]
  const problems: string[] = []

  const inputRows = tableRows(section, 'input')
  const inputNames = inputRows.flatMap((row) => codeSpans(row[0]))
  if (JSON.stringify(inputNames) !== JSON.stringify(Object.keys(meta.inputs)))
    problems.push(`inputs ${inputNames.join(', ')} ≠ ${actionFile}: ${Object.keys(meta.inputs).join(', ')}`)
  for (const row of inputRows) {
    const documented = defaultOf(row[1] ?? '')
    if (typeof documented === 'string') {
      problems.push(`${row[0]}: ${documented}`)
      continue
    }
    for (const name of codeSpans(row[0])) {
      const input = meta.inputs[name]
      if (!input) continue
      if (documented.value !== input.default)
        problems.push(`${name}: README default ${documented.value} ≠ ${actionFile} default ${input.default}`)
      if (documented.required !== (input.required === true))
        problems.push(`${name}: README says required ${documented.required}, ${actionFile} ${input.required}`)
    }
  }

  const outputNames = tableRows(section, 'output').flatMap((row) => codeSpans(row[0]))
  if (JSON.stringify(outputNames) !== JSON.stringify(Object.keys(meta.outputs)))
    problems.push(
      `outputs ${outputNames.join(', ')} ≠ ${actionFile}: ${Object.keys(meta.outputs).join(', ')}`,
    )
  return problems
}

const actions = [
  { heading: '### The index action (`action.yml`)', file: 'action.yml' },
  { heading: '### The run-flow action (`run-flow/action.yml`)', file: 'run-flow/action.yml' },
]

describe("the README's inputs and outputs tables", () => {
  it.each(actions)(
    '$heading lists every input and output of $file, with its default',
    ({ heading, file }) => {
      expect(tableProblems(readme, heading, file)).toEqual([])
    },
  )

  it('the check finds a wrong default, a missing input and a missing output', () => {
    const { heading, file } = actions[0]
    const changed = readme
      .replace('| `max-file-size` | `50MB` |', '| `max-file-size` | `40MB` |')
      .replace(/^\| `urls` \|.*\n/m, '')
      .replace(/^\| `base` \|.*\n/m, '')
    const problems = tableProblems(changed, heading, file)
    expect(problems).toContainEqual('max-file-size: README default 40MB ≠ action.yml default 50MB')
    expect(problems).toContainEqual(
      expect.stringMatching(/^inputs base-url, .*, files, sitemaps, .* ≠ action\.yml/),
    )
    expect(problems).toContainEqual(
      expect.stringMatching(/^outputs .*, report-file, base-source, .* ≠ action\.yml/),
    )
    expect(problems).toHaveLength(3)
  })

  it('the check finds a required input documented with a default', () => {
    const { heading, file } = actions[1]
    const changed = readme.replace('| `org-id`, `flow-id` | (required) |', '| `org-id`, `flow-id` | |')
    expect(tableProblems(changed, heading, file)).toEqual([
      'org-id: README says required false, run-flow/action.yml true',
      'flow-id: README says required false, run-flow/action.yml true',
    ])
  })
})
