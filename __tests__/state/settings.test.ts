// The record's fingerprint of the settings that shape the selection: each such input changes its own hash
// and no other, what cannot change the selection (the order of a set) changes nothing, and no value is kept.
import { describe, expect, test } from '@jest/globals'
import { readIndexConfig } from '../../src/config/index-config.js'
import { changedSettings, SELECTION_SETTINGS, settingsOf } from '../../src/state/settings.js'

const BASE: Record<string, string> = {
  'flow-id': 'flow-1',
  'org-id': 'org-1',
  'node-id': 'knowledgebase-1',
  'private-key': 'sk-private-settings',
  files: 'docs/**\n!docs/drafts/**',
  urls: 'https://example.com/a\nhttps://example.com/b',
  sitemaps: 'https://example.com/sitemap.xml\nhttps://example.com/blog/sitemap.xml',
  'url-include': 'https://example.com/docs/**\nhttps://example.com/blog/**',
  'url-exclude': '**/old/**\n**/tmp/**',
}

const settingsFor = (inputs: Record<string, string>) =>
  settingsOf(readIndexConfig((name) => (inputs[name] ?? '').trim(), { eventName: 'push' }))

const changedBy = (inputs: Record<string, string>) =>
  changedSettings(settingsFor(BASE), settingsFor({ ...BASE, ...inputs }))

describe('settingsOf', () => {
  test('holds one 12-digit hash per setting that shapes the selection, keyed by input name', () => {
    const settings = settingsFor(BASE)
    expect(Object.keys(settings).sort()).toEqual([...SELECTION_SETTINGS].sort())
    for (const hash of Object.values(settings)) expect(hash).toMatch(/^[0-9a-f]{12}$/)
    expect(settingsFor(BASE)).toEqual(settings)
  })

  test.each<[string, Record<string, string>]>([
    ['files', { files: 'docs/**\n!docs/drafts/**\nguides/**' }],
    ['urls', { urls: 'https://example.com/a' }],
    ['sitemaps', { sitemaps: 'https://example.com/sitemap.xml' }],
    ['url-include', { 'url-include': 'https://example.com/docs/**' }],
    ['url-exclude', { 'url-exclude': '**/old/**' }],
    ['include-hidden-files', { 'include-hidden-files': 'true' }],
    ['max-file-size', { 'max-file-size': '1MB' }],
    ['follow-symlinks', { 'follow-symlinks': 'none' }],
    ['skip-drafts', { 'skip-drafts': 'false' }],
    ['removed', { removed: 'keep' }],
    ['shard', { shard: '2/4' }],
  ])('a change of %s changes its hash and no other', (name, inputs) => {
    expect(changedBy(inputs)).toEqual([name])
  })

  test('inputs that do not shape the selection change nothing', () => {
    expect(changedBy({ 'batch-size': '5', concurrency: '2', mode: 'upload', 'dry-run': 'true' })).toEqual([])
  })

  test('the order of urls, sitemaps and URL patterns changes nothing; repeats neither', () => {
    expect(
      changedBy({
        urls: 'https://example.com/b\nhttps://example.com/a\nhttps://example.com/b',
        sitemaps: 'https://example.com/blog/sitemap.xml\nhttps://example.com/sitemap.xml',
        'url-include': 'https://example.com/blog/**\nhttps://example.com/docs/**',
        'url-exclude': '**/tmp/**\n**/old/**',
      }),
    ).toEqual([])
  })

  test('files: the order within a run of includes (or excludes) changes nothing, across them it does', () => {
    const base = {
      ...BASE,
      files: 'docs/**\nguides/**\n!docs/drafts/**\n!guides/drafts/**\ndocs/drafts/keep.md',
    }
    const settings = (files: string) => settingsFor({ ...base, files })
    const before = settings(base.files)
    // Same runs, each reordered: the same selection.
    expect(
      settings('guides/**\ndocs/**\n!guides/drafts/**\n!docs/drafts/**\ndocs/drafts/keep.md').files,
    ).toBe(before.files)
    // `!!` is an include (as @actions/glob reads it): it belongs to the run of includes.
    const doubled = (first: string, second: string) =>
      settings(`${first}\n${second}\n!docs/drafts/**\n!guides/drafts/**\ndocs/drafts/keep.md`).files
    expect(doubled('!!guides/**', 'docs/**')).toBe(doubled('docs/**', '!!guides/**'))
    // The re-include moved before the exclude that it overrides: another selection.
    expect(
      settings('docs/**\nguides/**\ndocs/drafts/keep.md\n!docs/drafts/**\n!guides/drafts/**').files,
    ).not.toBe(before.files)
  })

  test('shard 1/1 is no shard: it selects everything', () => {
    expect(changedBy({ shard: '1/1' })).toEqual([])
  })

  test('no value is kept: a URL is only hashed', () => {
    const settings = JSON.stringify(
      settingsFor({ ...BASE, urls: 'https://example.com/private-token-Canary123' }),
    )
    expect(settings).not.toContain('Canary123')
    expect(settings).not.toContain('example.com')
  })
})

describe('changedSettings', () => {
  test('names the settings whose hash differs, sorted', () => {
    expect(
      changedSettings(
        { files: 'aaaaaaaaaaaa', urls: 'bbbbbbbbbbbb', removed: 'cccccccccccc' },
        {
          files: 'aaaaaaaaaaaa',
          urls: 'dddddddddddd',
          removed: 'eeeeeeeeeeee',
        },
      ),
    ).toEqual(['removed', 'urls'])
  })

  test('a setting absent on one side counts as changed', () => {
    expect(
      changedSettings({ files: 'aaaaaaaaaaaa' }, { files: 'aaaaaaaaaaaa', shard: 'bbbbbbbbbbbb' }),
    ).toEqual(['shard'])
    expect(
      changedSettings({ files: 'aaaaaaaaaaaa', shard: 'bbbbbbbbbbbb' }, { files: 'aaaaaaaaaaaa' }),
    ).toEqual(['shard'])
    expect(changedSettings({}, {})).toEqual([])
  })

  test('a name that Object.prototype has is not mistaken for a setting', () => {
    expect(changedSettings({ constructor: 'aaaaaaaaaaaa' }, {})).toEqual(['constructor'])
    expect(changedSettings({}, { toString: 'aaaaaaaaaaaa' })).toEqual(['toString'])
  })
})
