import { describe, expect, it } from '@jest/globals'
import type { ChangeDecision, FileSelection, SelectedFile } from '../src/model.js'
import {
  chunkFiles,
  placeholderBatches,
  planSync,
  plannedItems,
  withDraftsFound,
  withoutDocuments,
} from '../src/plan.js'

const MiB = 1024 * 1024
const file = (name: string, size = 10): SelectedFile => ({ name, path: `/ws/${name}`, size })
const all: ChangeDecision = { kind: 'all', source: 'full-sync', reason: 'test' }

function selection(names: string[], skipped: string[] = []): FileSelection {
  return {
    files: names.map((n) => file(n)),
    skipped: skipped.map((name) => ({ kind: 'document', name, reason: 'hidden', detail: 'hidden' })),
  }
}

describe('planSync', () => {
  it('mode upload POSTs every file and URL without fallback', () => {
    const plan = planSync({
      selection: selection(['a.md', 'b.md']),
      urls: ['https://x.test/'],
      mode: 'upload',
      changes: all,
      batchSize: 10,
    })
    expect(plan.batches.map((b) => [b.kind, b.operation, b.fallback])).toEqual([
      ['documents', 'upload', false],
      ['urls', 'upload', false],
    ])
  })

  it('mode update PATCHes every file without fallback, even on a push with changes', () => {
    const changes: ChangeDecision = {
      kind: 'changes',
      source: 'git-diff',
      added: ['a.md'],
      modified: [],
      removed: [],
    }
    const plan = planSync({
      selection: selection(['a.md', 'b.md']),
      urls: [],
      mode: 'update',
      changes,
      batchSize: 10,
    })
    expect([...plannedItems(plan)].map((i) => [i.name, i.operation, i.fallback])).toEqual([
      ['a.md', 'update', false],
      ['b.md', 'update', false],
    ])
  })

  it('mode auto without a change set upserts everything (update first, fallback on)', () => {
    const plan = planSync({
      selection: selection(['a.md']),
      urls: ['https://x.test/'],
      mode: 'auto',
      changes: all,
      batchSize: 10,
    })
    expect([...plannedItems(plan)].map((i) => [i.kind, i.operation, i.fallback])).toEqual([
      ['document', 'update', true],
      ['url', 'update', true],
    ])
  })

  it('mode auto with a change set sends added as upload, modified as update, and only those', () => {
    const changes: ChangeDecision = {
      kind: 'changes',
      source: 'git-diff',
      added: ['new.md', 'not-selected.md'],
      modified: ['old.md', '.hidden.md'],
      removed: ['gone.md', 'gone.md'],
    }
    const plan = planSync({
      selection: selection(['new.md', 'old.md', 'same.md'], ['.hidden.md', '.unchanged-hidden.md']),
      urls: [],
      mode: 'auto',
      changes,
      batchSize: 10,
    })
    expect([...plannedItems(plan)].map((i) => [i.name, i.operation, i.fallback, i.removal === true])).toEqual(
      [
        ['new.md', 'upload', true, false],
        ['old.md', 'update', true, false],
        ['gone.md', 'update', false, true],
      ],
    )
    expect(plan.skipped.map((s) => s.name)).toEqual(['.hidden.md'])
    expect(plan.placeholders.map((p) => p.name)).toEqual(['gone.md'])
    expect(plan.left).toEqual([])
  })

  it('a present file removed from the node (staging) is in one list: removed or left, not skipped too', () => {
    const changes: ChangeDecision = {
      kind: 'changes',
      source: 'git-diff',
      added: [],
      modified: ['big.md', 'manual.pdf', 'other-big.md'],
      // What a staging run adds to the removals: changed files that are no longer documents here.
      removed: ['big.md', 'manual.pdf'],
    }
    const plan = planSync({
      selection: selection([], ['big.md', 'manual.pdf', 'other-big.md']),
      urls: [],
      mode: 'auto',
      changes,
      batchSize: 10,
    })
    expect(plan.placeholders.map((p) => p.name)).toEqual(['big.md'])
    expect(plan.left.map((d) => d.name)).toEqual(['manual.pdf'])
    expect(plan.skipped.map((s) => s.name)).toEqual(['other-big.md'])
  })

  it('upserts every selected file below a folder whose changes are unknown, and the named changes', () => {
    const changes: ChangeDecision = {
      kind: 'changes',
      source: 'git-diff',
      added: ['kb/new.md', 'top.md'],
      modified: [],
      removed: [],
      everythingUnder: ['kb'],
    }
    const plan = planSync({
      selection: selection(
        ['kb/new.md', 'kb/old.md', 'kb/deep/x.md', 'kbx/no.md', 'top.md', 'other.md'],
        ['kb/.h'],
      ),
      urls: [],
      mode: 'auto',
      changes,
      batchSize: 10,
    })
    expect([...plannedItems(plan)].map((i) => [i.name, i.operation, i.fallback])).toEqual([
      ['kb/new.md', 'upload', true],
      ['top.md', 'upload', true],
      ['kb/old.md', 'update', true],
      ['kb/deep/x.md', 'update', true],
    ])
    expect(plan.skipped.map((s) => s.name)).toEqual(['kb/.h'])
  })

  it("upserts every selected file when the unknown folder is the whole workspace ('')", () => {
    const changes: ChangeDecision = {
      kind: 'changes',
      source: 'git-diff',
      added: [],
      modified: [],
      removed: [],
      everythingUnder: [''],
    }
    const plan = planSync({
      selection: selection(['a.md', 'b/c.md']),
      urls: [],
      mode: 'auto',
      changes,
      batchSize: 10,
    })
    expect([...plannedItems(plan)].map((i) => i.name)).toEqual(['a.md', 'b/c.md'])
  })

  it('keeps the skip of a changed name that is not UTF-8', () => {
    const changes: ChangeDecision = {
      kind: 'changes',
      source: 'git-diff',
      added: [],
      modified: [],
      removed: [],
      undecodable: [{ shown: 'f\\xff.md', lossy: 'f\uFFFD.md', isFolder: false }],
    }
    const plan = planSync({
      selection: selection([], ['f\\xff.md', 'g\\xfe.md']),
      urls: [],
      mode: 'auto',
      changes,
      batchSize: 10,
    })
    expect(plan.skipped.map((s) => s.name)).toEqual(['f\\xff.md'])
  })

  it('a push with nothing to index plans nothing', () => {
    const plan = planSync({
      selection: selection(['a.md'], ['.x']),
      urls: ['https://x.test/'],
      mode: 'auto',
      changes: { kind: 'none', reason: 'tag push' },
      batchSize: 10,
    })
    expect(plan).toEqual({ batches: [], skipped: [], placeholders: [], left: [], refused: [] })
  })

  it('fails refused documents with their cause and the operation they were planned for; no batch has them', () => {
    const changes: ChangeDecision = {
      kind: 'changes',
      source: 'git-diff',
      added: ['new.pdf', 'a.md'],
      modified: ['old.pdf', 'b.md'],
      removed: [],
    }
    const plan = planSync({
      selection: selection(['a.md', 'b.md', 'new.pdf', 'old.pdf']),
      urls: [],
      mode: 'auto',
      changes,
      batchSize: 10,
      refused: new Map([
        ['new.pdf', 'LFS pointer'],
        ['old.pdf', 'LFS pointer'],
      ]),
    })
    expect([...plannedItems(plan)].map((i) => [i.name, i.operation])).toEqual([
      ['a.md', 'upload'],
      ['b.md', 'update'],
    ])
    expect(plan.batches.map((b) => (b.kind === 'documents' ? b.bytes : 0))).toEqual([10, 10])
    expect(plan.refused).toEqual([
      {
        kind: 'document',
        name: 'new.pdf',
        outcome: 'failed',
        operation: 'upload',
        attempts: 0,
        size: 10,
        error: 'LFS pointer',
      },
      {
        kind: 'document',
        name: 'old.pdf',
        outcome: 'failed',
        operation: 'update',
        attempts: 0,
        size: 10,
        error: 'LFS pointer',
      },
    ])
  })

  it('plans no empty batch when every selected file is refused', () => {
    const plan = planSync({
      selection: selection(['x.pdf']),
      urls: [],
      mode: 'upload',
      changes: all,
      batchSize: 10,
      refused: new Map([['x.pdf', 'LFS pointer']]),
    })
    expect(plan.batches).toEqual([])
    expect(plan.refused.map((item) => [item.name, item.operation])).toEqual([['x.pdf', 'upload']])
  })

  it('splits URLs by batch size', () => {
    const urls = Array.from({ length: 5 }, (_, i) => `https://x.test/${i}`)
    const plan = planSync({ selection: selection([]), urls, mode: 'upload', changes: all, batchSize: 2 })
    expect(plan.batches.map((b) => (b.kind === 'urls' ? b.urls.length : -1))).toEqual([2, 2, 1])
  })
})

