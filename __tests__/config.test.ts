import { describe, expect, test } from '@jest/globals'
import { ConfigError } from '../src/config/errors.js'
import type { InputReader } from '../src/config/fields.js'
import { INDEX_DEFAULTS, INDEX_INPUTS, readIndexConfig } from '../src/config/index-config.js'
import { readRunConfig } from '../src/config/run.js'
import { RUN_DEFAULTS, RUN_INPUTS } from '../src/config/run-inputs.js'
import { ACTION_INPUT_NAMES } from '../src/setting-names.js'
import { makeWorkspace } from './helpers/workspace.js'

const PRIVATE_KEY = 'sk-private-Canary0123456789'
const PUBLIC_KEY = 'pk-public-Canary0123456789'

const GOOD_INDEX: Record<string, string> = {
  'flow-id': 'flow-1',
  'org-id': 'org-1',
  'node-id': 'knowledgebase-1',
  'private-key': PRIVATE_KEY,
  files: 'docs/**/*.md',
}

const GOOD_RUN: Record<string, string> = {
  'org-id': 'org-1',
  'flow-id': 'flow-1',
  'public-key': PUBLIC_KEY,
  inputs: '{"in-0": "What is new?"}',
}

/** Inputs as `core.getInput` gives them: trimmed, '' when unset. */
function reader(inputs: Record<string, string>): InputReader {
  return (name) => (inputs[name] ?? '').trim()
}

const PUSH = { eventName: 'push' }
const PULL_REQUEST = { eventName: 'pull_request' }

function configError(run: () => unknown): ConfigError {
  try {
    run()
  } catch (error) {
    if (error instanceof ConfigError) return error
    throw error
  }
  throw new Error('expected a ConfigError')
}

