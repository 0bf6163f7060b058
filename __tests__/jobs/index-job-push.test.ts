// The index job on a push: only the paths the push changed are selected (and checked on disk), while
// "if-no-files-found" still tells a push that changed no selected file from patterns that select nothing.
import { afterEach, beforeEach, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { readIndexConfig } from '../../src/config/index-config.js'
import { runIndexJob } from '../../src/jobs/index-job.js'
import { GitFixture, type WorkingCopy } from '../helpers/git-fixture.js'
import { recordingLog } from '../helpers/log.js'
import { LookupBudget } from '../../src/github/lookup-budget.js'

let fixture: GitFixture
let author: WorkingCopy

beforeEach(() => {
  fixture = GitFixture.create()
  author = fixture.author()
})
afterEach(() => fixture.cleanup())

async function dryRunPush(before: string, inputs: Record<string, string>) {
  const values: Record<string, string> = {
    'flow-id': 'flow-1',
    'org-id': 'org-1',
    'node-id': 'node-1',
    'dry-run': 'true',
    ...inputs,
  }
  const config = readIndexConfig((name) => values[name] ?? '', { eventName: 'push' })
  const { log, lines } = recordingLog()
  const payload = {
    ref: 'refs/heads/main',
    before,
    after: author.head(),
    created: false,
    deleted: false,
    forced: false,
    commits: [],
  }
  const report = await runIndexJob(config, {
    workspace: author.dir,
    eventName: 'push',
    payload,
    log,
    github: new LookupBudget(),
  })
  return { report, lines }
}

it('plans only the changed selected files; nothing else of the workspace shows up', async () => {
  author.write('docs/a.md').write('docs/b.md').write('src/x.ts')
  const before = author.commit('seed')
  author
    .write('docs/a.md', 'changed\n')
    .write('docs/new.md')
    .write('docs/.env', 'SECRET=1\n')
    .write('src/x.ts', 'y\n')
  author.commit('change')
  // Not part of the push: a FIFO and an oversized file the full search would have reported as skipped.
  execFileSync('mkfifo', [join(author.dir, 'docs/pipe.md')])
  author.write('docs/huge.md', 'x'.repeat(4096))

  const { report, lines } = await dryRunPush(before, { files: 'docs/**', 'max-file-size': '1KB' })
  expect(Array.from(report.planned, (item) => [item.operation, item.name])).toEqual([
    ['upload', 'docs/new.md'],
    ['update', 'docs/a.md'],
  ])
  expect(report.skipped.map((item) => [item.name, item.reason])).toEqual([['docs/.env', 'secret']])
  expect(lines.filter((line) => line.level === 'warning')).toEqual([])
})

it('does not warn when the push changed no selected file but the patterns select some', async () => {
  author.write('docs/a.md').write('src/x.ts')
  const before = author.commit('seed')
  author.write('src/x.ts', 'changed\n').commit('code only')
  const { report, lines } = await dryRunPush(before, { files: 'docs/**', 'if-no-files-found': 'error' })
  expect([...report.planned]).toEqual([])
  expect(lines.filter((line) => line.level === 'warning')).toEqual([])
})

it('still fails or warns when the patterns select nothing in the workspace', async () => {
  author.write('docs/a.md').write('src/x.ts')
  const before = author.commit('seed')
  author.write('src/x.ts', 'changed\n').commit('code only')
  await expect(dryRunPush(before, { files: 'manual/**', 'if-no-files-found': 'error' })).rejects.toThrow(
    'No files were found with the "files" patterns (manual/**)',
  )
  const { lines } = await dryRunPush(before, { files: 'manual/**' })
  expect(lines.filter((line) => line.level === 'warning').map((line) => line.message)).toEqual([
    expect.stringContaining('No files were found with the "files" patterns (manual/**)'),
  ])
})

it('lists the plan in one message: a count line, then one line per item, names shown escaped', async () => {
  author.write('docs/a.md').write('docs/b.md')
  const before = author.commit('seed')
  author.write('docs/a.md', 'changed\n').write('docs/new.md').write('docs/\u202eevil.md')
  author.commit('change')

  const { report, lines } = await dryRunPush(before, { files: 'docs/**' })
  const listings = lines.filter((line) => line.message.includes('item(s) in'))
  expect(listings).toEqual([
    {
      level: 'info',
      message: [
        '3 item(s) in 2 request(s).',
        '  upload (409 → update) document docs/new.md',
        '  upload (409 → update) document docs/\\u202eevil.md',
        '  update (404 → upload) document docs/a.md',
      ].join('\n'),
    },
  ])
  // The listing is the plan's only mention of the items, and the raw bidi override never reaches the log.
  expect(lines.filter((line) => line.message.includes('new.md'))).toHaveLength(1)
  expect(lines.filter((line) => line.message.includes('\u202e'))).toEqual([])
  expect(report.planned).toHaveLength(3)
})