describe('chunkFiles', () => {
  it('respects the batch size', () => {
    const chunks = chunkFiles(
      ['a', 'b', 'c', 'd', 'e'].map((n) => file(n)),
      2,
      32 * MiB,
    )
    expect(chunks.map((c) => c.map((f) => f.name))).toEqual([['a', 'b'], ['c', 'd'], ['e']])
  })

  it('keeps a request under the byte limit, and sends a larger file alone', () => {
    const files = [
      file('a', 20 * MiB),
      file('b', 20 * MiB),
      file('big', 40 * MiB),
      file('c', 1),
      file('d', 1),
    ]
    const chunks = chunkFiles(files, 10, 32 * MiB)
    expect(chunks.map((c) => c.map((f) => f.name))).toEqual([['a'], ['b'], ['big'], ['c', 'd']])
  })

  it('records the bytes of each batch', () => {
    const plan = planSync({
      selection: { files: [file('a', 3), file('b', 4)], skipped: [] },
      urls: [],
      mode: 'upload',
      changes: all,
      batchSize: 10,
    })
    expect(plan.batches[0]).toMatchObject({ kind: 'documents', bytes: 7 })
  })
})

/** Drafts by name, each for the same reason. */
function draftsOf(names: string[]): Map<string, string> {
  return new Map(names.map((name) => [name, 'its front matter says draft: true']))
}