describe('readIndexConfig', () => {
  test('applies every default when only the required inputs are set', () => {
    const config = readIndexConfig(reader(GOOD_INDEX), PUSH)
    expect(config).toEqual({
      baseUrl: 'https://api.stack-ai.com',
      target: { flowId: 'flow-1', orgId: 'org-1', nodeId: 'knowledgebase-1' },
      privateKey: PRIVATE_KEY,
      files: ['docs/**/*.md'],
      urls: [],
      sitemaps: [],
      urlInclude: [],
      urlExclude: [],
      mode: 'auto',
      fullSync: false,
      removed: 'tombstone',
      skipDrafts: true,
      dryRun: false,
      includeHiddenFiles: false,
      ifNoFilesFound: 'warn',
      maxFileSize: 50 * 1024 * 1024,
      batchSize: 25,
      concurrency: 16,
      followSymlinks: 'inside',
      retry: { retries: 10, deadlineMs: 120_000 },
      githubToken: '',
      comment: { enabled: false, key: '', githubToken: '' },
      pullRequest: 'preview',
      preview: false,
      outputsBudget: 256_000,
      names: ACTION_INPUT_NAMES,
    })
  })

  test('removed and skip-drafts are read, and a bad value names the input and what is expected', () => {
    const config = readIndexConfig(reader({ ...GOOD_INDEX, removed: 'keep', 'skip-drafts': 'false' }), PUSH)
    expect([config.removed, config.skipDrafts]).toEqual(['keep', false])
    const error = configError(() =>
      readIndexConfig(reader({ ...GOOD_INDEX, removed: 'delete', 'skip-drafts': 'maybe' }), PUSH),
    )
    expect(error.message).toContain('Input "removed" must be one of tombstone, keep (got "delete").')
    expect(error.message).toContain('Input "skip-drafts" must be true or false (got "maybe").')
  })

  test.each(['9999', '500001', '256k', '-1'])(
    'outputs-budget %s is refused, naming the input and the range',
    (value) => {
      const error = configError(() =>
        readIndexConfig(reader({ ...GOOD_INDEX, 'outputs-budget': value }), PUSH),
      )
      expect(error.message).toContain(
        `Input "outputs-budget" must be a whole number from 10000 to 500000 (got "${value}").`,
      )
    },
  )

  test('defaults given as action.yml text give the same config as no value', () => {
    const withDefaults = readIndexConfig(reader({ ...INDEX_DEFAULTS, ...GOOD_INDEX }), PUSH)
    expect(withDefaults).toEqual(readIndexConfig(reader(GOOD_INDEX), PUSH))
  })

  test('reads every input', () => {
    const config = readIndexConfig(
      reader({
        ...GOOD_INDEX,
        'base-url': 'http://127.0.0.1:8080/api/',
        files: '\n docs/**  \n\n!docs/drafts/**\n',
        urls: 'https://example.com/a\n\n  https://example.com/b  \nhttps://example.com/a\n',
        mode: 'Upload',
        'dry-run': 'TRUE',
        'include-hidden-files': 'True',
        'if-no-files-found': 'error',
        'max-file-size': '1.5 kb',
        'batch-size': '100',
        concurrency: '32',
        'follow-symlinks': 'none',
        retries: '1',
        'retry-deadline': '2m',
        'github-token': 'ghs_token',
        'public-key': PUBLIC_KEY,
        'flow-inputs': '{"in-0": "Summarise"}',
      }),
      PUSH,
    )
    expect(config).toMatchObject({
      baseUrl: 'http://127.0.0.1:8080/api',
      files: ['docs/**', '!docs/drafts/**'],
      urls: ['https://example.com/a', 'https://example.com/b'],
      mode: 'upload',
      dryRun: true,
      includeHiddenFiles: true,
      ifNoFilesFound: 'error',
      maxFileSize: 1536,
      batchSize: 100,
      concurrency: 32,
      followSymlinks: 'none',
      retry: { retries: 1, deadlineMs: 120_000 },
      githubToken: 'ghs_token',
      flowRun: { publicKey: PUBLIC_KEY, inputs: { 'in-0': 'Summarise' } },
    })
    expect(config.skip).toBeUndefined()
  })

  test('the unexpanded default `${{ github.token }}` (what local tools pass) means no token', () => {
    for (const text of ['${{ github.token }}', '${{github.token}}', '  ${{ secrets.GITHUB_TOKEN }} ']) {
      const config = readIndexConfig(reader({ ...GOOD_INDEX, 'github-token': text }), PUSH)
      expect(config.githubToken).toBe('')
    }
    const error = configError(() =>
      readIndexConfig(reader({ ...GOOD_INDEX, 'github-token': 'ghs_${{ x }}' + ' tail' }), PUSH),
    )
    expect(error.problems.map((p) => p.input)).toEqual(['github-token'])
  })

  test('URLs alone are enough (no files)', () => {
    const config = readIndexConfig(reader({ ...GOOD_INDEX, files: '', urls: 'https://example.com' }), PUSH)
    expect(config.files).toEqual([])
    expect(config.urls).toEqual(['https://example.com'])
  })

  const bad: [string, Record<string, string | undefined>, string][] = [
    ['missing flow-id', { 'flow-id': undefined }, 'flow-id'],
    ['missing org-id', { 'org-id': undefined }, 'org-id'],
    ['missing node-id', { 'node-id': undefined }, 'node-id'],
    ['flow-id with a slash', { 'flow-id': 'a/b' }, 'flow-id'],
    ['org-id with a query', { 'org-id': 'org?x=1' }, 'org-id'],
    ['node-id that is a dot segment', { 'node-id': '..' }, 'node-id'],
    ['unknown mode', { mode: 'sync' }, 'mode'],
    ['dry-run not a boolean', { 'dry-run': 'yes please' }, 'dry-run'],
    ['full-sync not a boolean', { 'full-sync': 'sometimes' }, 'full-sync'],
    ['include-hidden-files not a boolean', { 'include-hidden-files': '1' }, 'include-hidden-files'],
    ['unknown if-no-files-found', { 'if-no-files-found': 'fail' }, 'if-no-files-found'],
    ['unknown follow-symlinks', { 'follow-symlinks': 'all' }, 'follow-symlinks'],
    ['max-file-size without a number', { 'max-file-size': 'big' }, 'max-file-size'],
    ['max-file-size with an unknown unit', { 'max-file-size': '5TB' }, 'max-file-size'],
    ['max-file-size zero', { 'max-file-size': '0MB' }, 'max-file-size'],
    ['batch-size zero', { 'batch-size': '0' }, 'batch-size'],
    ['batch-size above 100', { 'batch-size': '101' }, 'batch-size'],
    ['batch-size a fraction', { 'batch-size': '2.5' }, 'batch-size'],
    ['concurrency negative', { concurrency: '-1' }, 'concurrency'],
    ['concurrency above 32', { concurrency: '33' }, 'concurrency'],
    ['concurrency not a number', { concurrency: 'four' }, 'concurrency'],
    ['retries zero', { retries: '0' }, 'retries'],
    ['retries above 20', { retries: '21' }, 'retries'],
    ['retry-deadline zero', { 'retry-deadline': '0' }, 'retry-deadline'],
    ['retry-deadline above an hour', { 'retry-deadline': '61m' }, 'retry-deadline'],
    ['retry-deadline with an unknown unit', { 'retry-deadline': '5 days' }, 'retry-deadline'],
    ['base-url over plain http', { 'base-url': 'http://api.example.com' }, 'base-url'],
    ['base-url with user info', { 'base-url': 'https://user:hunter2@api.example.com' }, 'base-url'],
    ['base-url with a query', { 'base-url': 'https://api.example.com/?x=1' }, 'base-url'],
    ['base-url not a URL', { 'base-url': 'api.example.com' }, 'base-url'],
    ['files pattern absolute', { files: 'docs/**\n/etc/passwd' }, 'files'],
    ['files pattern from home', { files: '~/.ssh/*' }, 'files'],
    ['files pattern with ..', { files: 'docs/../../secret' }, 'files'],
    ['files pattern with NUL', { files: 'docs/\0x' }, 'files'],
    ['neither files nor urls', { files: '', urls: '\n \n' }, 'files'],
    ['url over ftp', { urls: 'ftp://example.com/file' }, 'urls'],
    ['url with user info', { urls: 'https://user:hunter2@example.com/' }, 'urls'],
    ['url with a space', { urls: 'https://example.com/a b' }, 'urls'],
    ['url too long', { urls: `https://example.com/${'a'.repeat(2048)}` }, 'urls'],
    ['url that is not a URL', { urls: 'example.com' }, 'urls'],
    ['flow-inputs bad JSON', { 'flow-inputs': '{"in-0": ', 'public-key': PUBLIC_KEY }, 'flow-inputs'],
    ['flow-inputs not an object', { 'flow-inputs': '["a"]', 'public-key': PUBLIC_KEY }, 'flow-inputs'],
    [
      'flow-inputs non-string value',
      { 'flow-inputs': '{"in-0": 1}', 'public-key': PUBLIC_KEY },
      'flow-inputs',
    ],
    ['flow-inputs without public-key', { 'flow-inputs': '{"in-0": "q"}' }, 'public-key'],
    ['private-key with a newline', { 'private-key': 'sk-abc\nsk-def' }, 'private-key'],
    ['private-key with a space', { 'private-key': 'sk abc' }, 'private-key'],
    ['private-key not ASCII', { 'private-key': 'sk-\u00e9' }, 'private-key'],
    ['public-key with a newline', { 'public-key': 'pk-abc\npk-def' }, 'public-key'],
    ['github-token with a newline', { 'github-token': 'ghs_a\nb' }, 'github-token'],
  ]

  test.each(bad)('%s: the error names the input', (_, change, input) => {
    const inputs: Record<string, string> = { ...GOOD_INDEX }
    for (const [name, value] of Object.entries(change)) {
      if (value === undefined) delete inputs[name]
      else inputs[name] = value
    }
    const error = configError(() => readIndexConfig(reader(inputs), PUSH))
    expect(error.problems.map((p) => p.input)).toEqual([input])
    expect(error.problems[0].message).toContain(`"${input}"`)
    expect(error.message).toBe(error.problems[0].message)
  })

  test('a key is never shown in the error', () => {
    const key = 'sk-Secret\nValue-42'
    const error = configError(() =>
      readIndexConfig(reader({ ...GOOD_INDEX, 'private-key': key, 'public-key': key }), PUSH),
    )
    expect(error.problems.map((p) => p.input).sort()).toEqual(['private-key', 'public-key'])
    for (const part of ['sk-Secret', 'Value-42']) expect(error.message).not.toContain(part)
  })

  test('user info of a base-url or URL entry is not shown', () => {
    const error = configError(() =>
      readIndexConfig(
        reader({
          ...GOOD_INDEX,
          'base-url': 'https://admin:hunter2@api.example.com',
          urls: 'https://bob:swordfish@example.com/x\nftp://carol:letmein@example.com\nhttp://dave:pw@exa mple.com',
        }),
        PUSH,
      ),
    )
    expect(error.problems).toHaveLength(4)
    for (const word of ['admin', 'hunter2', 'bob', 'swordfish', 'carol', 'letmein', 'dave:pw'])
      expect(error.message).not.toContain(word)
    expect(error.message).toContain('example.com')
  })

  test('every problem is reported at once, URL entries with their line numbers', () => {
    const error = configError(() =>
      readIndexConfig(
        reader({
          'node-id': 'kb-1',
          'private-key': PRIVATE_KEY,
          mode: 'sync',
          concurrency: '0',
          urls: 'https://ok.example.com\n\nftp://example.com\nhttps://ok.example.com\nnot a url',
        }),
        PUSH,
      ),
    )
    expect(error.problems.map((p) => p.input)).toEqual([
      'flow-id',
      'org-id',
      'mode',
      'concurrency',
      'urls',
      'urls',
    ])
    expect(error.message).toContain('Input "mode" must be one of auto, upload, update (got "sync").')
    expect(error.message).toMatch(/line 3: "ftp:\/\/example.com"/)
    expect(error.message).toMatch(/line 5: "not a url"/)
    expect(error.message.split('\n')[0]).toBe('6 inputs are invalid:')
  })

  test('an empty private key on push is an error naming private-key', () => {
    const error = configError(() => readIndexConfig(reader({ ...GOOD_INDEX, 'private-key': '' }), PUSH))
    expect(error.problems.map((p) => p.input)).toEqual(['private-key'])
  })

  test('the CLI (no event) needs a private key too', () => {
    const error = configError(() =>
      readIndexConfig(reader({ ...GOOD_INDEX, 'private-key': '' }), { eventName: '' }),
    )
    expect(error.problems.map((p) => p.input)).toEqual(['private-key'])
  })

  test.each(['pull_request', 'pull_request_review', 'pull_request_review_comment'])(
    'an empty private key in %s: previewed by default, skipped with a notice under pull-request: index',
    (eventName) => {
      const preview = readIndexConfig(
        reader({ ...GOOD_INDEX, 'private-key': '', 'flow-inputs': '{"in-0": "q"}' }),
        { eventName },
      )
      expect(preview.preview).toBe(true)
      expect(preview.skip).toBeUndefined()
      const config = readIndexConfig(
        reader({ ...GOOD_INDEX, 'private-key': '', 'flow-inputs': '{"in-0": "q"}', 'pull-request': 'index' }),
        { eventName },
      )
      expect(config.skip).toMatch(/no private key in this pull request.*forks and Dependabot/i)
      expect(config.preview).toBe(false)
    },
  )

  test('a pull request with the private key is not skipped', () => {
    expect(readIndexConfig(reader(GOOD_INDEX), PULL_REQUEST).skip).toBeUndefined()
  })

  test('a pull request with an empty key still fails on other bad inputs', () => {
    const error = configError(() =>
      readIndexConfig(reader({ ...GOOD_INDEX, 'private-key': '', mode: 'sync' }), PULL_REQUEST),
    )
    expect(error.problems.map((p) => p.input)).toEqual(['mode'])
  })

  test('a dry run needs no key, not even for flow-inputs', () => {
    const config = readIndexConfig(
      reader({ ...GOOD_INDEX, 'private-key': '', 'dry-run': 'true', 'flow-inputs': '{"in-0": "q"}' }),
      PUSH,
    )
    expect(config).toMatchObject({ dryRun: true, privateKey: '', flowRun: { publicKey: '' } })
    expect(config.skip).toBeUndefined()
  })

  test('indexing under pull_request_target is refused, explaining why', () => {
    const eventName = 'pull_request_target'
    const error = configError(() => readIndexConfig(reader(GOOD_INDEX), { eventName }))
    expect(error.message).toContain(eventName)
    expect(error.message).toMatch(/unreviewed content with the private key/)
  })

  describe('after a site deployed (workflow_run, deployment_status)', () => {
    const repository = { id: 7, full_name: 'octo-org/docs' }
    const workflowRun = (run: Record<string, unknown>) => ({
      eventName: 'workflow_run',
      payload: {
        repository,
        workflow_run: { event: 'push', conclusion: 'success', head_repository: repository, ...run },
      },
    })
    const deployment = (state: string) => ({
      eventName: 'deployment_status',
      payload: { repository, deployment_status: { state } },
    })

    test.each([
      ['a deploy of a push that succeeded', workflowRun({})],
      ['a successful deployment', deployment('success')],
    ])('indexes after %s', (_what, event) => {
      expect(readIndexConfig(reader(GOOD_INDEX), event).skip).toBeUndefined()
    })

    test.each([
      [
        "a pull request's run",
        workflowRun({ event: 'pull_request' }),
        /a pull_request event, whose content nobody has reviewed/,
      ],
      [
        "a fork's run",
        workflowRun({ head_repository: { id: 8 } }),
        /a fork, whose content nobody has reviewed/,
      ],
      ['a failed deploy', workflowRun({ conclusion: 'failure' }), /ended "failure", not "success"/],
      [
        'a deployment in progress',
        deployment('in_progress'),
        /the deployment is "in_progress", not "success"/,
      ],
    ])('refuses %s, naming the event', (_what, event, why) => {
      const error = configError(() => readIndexConfig(reader(GOOD_INDEX), event))
      expect(error.message).toContain(`"${event.eventName}"`)
      expect(error.message).toMatch(why)
    })
  })

  test('flow inputs keep __proto__ as a plain key', () => {
    const config = readIndexConfig(
      reader({ ...GOOD_INDEX, 'public-key': PUBLIC_KEY, 'flow-inputs': '{"__proto__": "x", "in-0": "q"}' }),
      PUSH,
    )
    expect(Object.keys(config.flowRun!.inputs)).toEqual(['__proto__', 'in-0'])
    expect(Object.getPrototypeOf(config.flowRun!.inputs)).toBeNull()
  })
})

