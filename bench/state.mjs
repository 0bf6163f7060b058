// npm run bench -- state: the desired state and the difference of issue 39 at 2,000 / 20,000 / 100,000
// documents of 2 KB (100 files a folder) in a real repository: contentIds on a clean checkout (every id
// from git's index, no file read), with 1 % of the files modified and 1 % untracked (those hashed), and
// in the same folder with .git moved away (every file hashed); then difference() against a record that
// differs in 1 % of its ids and holds 1 % names no longer selected. BENCH_STATE_COUNTS=2000,20000 leaves
// out the 100,000 row (most of the part's time is writing and committing the files).
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { devNull, tmpdir } from 'node:os'
import { join } from 'node:path'

const DOCUMENT = Buffer.alloc(2048, 'lorem ipsum dolor sit amet\n')
const PER_FOLDER = 100
const gitEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: devNull }
const git = (cwd, ...args) =>
  execFileSync('git', args, { cwd, env: gitEnv, stdio: ['ignore', 'pipe', 'pipe'] })

const nameOf = (i) =>
  `docs/s${String(Math.floor(i / PER_FOLDER)).padStart(4, '0')}/page-${String(i).padStart(6, '0')}.md`

async function median(fn, runs) {
  const samples = []
  let result
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint()
    result = await fn()
    samples.push(Number(process.hrtime.bigint() - start) / 1e6)
  }
  samples.sort((a, b) => a - b)
  return { ms: samples[Math.floor(samples.length / 2)], result }
}

export async function benchState({ row, load }) {
  const { selectFiles } = await load('src/select/files.js')
  const { contentIds } = await load('src/state/content-ids.js')
  const { difference } = await load('src/state/difference.js')
  const counts = (process.env.BENCH_STATE_COUNTS ?? '2000,20000,100000').split(',').map(Number)
  for (const count of counts) {
    const workspace = mkdtempSync(join(tmpdir(), 'kb-sync-bench-state-'))
    try {
      for (let folder = 0; folder * PER_FOLDER < count; folder++)
        mkdirSync(join(workspace, 'docs', `s${String(folder).padStart(4, '0')}`), { recursive: true })
      for (let i = 0; i < count; i++) writeFileSync(join(workspace, nameOf(i)), DOCUMENT)
      git(workspace, 'init', '-q')
      git(workspace, 'add', '-A')
      git(workspace, '-c', 'user.name=b', '-c', 'user.email=b@example.com', 'commit', '-q', '-m', 'seed')
      const select = async () =>
        (
          await selectFiles({
            patterns: ['docs/**'],
            workspace,
            includeHidden: false,
            maxFileSize: 1 << 20,
            followSymlinks: 'inside',
          })
        ).files
      const shown = count.toLocaleString('en-US')
      const runs = count >= 100_000 ? 3 : 5

      const clean = await select()
      const tracked = await median(() => contentIds(workspace, clean), runs)
      row(
        `contentIds, ${shown} tracked files, clean checkout`,
        `${tracked.ms.toFixed(0)} ms`,
        `median of ${runs}; no file read`,
      )

      const changed = Math.max(1, Math.floor(count / 100))
      for (let i = 0; i < changed; i++) writeFileSync(join(workspace, nameOf(i * 100)), `changed ${i}\n`)
      for (let i = 0; i < changed; i++) writeFileSync(join(workspace, `docs/s0000/new-${i}.md`), `new ${i}\n`)
      const edited = await select()
      const mixed = await median(() => contentIds(workspace, edited), runs)
      row(
        `contentIds, ${shown} files, 1 % modified + 1 % untracked`,
        `${mixed.ms.toFixed(0)} ms`,
        `median of ${runs}; ${changed * 2} hashed`,
      )

      renameSync(join(workspace, '.git'), join(workspace, '.git-away'))
      const plain = await median(() => contentIds(workspace, edited), runs)
      renameSync(join(workspace, '.git-away'), join(workspace, '.git'))
      row(
        `contentIds, ${shown} files, not a repository`,
        `${plain.ms.toFixed(0)} ms`,
        `median of ${runs}; every file hashed`,
      )

      // The record of the clean checkout, with 1 % of names it holds no longer selected.
      const desired = mixed.result
      const held = Object.fromEntries(tracked.result)
      for (let i = 0; i < changed; i++) held[`docs/gone-${i}.md`] = '0'.repeat(40)
      const diff = await median(() => difference(desired, held), 11)
      const { upload, update, blank, unchanged } = diff.result
      row(
        `difference, ${shown} selected against a ${Object.keys(held).length.toLocaleString('en-US')}-name record`,
        `${diff.ms.toFixed(1)} ms`,
        `median of 11; ${upload.length} upload, ${update.length} update, ${blank.length} blank, ${unchanged} unchanged`,
      )
    } finally {
      rmSync(workspace, { recursive: true, force: true })
    }
  }
}
