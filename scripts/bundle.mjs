// Builds one ncc bundle per entry into dist/, then proves each bundle is whole:
// ncc exits 0 even when it could not resolve an ESM-only module (it leaves a
// `webpackMissingModule` stub that only fails at run time), so we look for the stub
// and start every bundle once.
//
// A bundle is its index.js and the chunk files beside it (<id>.index.js): a dynamic import() of the
// sources becomes a chunk, loaded when it is first reached. V8 compiles all of a file it loads, so what
// only some runs need (sitemaps, octokit, the flow run, YAML, TOML, form-data) stays out of every start-up.
//
// No source maps: with `--source-map` every bundle loads source-map support on its first line, and the
// first stack trace read parses a 4.5 MB map (150–300 ms and ~58 MB at every run). Each map is also one
// multi-megabyte line that changes whole at every rebuild of the committed dist/.
import { execFileSync, spawn } from 'node:child_process'
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

// Code that the index action's index.js must not hold: each is loaded only by the runs that need it
// (src/jobs/index-job.ts, src/actions/post-comment.ts, src/service/multipart.ts, src/select/document/drafts.ts).
// A static import that pulls one back fails here. Each marker must still be found in some bundle file,
// so a library that renames it fails here too instead of passing unchecked.
const LAZY_IN_INDEX_ACTION = [
  { what: 'fast-xml-parser (sitemaps)', marker: 'class XMLParser' },
  { what: 'octokit (@actions/github)', marker: 'class Octokit' },
  { what: "undici's fetch (octokit's)", marker: 'class Fetch extends EE' },
  { what: 're2js (flow run)', marker: 'class RE2Flags' },
  { what: 'yaml (front matter)', marker: 'class YAMLParseError' },
  { what: 'smol-toml (front matter)', marker: 'class TomlError' },
  { what: 'form-data (streamed files)', marker: 'function FormData(' },
  { what: 'mime-db (form-data)', marker: '"application/1d-interleaved-parityfec"' },
  { what: '@actions/artifact (the record)', marker: 'class DefaultArtifactClient' },
  { what: "Azure's blob client (@actions/artifact)", marker: 'class BlockBlobClient extends BlobClient' },
  { what: "zod (the record's and the checks' schemas)", marker: '"ZodError"' },
]

// What the CLI's index.js must not hold: each command loads its own code (src/cli.ts), so `--help`, a
// usage error and `serve` start without the pipelines.
const LAZY_IN_CLI = [
  { what: 'the emulator (serve)', marker: 'class EmulatorServer' },
  { what: 'zod (the checks and the record)', marker: '"ZodError"' },
  { what: 'yaml (the checks file)', marker: 'class YAMLParseError' },
  { what: 're2js (expect, assertions)', marker: 'class RE2Flags' },
  { what: 'octokit (@actions/github)', marker: 'class Octokit' },
]

const entries = [
  { src: 'src/actions/index.ts', out: 'dist', lazy: LAZY_IN_INDEX_ACTION },
  { src: 'src/actions/run-flow.ts', out: 'dist/run-flow' },
  { src: 'src/cli.ts', out: 'dist/cli', lazy: LAZY_IN_CLI },
]

/**
 * The chunks' license files (`<chunk>.licenses.txt`) as one licenses.txt: every package once, in the
 * plugin's own layout (by name: name, license id, text, a blank line), as one build of one chunk writes it.
 */
function mergeLicenses(out, src) {
  const files = readdirSync(out).filter((name) => name.endsWith('.licenses.txt'))
  const packages = new Map()
  for (const file of files) {
    for (const entry of licenseEntries(readFileSync(join(out, file), 'utf8'))) {
      const known = packages.get(entry.name)
      if (known && known.text.trimEnd() !== entry.text.trimEnd()) {
        throw new Error(
          `${src}: ${file} gives package ${entry.name} another license text than an earlier chunk`,
        )
      }
      // A file's last entry lost its text's trailing line breaks to the file's end: the others keep them.
      if (!known || (known.last && !entry.last)) packages.set(entry.name, entry)
    }
    rmSync(join(out, file))
  }
  if (packages.size === 0) throw new Error(`${src}: ncc wrote no license file`)
  const names = [...packages.keys()].sort((a, b) => (a < b ? -1 : 1))
  const text = names
    .map((name) => packages.get(name))
    .map((entry) => (entry.last ? `${entry.text}\n\n` : entry.text))
  writeFileSync(join(out, 'licenses.txt'), `${text.join('').trim()}\n`)
}

