// The emulator's retrieval flow: passages, ranking, and the run answer over HTTP.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import {
  answerQuestion,
  createMissPicker,
  flowRunAnswer,
  MISSED_ANSWER,
  questionOf,
  rankPassages,
  searchableText,
  splitPassages,
  type FlowDocument,
} from '../../src/emulator/flow.js'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { PLACEHOLDER_EXTENSIONS, placeholderFor } from '../../src/placeholders.js'
import { PRIVATE_KEY, PUBLIC_KEY } from '../helpers/keys.js'

const INSTALL = `# Installing Lumen

Lumen runs on Linux and macOS.

## Requirements

You need 4 GB of memory and a PostgreSQL 15 database.

## Steps

Download the installer, then run \`lumen setup\` and follow the prompts.
`
const BILLING = `# Billing

Invoices are sent on the first day of each month.

## Refunds

Refunds are possible within 30 days of purchase: write to billing@lumen.example with the invoice number.
`
const TROUBLESHOOTING = `Troubleshooting

If the dashboard shows error E42, the database password has expired. Reset it with lumen db rotate.

Slow reports usually mean the cache is cold; wait a few minutes after a restart.
`

describe('splitPassages', () => {
  it('splits by blank lines and headings, keeping the heading above each passage', () => {
    expect(splitPassages('install.md', INSTALL)).toEqual([
      { document: 'install.md', heading: 'Installing Lumen', text: 'Lumen runs on Linux and macOS.' },
      {
        document: 'install.md',
        heading: 'Requirements',
        text: 'You need 4 GB of memory and a PostgreSQL 15 database.',
      },
      {
        document: 'install.md',
        heading: 'Steps',
        text: 'Download the installer, then run `lumen setup` and follow the prompts.',
      },
    ])
  })

  it('handles CRLF text without headings', () => {
    expect(splitPassages('t.txt', 'one\r\ntwo\r\n\r\nthree').map((p) => p.text)).toEqual([
      'one\ntwo',
      'three',
    ])
  })
})

describe('searchableText', () => {
  it('leaves out what a reader does not see: front matter, an HTML head, AsciiDoc attribute entries', () => {
    const words = (name: string, text: string) =>
      splitPassages(name, searchableText(name, text)).map((passage) => passage.text)
    expect(words('a.md', '---\ntitle: Pricing\ntags: [old]\n---\nPrices went up.\n')).toEqual([
      'Prices went up.',
    ])
    expect(words('a.mdx', '+++\ntitle = "Pricing"\n+++\n\nPrices went up.\n')).toEqual(['Prices went up.'])
    // A rule in the middle of a page is no front matter.
    expect(words('a.md', 'Intro.\n\n---\nkept: yes\n---\n')).toEqual(['Intro.', '---\nkept: yes\n---'])
    expect(
      words('a.html', '<html><head><title>Pricing</title></head><body><p>Up.</p></body></html>'),
    ).toEqual(['Up.'])
    expect(words('a.adoc', ':toc: left\n:removed: abc\n\nPrices went up.\n')).toEqual(['Prices went up.'])
    // Data formats keep every value: their fields are their content.
    expect(words('a.json', '{"title": "Pricing"}')).toEqual(['{"title": "Pricing"}'])
  })
})

describe("a removed document's placeholder is never found", () => {
  const COMMIT = '0123456789abcdef0123456789abcdef01234567'
  // The old placeholder's sentence, the removed document's name and words a reader would ask.
  const QUESTIONS = [
    'old pricing',
    'What did old-pricing say about prices?',
    'Was a document removed?',
    'removed',
    'Removed',
    'This document was removed from the repository by commit; its earlier content no longer applies.',
    `commit ${COMMIT}`,
    COMMIT,
    'removed true commit',
    'removed-by-commit',
    'note',
    'title',
    'How do I get a refund?',
    'utf-8 html en',
  ]
  const removed = PLACEHOLDER_EXTENSIONS.flatMap((extension) => [
    `docs/old-pricing.${extension}`,
    `docs/unknown-commit.${extension.toUpperCase()}`,
  ])
  const document = (name: string, text: string): FlowDocument => ({
    nodeId: 'knowledgebase-1',
    name,
    contentType: 'application/octet-stream',
    text,
  })
  const knowledge = {
    documents: [
      document('docs/billing.md', BILLING),
      document('docs/install.md', INSTALL),
      ...removed.map((name) =>
        document(name, placeholderFor(name, name.includes('unknown') ? undefined : COMMIT)!),
      ),
    ],
    urls: [],
  }

  it('every format with a placeholder has one, and it has no passage to search', () => {
    expect(PLACEHOLDER_EXTENSIONS.length).toBeGreaterThanOrEqual(15)
    for (const name of removed) {
      const text = placeholderFor(name, COMMIT)
      expect(text).toBeDefined()
      expect({ name, passages: splitPassages(name, searchableText(name, text!)) }).toEqual({
        name,
        passages: [],
      })
    }
  })

  it('no question cites one: the old sentence, the removed name, its commit, or any text', () => {
    const cites = (question: string) =>
      flowRunAnswer(question, knowledge, 'flow f', 'run').citations.map((citation) => citation.document)
    for (const question of QUESTIONS)
      expect({ question, cited: cites(question) }).toEqual({
        question,
        cited: cites(question).filter((name) => !removed.includes(name)),
      })
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom(...QUESTIONS.join(' ').split(' ')), fc.string()), {
          maxLength: 8,
        }),
        (words) => {
          const question = words.join(' ')
          const text = answerQuestion(question, knowledge, 'flow f')
          return cites(question).every((name) => !removed.includes(name)) && !text.includes('old-pricing')
        },
      ),
      { numRuns: 300 },
    )
    // The documents that are not removed are still found.
    expect(cites('How do I get a refund?')[0]).toBe('docs/billing.md')
  })
})