describe('removed documents and drafts', () => {
  const COMMIT = 'c0ffee0000000000000000000000000000000001'
  const push = (overrides: Partial<Extract<ChangeDecision, { kind: 'changes' }>>): ChangeDecision => ({
    kind: 'changes',
    source: 'git-diff',
    added: [],
    modified: [],
    removed: [],
    ...overrides,
  })

  it('tombstone: a placeholder of each text format, the commit in its metadata where it has some; PDF and images are left', () => {
    const plan = planSync({
      selection: selection([]),
      urls: [],
      mode: 'auto',
      changes: push({ removed: ['docs/b.md', 'docs/a.json', 'docs/manual.pdf', 'img/shot.png'] }),
      batchSize: 10,
      removedBy: COMMIT,
    })
    expect(plan.placeholders.map((p) => p.name)).toEqual(['docs/a.json', 'docs/b.md'])
    // JSON has no metadata: its placeholder is an empty object; markdown keeps the commit in front matter.
    expect(plan.placeholders.map((p) => p.content)).toEqual([
      '{}\n',
      `---\nremoved: true\ncommit: "${COMMIT}"\n---\n`,
    ])
    expect(plan.left).toEqual([
      { name: 'docs/manual.pdf', reason: 'format' },
      { name: 'img/shot.png', reason: 'format' },
    ])
    expect(plan.batches).toEqual([])
  })

  it('keep: every removed document is left, nothing is planned for it', () => {
    const plan = planSync({
      selection: selection([]),
      urls: [],
      mode: 'auto',
      changes: push({ removed: ['docs/b.md', 'docs/manual.pdf'] }),
      batchSize: 10,
      removed: 'keep',
    })
    expect(plan.placeholders).toEqual([])
    expect(plan.left).toEqual([
      { name: 'docs/b.md', reason: 'keep' },
      { name: 'docs/manual.pdf', reason: 'keep' },
    ])
    expect([...plannedItems(plan)]).toEqual([])
  })

  it('a full sync skips drafts with the reason draft and sends the rest', () => {
    const plan = planSync({
      selection: selection(['a.md', 'draft.md']),
      urls: [],
      mode: 'auto',
      changes: all,
      batchSize: 10,
      drafts: new Map([['draft.md', 'its expiryDate (2000-01-01T00:00:00.000Z) has passed']]),
    })
    expect([...plannedItems(plan)].map((i) => i.name)).toEqual(['a.md'])
    expect(plan.skipped).toEqual([
      {
        kind: 'document',
        name: 'draft.md',
        reason: 'draft',
        detail:
          'its expiryDate (2000-01-01T00:00:00.000Z) has passed, so the site does not publish it; not sent (skip-drafts).',
      },
    ])
    expect(plan.placeholders).toEqual([])
  })

  it('drafts leave their batches after chunking: the others keep their batches, an emptied batch goes', () => {
    const names = ['a.md', 'b.md', 'c.md', 'd.md', 'e.md', 'f.md']
    const documents = (plan: ReturnType<typeof planSync>) =>
      plan.batches.map((b) => (b.kind === 'documents' ? b.documents.map((d) => d.name) : []))
    const input = {
      selection: selection(names, ['.hidden.md']),
      urls: ['https://example.com/a'],
      mode: 'upload' as const,
      changes: all,
      batchSize: 2,
    }
    const withDrafts = planSync({ ...input, drafts: draftsOf(['b.md', 'c.md', 'd.md']) })
    // Chunked as [a b] [c d] [e f], then the drafts taken out (not [a e] [f]); the URLs stay.
    expect(documents(withDrafts)).toEqual([['a.md'], ['e.md', 'f.md'], []])
    expect(withDrafts.batches.at(-1)).toMatchObject({ kind: 'urls', urls: ['https://example.com/a'] })
    expect(withDrafts.batches.map((b) => b.kind === 'documents' && b.bytes)).toEqual([10, 20, false])
    // What a sync that finds the drafts while sending takes out of the batches it planned without them.
    const found = withoutDocuments(planSync(input).batches, new Set(['b.md', 'c.md', 'd.md']))
    expect(found).toEqual(withDrafts.batches)
    // And the whole plan, drafts skipped included, from the plan made without them.
    const drafts = draftsOf(['b.md', 'c.md', 'd.md'])
    expect(withDraftsFound(planSync(input), input.selection, drafts)).toEqual(withDrafts)
    expect(withDrafts.skipped.map((item) => item.name)).toEqual(['.hidden.md', 'b.md', 'c.md', 'd.md'])
    expect(withDraftsFound(planSync(input), input.selection, new Map())).toEqual(planSync(input))
  })

  it('a push: an added draft is skipped, a modified one (published before) is blanked, an unknown folder skips', () => {
    const plan = planSync({
      selection: selection(['new-draft.md', 'now-draft.md', 'edited.md', 'kb/draft.md']),
      urls: [],
      mode: 'auto',
      changes: push({
        added: ['new-draft.md'],
        modified: ['now-draft.md', 'edited.md'],
        everythingUnder: ['kb'],
      }),
      batchSize: 10,
      drafts: draftsOf(['new-draft.md', 'now-draft.md', 'kb/draft.md']),
      removedBy: COMMIT,
    })
    expect([...plannedItems(plan)].map((i) => [i.name, i.operation, i.removal === true])).toEqual([
      ['edited.md', 'update', false],
      ['now-draft.md', 'update', true],
    ])
    expect(plan.skipped.map((s) => [s.name, s.reason])).toEqual([
      ['new-draft.md', 'draft'],
      ['kb/draft.md', 'draft'],
    ])
  })

  it('placeholder batches are PATCH without upsert, marked, and chunked like documents', () => {
    const batches = placeholderBatches([file('a.md'), file('b.md'), file('c.md')], 2)
    expect(
      batches.map(
        (b) => b.kind === 'documents' && [b.operation, b.fallback, b.placeholders, b.documents.length],
      ),
    ).toEqual([
      ['update', false, true, 2],
      ['update', false, true, 1],
    ])
  })
})
