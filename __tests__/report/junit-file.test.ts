// Writing the JUnit report: its folders made, the keys masked (even a key that escaping would change),
// a file that cannot be written named.
import { afterAll, describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Secrets } from '../../src/log.js'
import { writeJUnitFile } from '../../src/report/junit-file.js'
import { ReportFileError } from '../../src/report/report-file.js'
import { checkResult } from '../helpers/check-results.js'
import { junitSchemaErrors, parseJUnit } from '../helpers/junit-report.js'

const dir = mkdtempSync(join(tmpdir(), 'kb-sync-junit-file-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// A key with characters XML escapes: masked before rendering, it would otherwise hide as &amp;…&lt;.
const KEY = 'pk-Canary&<0123456789'
const secrets = new Secrets()
secrets.add(KEY)

const report = (name: string, answer: string) => ({
  kind: 'checks' as const,
  input: {
    results: [checkResult({ name, verdict: 'failed', answer, failed: [`contains "${KEY}": not found`] })],
    flow: { orgId: 'org-1', flowId: 'flow-1' },
    verdictLine: `0 of 1 checks passed; key ${KEY}`,
    startedAt: new Date(0),
  },
})

describe('writeJUnitFile', () => {
  it('writes into folders it makes, with every key masked, and stays valid', async () => {
    const path = join(dir, 'reports', 'kb', 'checks.xml')
    await writeJUnitFile(path, report(`named ${KEY}`, `the key is ${KEY}`), secrets)
    const xml = readFileSync(path, 'utf8')
    expect(await junitSchemaErrors(xml)).toEqual([])
    expect(xml).not.toContain('Canary')
    const [check] = parseJUnit(xml).cases
    expect(check.name).toBe('named ***')
    expect(check.output).toContain('the key is ***')
    expect(check.text).toBe('contains "***": not found')
  })

  it('a file that cannot be written: a ReportFileError naming it and the reason', async () => {
    writeFileSync(join(dir, 'a-file'), '')
    const path = join(dir, 'a-file', 'checks.xml')
    const error = await writeJUnitFile(path, report('a', 'b'), secrets).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ReportFileError)
    expect((error as ReportFileError).message).toMatch(
      new RegExp(`^The report file ${path} could not be written \\((EEXIST|ENOTDIR)\\)\\.$`),
    )
  })
})