describe('rankPassages', () => {
  const passages = [INSTALL, BILLING, TROUBLESHOOTING].flatMap((text, i) =>
    splitPassages(['install.md', 'billing.md', 'troubleshooting.txt'][i], text),
  )

  it.each([
    ['How do I get a refund?', 'Refunds are possible'],
    ['what does error E42 mean', 'error E42'],
    ['How much memory is required?', '4 GB of memory'],
    ['When are invoices sent?', 'Invoices are sent'],
  ])('%s → the passage containing %j first', (question, expected) => {
    expect(rankPassages(question, passages)[0].text).toContain(expected)
  })

  it('returns at most three passages and none for unrelated words', () => {
    expect(rankPassages('lumen database memory refunds invoices', passages)).toHaveLength(3)
    expect(rankPassages('zebra quantum', passages)).toEqual([])
  })
})

describe('questionOf', () => {
  it('starts with in-0 and appends the other inputs', () => {
    expect(questionOf({ 'in-1': 'second', 'in-0': 'first', 'string-0': 'third' })).toBe(
      'first\nsecond\nthird',
    )
    expect(questionOf({ 'in-1': 'only' })).toBe('only')
    expect(questionOf({})).toBe('')
  })
})

describe('answerQuestion', () => {
  it('says clearly when nothing is indexed', () => {
    expect(answerQuestion('anything', { documents: [], urls: [] }, 'flow f in org o')).toBe(
      'No documents indexed: the knowledge bases of flow f in org o are empty.',
    )
  })
})

describe('run over HTTP', () => {
  let emulator: Emulator
  const headers = (key: string, type?: string) => ({
    authorization: `Bearer ${key}`,
    ...(type ? { 'content-type': type } : {}),
  })
  const run = async (inputs: Record<string, string>, org = 'org-1', flow = 'flow-1') => {
    const response = await fetch(`${emulator.url}/inference/v0/run/${org}/${flow}`, {
      method: 'POST',
      headers: headers(PUBLIC_KEY, 'application/json'),
      body: JSON.stringify(inputs),
    })
    expect(response.status).toBe(200)
    const body = (await response.json()) as {
      outputs: Record<string, string>
      run_id: string
      citations: { document: string; heading: string }[]
    }
    // The shape the real service answers in.
    expect(body).toEqual({
      outputs: { 'out-0': expect.any(String) },
      run_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      state: 'COMPLETED',
      error: null,
      pause: null,
      citations: expect.any(Array),
    })
    for (const citation of body.citations) expect(body.outputs['out-0']).toContain(citation.document)
    return body.outputs['out-0']
  }
  const upload = async (node: string, files: [string, string][], flow = 'flow-1') => {
    const data = new FormData()
    for (const [name, content] of files) data.append('files', new Blob([content]), name)
    const response = await fetch(`${emulator.url}/indexing/v0/documents/${flow}/org-1/${node}`, {
      method: 'POST',
      headers: headers(PRIVATE_KEY),
      body: data,
    })
    expect(response.status).toBe(200)
  }

  beforeAll(async () => {
    emulator = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: PUBLIC_KEY })
  })
  afterAll(async () => {
    await emulator.close()
  })

  it('answers "no documents indexed" for an empty flow', async () => {
    expect(await run({ 'in-0': 'How do I get a refund?' }, 'org-1', 'empty-flow')).toContain(
      'No documents indexed',
    )
  })

  it('finds the right passage across every node of the flow, with document names', async () => {
    await upload('knowledgebase-1', [
      ['docs/install.md', INSTALL],
      ['docs/billing.md', BILLING],
    ])
    await upload('knowledgebase-2', [
      ['notes/troubleshooting.txt', TROUBLESHOOTING],
      ['brochure.pdf', '%PDF-1.4 refunds refunds refunds'],
    ])
    await upload('knowledgebase-1', [['other-flow.md', 'Refunds are never possible.']], 'flow-2')
    const urls = await fetch(`${emulator.url}/indexing/v0/urls/flow-1/org-1/urlemb-0`, {
      method: 'POST',
      headers: headers(PRIVATE_KEY, 'application/json'),
      body: '["https://lumen.example/faq"]',
    })
    expect(urls.status).toBe(200)

    const refund = await run({ 'in-0': 'How do I get a refund?' })
    expect(refund.startsWith('[1] docs/billing.md (Refunds)\nRefunds are possible within 30 days')).toBe(true)
    expect(refund).not.toContain('never possible')
    expect(refund).toContain('Other documents (not searched):\n- brochure.pdf')
    expect(refund).toContain('Indexed websites (not fetched):\n- https://lumen.example/faq')

    const error = await run({ 'in-0': 'dashboard shows', 'in-1': 'error E42' })
    expect(error.startsWith('[1] notes/troubleshooting.txt\nIf the dashboard shows error E42')).toBe(true)
    expect((error.match(/^\[\d\] /gm) ?? []).length).toBeLessThanOrEqual(3)
  })

  it('searches HTML without its tags, and stops citing a document once a placeholder replaced it', async () => {
    const page =
      '<!DOCTYPE html><html><head><title>Jest</title><style>p { color: red }</style></head>' +
      '<body><h1>Jest</h1><p>Configure jest snapshot tests with snapshotFormat &amp; run npx jest.</p></body></html>'
    await upload('knowledgebase-1', [['site/jest.html', page]], 'flow-3')
    const before = await run({ 'in-0': 'How do I configure jest snapshot tests?' }, 'org-1', 'flow-3')
    expect(before).toMatch(
      /^\[1\] site\/jest\.html\nConfigure jest snapshot tests with snapshotFormat & run npx jest\./,
    )
    expect(before).not.toMatch(/<p>|color: red/)

    const data = new FormData()
    data.append('file1', new Blob([placeholderFor('site/jest.html', 'a'.repeat(40))!]), 'site/jest.html')
    const patched = await fetch(`${emulator.url}/indexing/v0/documents/flow-3/org-1/knowledgebase-1`, {
      method: 'PATCH',
      headers: headers(PRIVATE_KEY),
      body: data,
    })
    expect(patched.status).toBe(200)
    const after = await run({ 'in-0': 'How do I configure jest snapshot tests?' }, 'org-1', 'flow-3')
    expect(after).not.toContain('site/jest.html')
    expect(after).not.toContain('snapshotFormat')
  })

  it('says when no question was given', async () => {
    expect(await run({})).toContain('No question was given')
  })
})

