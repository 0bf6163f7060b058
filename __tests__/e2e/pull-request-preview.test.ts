// The built index action in a pull_request event: a real origin with a base and a pull-request branch,
// a depth-1 checkout of the head, a real pull_request payload; the preview sends nothing and says what
// merging would send, in the summary and in the sticky comment.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { startEmulator, type Emulator } from '../../src/emulator/server.js'
import { startCommentsServer, type CommentsServer } from '../helpers/github-comments-server.js'
import { GitFixture, type WorkingCopy } from '../helpers/git-fixture.js'
import { runAction } from '../helpers/run-action.js'
import { GITHUB_TOKEN, PRIVATE_KEY } from '../helpers/keys.js'
import { pullRequestExample } from '../helpers/webhook-examples.js'

const ids = {
  'flow-id': '65f0c0ffee0000000000beef',
  'org-id': 'b2a1c3d4-0000-4000-8000-000000000001',
  'node-id': 'kb-1',
}

const opened = pullRequestExample('opened')

function pullRequestPayload(base: string, head: string) {
  const payload = structuredClone(opened) as {
    pull_request: { number: number; base: { sha: string }; head: { sha: string } }
  }
  payload.pull_request.base.sha = base
  payload.pull_request.head.sha = head
  return payload
}

let fixture: GitFixture
let author: WorkingCopy
let emulator: Emulator
let github: CommentsServer
let base: string
let head: string

beforeEach(async () => {
  fixture = GitFixture.create()
  author = fixture.author()
  author.write('docs/a.md').write('docs/b.md').write('docs/gone.md')
  base = author.commit('base')
  author.push()
  author.git('checkout', '-q', '-b', 'feature')
  author.write('docs/a.md', 'changed\n').write('docs/c.md').remove('docs/gone.md').write('README.md')
  head = author.commit('feature')
  author.push('feature')
  emulator = await startEmulator({ privateKey: PRIVATE_KEY, publicKey: 'pub-unused-key' })
  github = await startCommentsServer({ owner: 'octo-org', repo: 'docs' })
})
afterEach(async () => {
  await emulator.close()
  await github.close()
  fixture.cleanup()
})

let checkouts = 0

function index(
  inputs: Record<string, string>,
  eventName = 'pull_request',
  pr = { branch: 'feature', head: () => head },
) {
  return runAction({
    action: 'action.yml',
    workspace: fixture.checkout({ branch: pr.branch, name: `checkout-${++checkouts}` }).dir,
    eventName,
    payload: pullRequestPayload(base, pr.head()),
    inputs: { 'base-url': emulator.url, ...ids, files: 'docs/**', 'github-token': GITHUB_TOKEN, ...inputs },
    env: { GITHUB_API_URL: github.url },
  })
}

