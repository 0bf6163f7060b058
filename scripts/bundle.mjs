// Builds one ncc bundle per entry into dist/, then proves each bundle is whole:
// ncc exits 0 even when it could not resolve an ESM-only module (it leaves a
// `webpackMissingModule` stub that only fails at run time), so we look for the stub
// and start every bundle once.
//
// No source maps: with `--source-map` every bundle loads source-map support on its first line, and the
// first stack trace read parses a 4.5 MB map (150–300 ms and ~58 MB at every run). Each map is also one
// multi-megabyte line that changes whole at every rebuild of the committed dist/.
import { execFileSync } from 'node:child_process'
import { chmodSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
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
    execFileSync(process.execPath, [ncc, 'build', entry.src, '-o', out, '--license', 'licenses.txt', '-q'], {
      stdio: 'inherit',
    })
    const code = readFileSync(join(out, 'index.js'), 'utf8')
    if (code.includes('webpackMissingModule')) {
      throw new Error(`${entry.src}: the bundle has an unresolved module (webpackMissingModule)`)
    }
    // One undici for the whole bundle: `overrides` in package.json points @actions/http-client and
    // @actions/github at ours. A second copy costs ~1 MB of bundle and ~20 ms of every start (bench/README.md);
    // a dependency update that brings one back fails here instead of slowing every run unnoticed.
    const undiciCopies = code.split('class Agent extends DispatcherBase').length - 1
    if (undiciCopies > 1) {
      throw new Error(
        `${entry.src}: the bundle holds ${undiciCopies} copies of undici (npm ls undici; see overrides)`,
      )
    }
    // Every 'undici' import goes through src/service/undici-lean.ts (tsconfig.json "paths"); undici's root
    // module in a bundle means that stopped working, and every start pays ~28 ms again.
    if (code.includes('module.exports.fetch = function fetch')) {
      throw new Error(
        `${entry.src}: the bundle holds undici's root module (see src/service/undici-lean.ts and tsconfig.json paths)`,
      )
    }
  }
  rmSync('dist', { recursive: true, force: true })
  for (const [i, entry] of entries.entries()) cpSync(join(staging, String(i)), entry.out, { recursive: true })
  // The CLI is a command (`npm link`, `npm i -g .`, `npx kb-sync`): it needs the interpreter line.
  const cli = 'dist/cli/index.js'
  const code = readFileSync(cli, 'utf8')
  if (!code.startsWith('#!')) writeFileSync(cli, `#!/usr/bin/env node\n${code}`)
  chmodSync(cli, 0o755)
} finally {
  rmSync(staging, { recursive: true, force: true })
}

// Smoke run: the CLI bundle must start and print its help.
if (existsSync('dist/cli/index.js')) {
  execFileSync(process.execPath, ['dist/cli/index.js', '--help'], { stdio: 'ignore' })
}
console.log('bundled:', entries.map((e) => e.out).join(', '))