// A package's entry starts at the file's start or after a blank line, with its npm name alone on a line
// followed by its license id.
const ENTRY_START =
  /(?<=^|\n\n)((?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*)\n[A-Za-z0-9.+\-() ]+\n/g

/** Each package's entry of one license file: up to the next one (the last: trimmed, to the file's end). */
function licenseEntries(file) {
  const starts = [...file.matchAll(ENTRY_START)]
  if (starts.length === 0 || starts[0].index !== 0) throw new Error('a license file of an unknown layout')
  return starts.map((start, i) => ({
    name: start[1],
    text:
      i + 1 < starts.length
        ? file.slice(start.index, starts[i + 1].index)
        : file.slice(start.index).trimEnd(),
    last: i + 1 === starts.length,
  }))
}

const ncc = join('node_modules', '@vercel', 'ncc', 'dist', 'ncc', 'cli.js')
const staging = mkdtempSync(join(tmpdir(), 'kb-sync-bundle-'))
const markersFound = new Set()
/** One ncc build; its own cache (ncc names it by the entry), so the three can run at once. */
function build(entry, out) {
  // ncc's license plugin keeps one list per chunk name and writes each chunk's list to the file named:
  // with one name for all, the last chunk's list wins (the main chunk's packages were missing). One
  // file per chunk, merged below.
  const child = spawn(
    process.execPath,
    [ncc, 'build', entry.src, '-o', out, '--license', '[name].licenses.txt', '-q'],
    { stdio: 'inherit' },
  )
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${entry.src}: ncc exited with ${signal ?? code}`)),
    )
  })
}

try {
  // At once: each build is mostly one thread, and CI runs this on every change (~58 → ~46 s on 2 cores).
  await Promise.all(entries.map((entry, i) => build(entry, join(staging, String(i)))))
  for (const [i, entry] of entries.entries()) {
    const out = join(staging, String(i))
    mergeLicenses(out, entry.src)
    const files = readdirSync(out).filter((name) => name.endsWith('.js'))
    const code = new Map(files.map((name) => [name, readFileSync(join(out, name), 'utf8')]))
    for (const [name, text] of code) {
      if (text.includes('webpackMissingModule')) {
        throw new Error(`${entry.src}: ${name} has an unresolved module (webpackMissingModule)`)
      }
      // Every 'undici' import goes through src/net/undici-lean.ts (tsconfig.json "paths"); undici's
      // root module in a bundle means that stopped working, and every start pays ~28 ms again.
      if (text.includes('module.exports.fetch = function fetch')) {
        throw new Error(
          `${entry.src}: ${name} holds undici's root module (see src/net/undici-lean.ts and tsconfig.json paths)`,
        )
      }
      for (const { marker } of entry.lazy ?? []) if (text.includes(marker)) markersFound.add(marker)
    }
    // One undici for the whole bundle, all its files together: `overrides` in package.json points
    // @actions/http-client and @actions/github at ours. A second copy costs ~1 MB of bundle and ~20 ms of
    // every start (bench/README.md); a dependency update that brings one back fails here instead of
    // slowing every run unnoticed.
    const undiciCopies = [...code.values()].reduce(
      (n, text) => n + text.split('class Agent extends DispatcherBase').length - 1,
      0,
    )
    if (undiciCopies > 1) {
      throw new Error(
        `${entry.src}: the bundle holds ${undiciCopies} copies of undici (npm ls undici; see overrides)`,
      )
    }
    for (const { what, marker } of entry.lazy ?? []) {
      if (code.get('index.js').includes(marker)) {
        throw new Error(
          `${entry.src}: index.js holds ${what}, which only some runs need: import it where it is used ` +
            `with a dynamic import() (its own chunk), or every start compiles it`,
        )
      }
    }
  }
  for (const { what, marker } of [...LAZY_IN_INDEX_ACTION, ...LAZY_IN_CLI]) {
    if (!markersFound.has(marker)) {
      throw new Error(`no bundle file holds "${marker}" any more: update the marker of ${what} above`)
    }
  }
  // dist/ is written anew, so no chunk of an earlier build survives beside the new ones.
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