describe('readRunConfig', () => {
  test('applies every default when only the required inputs are set', () => {
    const config = readRunConfig(reader(GOOD_RUN), PUSH)
    expect(config).toEqual({
      baseUrl: 'https://api.stack-ai.com',
      target: { orgId: 'org-1', flowId: 'flow-1' },
      publicKey: PUBLIC_KEY,
      inputs: { 'in-0': 'What is new?' },
      outputKey: 'out-0',
      expect: undefined,
      retry: { retries: 10, deadlineMs: 120_000 },
      comment: { enabled: false, key: '', githubToken: '' },
      retryOnServerError: false,
      runTimeoutMs: 600_000,
      settleMs: 0,
      concurrency: 2,
      repeats: { repeat: 1 },
      maxRuns: 1000,
      threshold: 100,
      baselineSource: 'stored',
      failOn: 'threshold',
      outputsBudget: 256_000,
      names: ACTION_INPUT_NAMES,
    })
    expect(readRunConfig(reader({ ...RUN_DEFAULTS, ...GOOD_RUN }), PUSH)).toEqual(config)
    expect(readRunConfig(reader({ ...GOOD_RUN, 'outputs-budget': '10000' }), PUSH).outputsBudget).toBe(10_000)
    expect(() => readRunConfig(reader({ ...GOOD_RUN, 'outputs-budget': '1e6' }), PUSH)).toThrow(
      'Input "outputs-budget" must be a whole number from 10000 to 500000 (got "1e6").',
    )
  })

  describe('checks', () => {
    const SUITE = '- name: refunds\n  inputs: {in-0: refunds?}\n  contains: 14 days\n'
    const { inputs: _, ...withoutInputs } = GOOD_RUN

    test('inline checks replace inputs; concurrency and threshold are read', () => {
      const config = readRunConfig(
        reader({ ...withoutInputs, checks: SUITE, concurrency: '3', threshold: '90%' }),
        PUSH,
      )
      expect(config.checks?.map((check) => check.name)).toEqual(['refunds'])
      expect([config.concurrency, config.threshold]).toEqual([3, 90])
      expect(config.inputs).toEqual({})
    })

    test('a checks file is read relative to the workspace', () => {
      const workspace = makeWorkspace({ 'ci/checks.yml': SUITE })
      try {
        const config = readRunConfig(reader({ ...withoutInputs, checks: 'ci/checks.yml' }), {
          ...PUSH,
          workspace: workspace.dir,
        })
        expect(config.checks).toHaveLength(1)
      } finally {
        workspace.remove()
      }
    })

    test('a json-schema file of a check is read from the workspace, and may not leave it', () => {
      const workspace = makeWorkspace({ 'schemas/answer.json': '{"type": "object"}' })
      const check = (path: string) => `- name: a\n  inputs: {in-0: q}\n  json-schema: ${path}\n`
      try {
        const context = { ...PUSH, workspace: workspace.dir }
        const config = readRunConfig(
          reader({ ...withoutInputs, checks: check('schemas/answer.json') }),
          context,
        )
        expect(config.checks?.[0].jsonSchema?.file).toBe('schemas/answer.json')
        const error = configError(() =>
          readRunConfig(reader({ ...withoutInputs, checks: check('../answer.json') }), context),
        )
        expect(error.message).toMatch(
          /Input "checks": check "a" \(#1\), field "json-schema": names .*"\.\.\/answer\.json"/,
        )
      } finally {
        workspace.remove()
      }
    })

    test.each([
      ['inputs and checks together', { ...GOOD_RUN, checks: SUITE }, ['inputs']],
      ['expect with checks', { ...withoutInputs, checks: SUITE, expect: 'x' }, ['expect']],
      ['neither inputs nor checks', withoutInputs, ['inputs']],
      ['a checks file that does not exist', { ...withoutInputs, checks: 'nope.yml' }, ['checks']],
      ['an invalid check', { ...withoutInputs, checks: '- name: a\n  inputs: {in-0: 1}' }, ['checks']],
      ['concurrency 0', { ...withoutInputs, checks: SUITE, concurrency: '0' }, ['concurrency']],
      ['concurrency 9', { ...withoutInputs, checks: SUITE, concurrency: '9' }, ['concurrency']],
      ['threshold 120%', { ...withoutInputs, checks: SUITE, threshold: '120%' }, ['threshold']],
      ['threshold as words', { ...withoutInputs, checks: SUITE, threshold: 'most' }, ['threshold']],
      ['repeat 0', { ...withoutInputs, checks: SUITE, repeat: '0' }, ['repeat']],
      ['repeat 11', { ...withoutInputs, checks: SUITE, repeat: '11' }, ['repeat']],
      [
        'min-pass above repeat',
        { ...withoutInputs, checks: SUITE, repeat: '2', 'min-pass': '3' },
        ['min-pass'],
      ],
      ['max-runs 0', { ...withoutInputs, checks: SUITE, 'max-runs': '0' }, ['max-runs']],
    ])('%s is a problem naming the input', (_, inputs, names) => {
      const error = configError(() => readRunConfig(reader(inputs), PUSH))
      expect(error.problems.map((p) => p.input)).toEqual(names)
    })

    test('repeat and min-pass: the suite inputs, read for every check', () => {
      const config = readRunConfig(
        reader({ ...withoutInputs, checks: SUITE, repeat: '3', 'min-pass': '2', 'max-runs': '3' }),
        PUSH,
      )
      expect([config.repeats, config.maxRuns]).toEqual([{ repeat: 3, minPass: 2 }, 3])
      expect(
        configError(() =>
          readRunConfig(reader({ ...withoutInputs, checks: SUITE, repeat: '2', 'min-pass': '3' }), PUSH),
        ).message,
      ).toBe('Input "min-pass" must not be more than "repeat" (2): 3 of 2 runs can never pass (got "3").')
    })

    test('a check whose own min-pass exceeds the suite repeat it takes is refused, naming check and field', () => {
      const checks = '- name: a\n  inputs: {in-0: q}\n- name: b\n  inputs: {in-0: r}\n  min-pass: 3\n'
      const error = configError(() => readRunConfig(reader({ ...withoutInputs, checks, repeat: '2' }), PUSH))
      expect(error.problems).toEqual([
        {
          input: 'checks',
          message:
            'Input "checks": check "b" (#2), field "min-pass": 3 is more than the 2 run(s) the check gets from ' +
            "the repeat input; set the check's repeat too.",
        },
      ])
    })

    test('max-runs refuses a suite whose checks and repeats exceed it, naming the numbers', () => {
      const checks =
        '- name: a\n  inputs: {in-0: q}\n- name: b\n  inputs: {in-0: r}\n  repeat: 5\n- name: c\n  inputs: {in-0: s}\n'
      const read = (extra: Record<string, string>) =>
        readRunConfig(reader({ ...withoutInputs, checks, repeat: '3', ...extra }), PUSH)
      expect(read({ 'max-runs': '11' }).checks).toHaveLength(3)
      const error = configError(() => read({ 'max-runs': '10' }))
      expect(error.problems.map((p) => p.input)).toEqual(['max-runs'])
      expect(error.message).toBe(
        'The checks would start 11 runs (3 checks, repeats included), more than "max-runs" allows (10); no run ' +
          'was started. Raise "max-runs", or lower "repeat" (or a check\'s repeat) or the number of checks.',
      )
    })

    test('a checks file missing from the workspace asks whether the job ran actions/checkout', () => {
      const error = configError(() =>
        readRunConfig(reader({ ...withoutInputs, checks: 'ci/checks.yml' }), PUSH),
      )
      expect(error.message).toMatch(
        /^Input "checks" names the file "ci\/checks.yml", which does not exist in the workspace .*: did the job run actions\/checkout before this step\?/,
      )
    })

    test('a check problem names the input, the file, the check and the field', () => {
      const workspace = makeWorkspace({ 'checks.yml': '- name: a\n  inputs: {in-0: q}\n  min-length: -1\n' })
      try {
        const error = configError(() =>
          readRunConfig(reader({ ...withoutInputs, checks: 'checks.yml' }), {
            ...PUSH,
            workspace: workspace.dir,
          }),
        )
        expect(error.message).toContain('Input "checks" (checks.yml): check "a" (#1), field "min-length"')
      } finally {
        workspace.remove()
      }
    })
  })

  test('reads output-key, expect and the retry settings', () => {
    const config = readRunConfig(
      reader({
        ...GOOD_RUN,
        'output-key': 'out-1',
        expect: '^Release \\d+',
        retries: '3',
        'retry-deadline': '30s',
      }),
      PUSH,
    )
    expect(config.outputKey).toBe('out-1')
    expect(config.expect?.test('Release 42 is out')).toBe(true)
    expect(config.expect?.test('nothing')).toBe(false)
    expect(config.retry).toEqual({ retries: 3, deadlineMs: 30_000 })
  })

  const bad: [string, Record<string, string | undefined>, string][] = [
    ['missing org-id', { 'org-id': undefined }, 'org-id'],
    ['missing flow-id', { 'flow-id': undefined }, 'flow-id'],
    ['bad flow-id', { 'flow-id': 'flow#1' }, 'flow-id'],
    ['missing inputs', { inputs: undefined }, 'inputs'],
    ['inputs bad JSON', { inputs: "{'in-0': 'q'}" }, 'inputs'],
    ['inputs a string', { inputs: '"q"' }, 'inputs'],
    ['inputs null', { inputs: 'null' }, 'inputs'],
    ['inputs with a non-string value', { inputs: '{"in-0": {"a": 1}}' }, 'inputs'],
    ['inputs with an array value', { inputs: '{"in-0": ["a"]}' }, 'inputs'],
    ['inputs an array', { inputs: '["in-0"]' }, 'inputs'],
    ['inputs empty object', { inputs: '{}' }, 'inputs'],
    ['expect that does not compile', { expect: '(unclosed' }, 'expect'],
    ['retries not a number', { retries: 'many' }, 'retries'],
    ['retry-deadline too long', { 'retry-deadline': '2h' }, 'retry-deadline'],
    ['base-url over http', { 'base-url': 'http://10.0.0.1' }, 'base-url'],
    ['public-key with a newline', { 'public-key': 'pk\npk' }, 'public-key'],
    ['empty public-key on push', { 'public-key': '' }, 'public-key'],
  ]

  test.each(bad)('%s: the error names the input', (_, change, input) => {
    const inputs: Record<string, string> = { ...GOOD_RUN }
    for (const [name, value] of Object.entries(change)) {
      if (value === undefined) delete inputs[name]
      else inputs[name] = value
    }
    const error = configError(() => readRunConfig(reader(inputs), PUSH))
    expect(error.problems.map((p) => p.input)).toEqual([input])
    expect(error.message).toContain(`"${input}"`)
  })

  test('a non-string value is named by its key', () => {
    const error = configError(() =>
      readRunConfig(reader({ ...GOOD_RUN, inputs: '{"in-0": "q", "in-1": 2}' }), PUSH),
    )
    expect(error.message).toContain('"in-1" is a number')
  })

  test('the compile message of a bad expect is shown', () => {
    const error = configError(() => readRunConfig(reader({ ...GOOD_RUN, expect: '[z-a]' }), PUSH))
    expect(error.message).toMatch(/Input "expect" must be a regular expression in RE2 syntax.*range/i)
  })

  test.each([
    ['a lookahead', 'days(?=!)'],
    ['a backreference', '(a)\\1'],
    ['an unclosed group', '(14 days'],
  ])('expect with %s is refused naming the input and RE2', (_, pattern) => {
    const error = configError(() => readRunConfig(reader({ ...GOOD_RUN, expect: pattern }), PUSH))
    expect(error.problems.map((p) => p.input)).toEqual(['expect'])
    expect(error.message).toContain('RE2')
  })

  test('expect is RE2: inline flags and classes work, a catastrophic pattern matches in linear time', () => {
    const config = readRunConfig(reader({ ...GOOD_RUN, expect: '(?i)^refunds?\\s+\\d+' }), PUSH)
    expect(config.expect?.matcher('Refund 14 days').find()).toBe(true)
    const catastrophic = readRunConfig(reader({ ...GOOD_RUN, expect: '(a+)+$' }), PUSH).expect!
    expect(catastrophic.matcher(`${'a'.repeat(100_000)}!`).find()).toBe(false)
  })

  test('run-timeout and retry-on-server-error are read and checked', () => {
    const config = readRunConfig(
      reader({ ...GOOD_RUN, 'run-timeout': '2m', 'retry-on-server-error': 'true' }),
      PUSH,
    )
    expect([config.runTimeoutMs, config.retryOnServerError]).toEqual([120_000, true])
    const error = configError(() =>
      readRunConfig(reader({ ...GOOD_RUN, 'run-timeout': '0', 'retry-on-server-error': 'maybe' }), PUSH),
    )
    expect(error.problems.map((p) => p.input).sort()).toEqual(['retry-on-server-error', 'run-timeout'])
  })

  test('an empty public key in a pull request skips the run', () => {
    const config = readRunConfig(reader({ ...GOOD_RUN, 'public-key': '' }), PULL_REQUEST)
    expect(config.skip).toMatch(/no public key in this pull request/i)
  })

  test.each(['pull_request_target', 'workflow_run'])('running a flow under %s is allowed', (eventName) => {
    expect(readRunConfig(reader(GOOD_RUN), { eventName }).skip).toBeUndefined()
  })

  test('a key is never shown in the error', () => {
    const error = configError(() =>
      readRunConfig(reader({ ...GOOD_RUN, 'public-key': 'pk-Hidden Value' }), PUSH),
    )
    expect(error.message).not.toContain('Hidden')
  })
})

describe.each([
  {
    reader: readIndexConfig,
    names: INDEX_INPUTS,
    good: { ...GOOD_INDEX, 'public-key': PUBLIC_KEY, 'flow-inputs': '{"a": "b"}' },
  },
  { reader: readRunConfig, names: RUN_INPUTS, good: { ...GOOD_RUN, expect: 'x' } },
])('the input lists', ({ reader: readConfig, names, good }) => {
  test(`${readConfig.name} reads exactly the inputs it declares`, () => {
    const read = new Set<string>()
    readConfig((name) => {
      read.add(name)
      return good[name as keyof typeof good] ?? ''
    }, PUSH)
    expect([...read].sort()).toEqual([...names].sort())
  })
})