describe('answers that vary across runs (missRate, seeded)', () => {
  const started: Emulator[] = []
  afterAll(async () => {
    for (const emulator of started) await emulator.close()
  })
  async function emulatorWith(options: { missRate?: number; seed?: number }) {
    const emulator = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: PUBLIC_KEY, ...options })
    started.push(emulator)
    const data = new FormData()
    data.append('files', new Blob([BILLING]), 'docs/billing.md')
    await fetch(`${emulator.url}/indexing/v0/documents/flow-1/org-1/knowledgebase-1`, {
      method: 'POST',
      headers: { authorization: `Bearer ${PRIVATE_KEY}` },
      body: data,
    })
    return async (question: string) => {
      const response = await fetch(`${emulator.url}/inference/v0/run/org-1/flow-1`, {
        method: 'POST',
        headers: { authorization: `Bearer ${PUBLIC_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ 'in-0': question }),
      })
      const body = (await response.json()) as { outputs: { 'out-0': string }; citations: unknown[] }
      return body.outputs['out-0'] === MISSED_ANSWER ? 'missed' : 'answered'
    }
  }
  const QUESTION = 'How do I get a refund?'

  it('by default every run of a question gets the same answer', async () => {
    const ask = await emulatorWith({ seed: 7 })
    const answers = []
    for (let i = 0; i < 6; i++) answers.push(await ask(QUESTION))
    expect(answers).toEqual(Array(6).fill('answered'))
  })

  it('one seed gives one sequence per question, whatever other questions come between', async () => {
    const alone = await emulatorWith({ seed: 7, missRate: 0.5 })
    const mixed = await emulatorWith({ seed: 7, missRate: 0.5 })
    const picker = createMissPicker(7, 0.5)
    const expected = Array.from({ length: 8 }, () => (picker(QUESTION) ? 'missed' : 'answered'))
    const first: string[] = []
    const second: string[] = []
    for (let i = 0; i < 8; i++) {
      first.push(await alone(QUESTION))
      await mixed(`other question ${i}`)
      second.push(await mixed(QUESTION))
    }
    expect(first).toEqual(expected)
    expect(second).toEqual(expected)
    // The seed was chosen so that the question's runs really differ.
    expect(new Set(first)).toEqual(new Set(['missed', 'answered']))
  })

  it('refuses a rate outside 0..1', async () => {
    await expect(
      startEmulator({ privateKey: PRIVATE_KEY, publicKey: PUBLIC_KEY, missRate: 1.5 }),
    ).rejects.toThrow('missRate must be a number from 0 to 1')
  })
})
