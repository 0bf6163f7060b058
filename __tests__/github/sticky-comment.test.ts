// The sticky comment through @actions/github's octokit over real HTTP to a local REST server.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { getOctokit } from '../../src/github/octokit.js'
import { upsertStickyComment } from '../../src/github/sticky-comment.js'
import { suiteVerdict } from '../../src/checks/verdict.js'
import { renderChecksComment } from '../../src/report/comment-body.js'
import { checkResult } from '../helpers/check-results.js'
import { startCommentsServer, type CommentsServer } from '../helpers/github-comments-server.js'
import { GITHUB_TOKEN as TOKEN } from '../helpers/keys.js'
import { startRecordingServer } from '../helpers/recording-server.js'
import { LookupBudget } from '../../src/github/lookup-budget.js'
import { structureOf } from '../report/gfm.js'

const where = { owner: 'octo-org', repo: 'docs' }
let server: CommentsServer
const savedApiUrl = process.env.GITHUB_API_URL

beforeEach(async () => {
  server = await startCommentsServer(where)
  process.env.GITHUB_API_URL = server.url
})
afterEach(async () => {
  await server.close()
  if (savedApiUrl === undefined) delete process.env.GITHUB_API_URL
  else process.env.GITHUB_API_URL = savedApiUrl
})

const comment = (marker: string, body: Parameters<typeof upsertStickyComment>[1]['body']) => ({
  ...where,
  issueNumber: 7,
  marker,
  body,
})

describe('sticky pull-request comment', () => {
  it('creates one comment, then updates that same one, found past the first pages', async () => {
    // 250 comments by people first: the marker must be found across pages (100 per page).
    for (let i = 0; i < 250; i++)
      server.comments.push({
        id: i + 1,
        issue: 7,
        body: `comment ${i}`,
        user: { login: 'someone', type: 'User' },
      })
    const octokit = getOctokit(TOKEN)
    const first = await upsertStickyComment(
      octokit,
      comment('<!-- kb-sync run-flow f1 -->', 'first'),
      new LookupBudget(),
    )
    expect(first).toMatchObject({ ok: true, action: 'created' })
    const second = await upsertStickyComment(
      octokit,
      comment('<!-- kb-sync run-flow f1 -->', 'second'),
      new LookupBudget(),
    )
    expect(second).toMatchObject({ ok: true, action: 'updated' })
    expect(second.ok && first.ok && 'id' in second && 'id' in first && second.id === first.id).toBe(true)
    const ours = server.comments.filter((c) => c.body.startsWith('<!-- kb-sync'))
    expect(ours).toHaveLength(1)
    expect(ours[0].body).toBe('<!-- kb-sync run-flow f1 -->\nsecond')
    expect(server.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/7/comments')).length).toBe(6)
    expect(new Set(server.requests.map((r) => r.authorization))).toEqual(new Set([`token ${TOKEN}`]))
  })

  it('two markers keep two comments', async () => {
    const octokit = getOctokit(TOKEN)
    for (const round of [1, 2]) {
      await upsertStickyComment(
        octokit,
        comment('<!-- kb-sync run-flow f1 smoke -->', `a${round}`),
        new LookupBudget(),
      )
      await upsertStickyComment(
        octokit,
        comment('<!-- kb-sync run-flow f1 full -->', `b${round}`),
        new LookupBudget(),
      )
    }
    expect(server.comments.map((c) => c.body)).toEqual([
      '<!-- kb-sync run-flow f1 smoke -->\na2',
      '<!-- kb-sync run-flow f1 full -->\nb2',
    ])
  })

  it('a body built from the comment found: updates that one from its body, creates none when absent', async () => {
    const octokit = getOctokit(TOKEN)
    const marker = '<!-- kb-sync run-flow f1 -->'
    const seen: (string | undefined)[] = []
    const amend = (existing: string | undefined) => {
      seen.push(existing)
      return existing === undefined ? undefined : `note\n\n${existing}`
    }
    expect(await upsertStickyComment(octokit, comment(marker, amend), new LookupBudget())).toEqual({
      ok: true,
      action: 'left',
    })
    expect(server.comments).toHaveLength(0)
    expect(server.requests.map((r) => r.method)).toEqual(['GET'])

    server.comments.push({ id: 1, issue: 7, body: 'a person', user: { login: 'someone', type: 'User' } })
    await upsertStickyComment(octokit, comment(marker, 'the result'), new LookupBudget())
    expect(await upsertStickyComment(octokit, comment(marker, amend), new LookupBudget())).toMatchObject({
      ok: true,
      action: 'updated',
    })
    expect(seen).toEqual([undefined, 'the result'])
    expect(server.comments.map((c) => c.body)).toEqual(['a person', `${marker}\nnote\n\nthe result`])
  })

  it('a refused write is an outcome with the status, never a throw', async () => {
    server.refuseWrites = 403
    const outcome = await upsertStickyComment(
      getOctokit(TOKEN),
      comment('<!-- m -->', 'x'),
      new LookupBudget(),
    )
    expect(outcome).toMatchObject({ ok: false, status: 403 })
    expect(server.comments).toHaveLength(0)
  })

  it('a 2 MB answer is cut so that GitHub accepts the comment', async () => {
    const answer = 'The refund window is 14 days. '.repeat(70_000)
    const results = [checkResult({ name: 'refunds', answer })]
    const body = renderChecksComment('### Flow check', results, suiteVerdict(results, 100), {})
    const outcome = await upsertStickyComment(
      getOctokit(TOKEN),
      comment('<!-- kb-sync run-flow f1 -->', body),
      new LookupBudget(),
    )
    expect(outcome).toMatchObject({ ok: true, action: 'created' })
    expect(server.comments[0].body.length).toBeLessThanOrEqual(65_536)
    // The answer is a quote, its markup escaped: the note reads as written once rendered.
    expect(structureOf(server.comments[0].body).html).toMatch(
      /\[cut by kb-sync: the last [\d,]+ of 2,100,000 bytes were removed\]/,
    )
  })

  it('a cancelled run stops waiting for GitHub at once, before the request timeout', async () => {
    const cancel = new AbortController()
    const reason = new Error('The run was cancelled (SIGINT received)')
    // GitHub takes the request and never answers; the run is cancelled once it is waiting.
    const stalled = await startRecordingServer(() => cancel.abort(reason))
    try {
      const octokit = getOctokit(TOKEN, stalled.url)
      const outcome = await upsertStickyComment(
        octokit,
        comment('<!-- m -->', 'x'),
        new LookupBudget({ cancel: cancel.signal }),
      )
      expect(outcome).toMatchObject({ ok: false })
      expect(outcome.ok === false && outcome.why).toContain('cancelled (SIGINT received)')
      expect(stalled.requests).toHaveLength(1)
    } finally {
      await stalled.close()
    }
  })
})