describe('index action in a pull request', () => {
  it('previews what merging would send, sends nothing, needs no key, and comments the plan', async () => {
    const run = await index({ 'private-key': '' })
    expect(run.status).toBe(0)
    expect(emulator.requests()).toHaveLength(0)
    const number = (opened.pull_request as { number: number }).number
    expect(run.summary).toContain(
      `**Preview of pull request #${number}: nothing sent.** Would upload 1 · update 1 · remove from answers 1 · unchanged/skipped 0 —`,
    )
    expect(run.summary).toContain(
      `git diff of the pull request (${base.slice(0, 12)}..${head.slice(0, 12)}), after fetching the base commit`,
    )
    // What happens if the knowledge base answers otherwise, in words; the log's plan keeps the codes.
    expect(run.summary).toMatch(
      /<summary>Would upload \(1\)<\/summary>\n\n- docs\/c\.md — updated instead if it is already in the knowledge base\n/,
    )
    expect(run.summary).toMatch(
      /<summary>Would update \(1\)<\/summary>\n\n- docs\/a\.md — uploaded instead if it is not there yet\n/,
    )
    expect(run.summary).not.toMatch(/\b(404|409|PATCH|POST)\b|→|attempt/)
    expect(run.stdout).toContain('upload (409 → update) document docs/c.md')
    expect(run.summary).toMatch(
      /<summary>Would remove from answers: a placeholder replaces each \(1\)<\/summary>\n\n- docs\/gone\.md/,
    )
    expect(run.summary).toContain(
      `## Knowledge base sync: preview — org ${ids['org-id']} · flow ${ids['flow-id']} · node kb-1`,
    )
    expect(run.stdout).toMatch(/^::notice::Pull request preview: nothing was sent/m)
    // Nothing was sent: nothing was removed yet; the plan says it would be.
    expect(JSON.parse(run.outputs.removed)).toEqual([])
    expect(JSON.parse(run.outputs.uploaded)).toEqual([])
    // What merging would send, each with its operation, instead of empty lists.
    const planned = JSON.parse(run.outputs.planned) as { name: string; operation: string }[]
    expect(planned.sort((x, y) => x.name.localeCompare(y.name))).toEqual([
      { name: 'docs/a.md', operation: 'update' },
      { name: 'docs/c.md', operation: 'upload' },
      { name: 'docs/gone.md', operation: 'remove' },
    ])
    expect(run.outputs['planned-count']).toBe('3')
    // The pull request's own selected documents: a.md, c.md and gone.md (README.md is not selected).
    expect(run.outputs['pull-request-changed']).toBe('3')
    expect(run.summary).not.toContain('changes none of the selected documents')

    const comments = github.comments.filter((c) =>
      c.body.startsWith(`<!-- kb-sync index ${ids['flow-id']} kb-1 -->`),
    )
    expect(comments).toHaveLength(1)
    expect(comments[0].issue).toBe(number)
    expect(comments[0].body).toContain('Would upload 1 · update 1')
    expect(comments[0].body).toContain('- docs/c.md — updated instead if it is already in the knowledge base')
    expect(comments[0].body).not.toMatch(/\b(404|409|PATCH|POST)\b|→|attempt/)
    expect(comments[0].body).toContain(head.slice(0, 12))

    // A new push to the pull request updates the same comment.
    await index({ 'private-key': '' })
    expect(github.comments).toHaveLength(1)
  })

  // The staging change set from earlier runs is staging-sync.test.ts's; off a runner no run is known.
  it('pull-request: index off a runner sends every selected file by upsert, with a warning', async () => {
    const run = await index({ 'private-key': PRIVATE_KEY, 'pull-request': 'index', comment: 'false' })
    expect(run.status).toBe(0)
    expect([...JSON.parse(run.outputs.uploaded)].sort()).toEqual(['docs/a.md', 'docs/b.md', 'docs/c.md'])
    expect(JSON.parse(run.outputs.planned)).toEqual([])
    // What the pull request itself deletes is removed even so (answered 404 here: it was never sent).
    expect(JSON.parse(run.outputs.removed)).toEqual(['docs/gone.md'])
    expect(run.stdout).toMatch(
      /^::warning::Change detection: what the staging node holds is unknown \(not on a runner, so no earlier run is known\)/m,
    )
    // The staging change set is every file here; the pull request's own is what is counted.
    expect(run.outputs['pull-request-changed']).toBe('3')
    expect(github.requests).toHaveLength(0)
  })

  it('pull-request: index without a key skips with a summary saying why', async () => {
    const run = await index({ 'private-key': '', 'pull-request': 'index' })
    expect(run.status).toBe(0)
    expect(run.summary).toContain('## Knowledge base sync: nothing ran')
    expect(run.summary).toContain('No private key in this pull request')
    expect(emulator.requests()).toHaveLength(0)
  })

  it('pull-request-changed: 0 for a pull request that changes no selected document; the sync still runs', async () => {
    author.git('checkout', '-q', 'main')
    const readmeOnly = author.branch('readme-only', base, (copy) => copy.write('README.md', 'new\n'))
    const pr = { branch: 'readme-only', head: () => readmeOnly }
    const preview = await index({ 'private-key': '' }, 'pull_request', pr)
    expect(preview.outputs['pull-request-changed']).toBe('0')
    expect(preview.summary).toContain('\nThis pull request changes none of the selected documents.\n')
    // Nothing to preview: no comment (the comments were looked up, none was written).
    expect(github.comments).toEqual([])
    expect(github.requests.map((request) => request.method)).toEqual(['GET'])
    expect(preview.stdout).toContain('Pull-request comment: none from this step exists; none is created.')

    const staging = await index({ 'private-key': PRIVATE_KEY, 'pull-request': 'index' }, 'pull_request', pr)
    expect(staging.status).toBe(0)
    // What was sent to the staging node is in the job summary; the pull request gets no comment.
    expect(github.comments).toEqual([])
    expect(staging.outputs['pull-request-changed']).toBe('0')
    expect(staging.summary).toContain('\nThis pull request changes none of the selected documents.\n')
    // Not skipped: the staging node is brought to this checkout all the same.
    expect([...JSON.parse(staging.outputs.uploaded)].sort()).toEqual([
      'docs/a.md',
      'docs/b.md',
      'docs/gone.md',
    ])
    expect(emulator.requests().length).toBeGreaterThan(0)
  })

  it('a pull request whose new push no longer changes selected documents: its preview comment says so, no second one', async () => {
    const first = await index({ 'private-key': '' })
    expect(first.status).toBe(0)
    expect(github.comments).toHaveLength(1)
    expect(github.comments[0].body).toContain('Would upload 1 · update 1')
    // The next push leaves only the README changed (as if the docs changes were reverted).
    author.git('checkout', '-q', 'main')
    const readmeOnly = author.branch('readme-only', base, (copy) => copy.write('README.md', 'new\n'))
    const again = await index({ 'private-key': '' }, 'pull_request', {
      branch: 'readme-only',
      head: () => readmeOnly,
    })
    expect(again.status).toBe(0)
    expect(again.outputs['pull-request-changed']).toBe('0')
    expect(github.comments).toHaveLength(1)
    const body = github.comments[0].body
    expect(body.split('\n')[1]).toBe(
      '> **This pull request no longer changes any of the selected documents.** An earlier push did; what ' +
        'this comment showed then no longer applies.',
    )
    expect(body).toContain('Would upload 0 · update 0 · remove from answers 0')
    expect(body).not.toContain('docs/c.md')
    expect(body).toContain(readmeOnly.slice(0, 12))
    expect(again.stdout).toMatch(/Pull-request comment updated: /)
  })

  it('a draft the pull request edits and leaves a draft is skipped, not removed from answers; one it unpublishes is', async () => {
    author.git('checkout', '-q', 'main')
    author.write('docs/draft.md', '---\ndraft: true\n---\n# Draft\n')
    base = author.commit('a draft on main')
    author.push()
    const edited = author.branch('edit-draft', base, (copy) =>
      copy
        .write('docs/draft.md', '---\ndraft: true\n---\n# Draft, edited\n')
        .write('docs/b.md', '---\ndraft: true\n---\n# B\n'),
    )
    const preview = await index({ 'private-key': '' }, 'pull_request', {
      branch: 'edit-draft',
      head: () => edited,
    })
    expect(preview.status).toBe(0)
    expect(JSON.parse(preview.outputs.planned)).toEqual([{ name: 'docs/b.md', operation: 'remove' }])
    expect(JSON.parse(preview.outputs.skipped)).toEqual(['docs/draft.md'])
    expect(preview.summary).not.toContain('Would remove from answers (2)')
  })

  it('pull-request-changed is empty, with a warning, when the change set is unknown, and outside pull requests', async () => {
    const unknown = { branch: 'feature', head: () => 'f'.repeat(40) }
    const run = await index(
      { 'private-key': PRIVATE_KEY, 'pull-request': 'index', comment: 'false' },
      'pull_request',
      unknown,
    )
    expect(run.status).toBe(0)
    expect(run.outputs['pull-request-changed']).toBe('')
    expect(run.stdout).toMatch(
      /^::warning::The output "pull-request-changed" is empty: the pull request's own change set is unknown \(.*commit ffffffffffff/m,
    )
    const push = await index({ 'private-key': PRIVATE_KEY, comment: 'false' }, 'push')
    expect(push.status).toBe(0)
    expect(push.outputs['pull-request-changed']).toBe('')
    expect(push.stdout).not.toContain('pull-request-changed')
  })

  it.each(['pull_request_target', 'workflow_run'])('%s stays refused', async (eventName) => {
    const run = await index({ 'private-key': PRIVATE_KEY }, eventName)
    expect(run.status).toBe(1)
    expect(run.stdout).toMatch(new RegExp(`^::error::.*"${eventName}"`, 'm'))
    expect(emulator.requests()).toHaveLength(0)
  })
})
