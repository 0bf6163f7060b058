// Re-derives what Hugo itself does not publish in the Hugo fixture (__tests__/fixtures/hugo-site), from
// `hugo list drafts|future|expired`, and writes it to the fixture's unpublished.json (the tests compare
// kb-sync's verdicts with that file, without needing Hugo). `--check` only compares, and fails on a
// difference. Needs `hugo` on the PATH (Debian's package: apt-get install hugo).
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const site = fileURLToPath(new URL('../__tests__/fixtures/hugo-site/', import.meta.url))
const recorded = `${site}unpublished.json`

/** The content files one `hugo list` prints (its first CSV column, without the header). */
function listed(kind) {
  const csv = execFileSync('hugo', ['list', kind], { cwd: site, encoding: 'utf8' })
  return csv
    .split('\n')
    .slice(1)
    .map((line) => line.split(',')[0])
    .filter((path) => path !== '')
    .sort()
}

const version = execFileSync('hugo', ['version'], { encoding: 'utf8' }).trim().split(' ')[1]
const derived = {
  hugo: version,
  drafts: listed('drafts'),
  future: listed('future'),
  expired: listed('expired'),
}
const text = `${JSON.stringify(derived, null, 2)}\n`
if (process.argv.includes('--check')) {
  const { hugo: _, ...before } = JSON.parse(readFileSync(recorded, 'utf8'))
  const { hugo: __, ...now } = derived
  if (JSON.stringify(before) !== JSON.stringify(now)) {
    console.error(`Hugo ${version} does not agree with ${recorded}:\n${text}`)
    process.exit(1)
  }
  console.log(`Hugo ${version} agrees with ${recorded}.`)
} else {
  writeFileSync(recorded, text)
  console.log(`Wrote ${recorded} (Hugo ${version}).`)
}
