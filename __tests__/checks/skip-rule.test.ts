// The skip rule of the run-flow action (documents-changed) as a pure decision, and the inputs it reads.
import { describe, expect, it } from '@jest/globals'
import {
  checksFiles,
  checksFilesChange,
  decideSkip,
  documentsAllowSkip,
  workspaceName,
} from '../../src/checks/skip-rule.js'
import { ConfigError } from '../../src/config/errors.js'
import { readRunConfig } from '../../src/config/run.js'
import type { ChangeDecision } from '../../src/model.js'
import type { Check } from '../../src/checks/schema.js'
import { makeWorkspace } from '../helpers/workspace.js'

const changes = (names: Partial<Record<'added' | 'modified' | 'removed', string[]>>, under?: string[]) =>
  ({
    kind: 'changes',
    source: 'git-diff',
    added: names.added ?? [],
    modified: names.modified ?? [],
    removed: names.removed ?? [],
    ...(under ? { everythingUnder: under } : {}),
  }) satisfies ChangeDecision

describe('documentsAllowSkip', () => {
  it('only a pull_request event whose pull request changes no selected document', () => {
    expect(documentsAllowSkip('pull_request', 0)).toBe(true)
    expect(documentsAllowSkip('pull_request', 1)).toBe(false)
    expect(documentsAllowSkip('pull_request', undefined)).toBe(false)
    for (const event of ['push', 'pull_request_target', 'workflow_dispatch', ''])
      expect(documentsAllowSkip(event, 0)).toBe(false)
  })
})

describe('checksFilesChange', () => {
  it('finds the checks file among added, modified and removed names, as the input spells it', () => {
    for (const kind of ['added', 'modified', 'removed'] as const)
      expect(checksFilesChange(changes({ [kind]: ['ci/checks.yml'] }), ['./ci/checks.yml'])).toEqual({
        known: true,
        changed: ['./ci/checks.yml'],
      })
    expect(
      checksFilesChange(changes({ modified: ['ci/other.yml', 'docs/a.md'] }), ['ci/checks.yml']),
    ).toEqual({ known: true, changed: [] })
    expect(checksFilesChange({ kind: 'none', reason: 'nothing' }, ['ci/checks.yml'])).toEqual({
      known: true,
      changed: [],
    })
  })

  it('names each of the files that changed: the checks file, a schema file, both', () => {
    const files = ['ci/checks.yml', 'ci/answer.schema.json']
    expect(checksFilesChange(changes({ modified: ['ci/answer.schema.json'] }), files)).toEqual({
      known: true,
      changed: ['ci/answer.schema.json'],
    })
    expect(
      checksFilesChange(changes({ added: ['ci/answer.schema.json'], removed: ['ci/checks.yml'] }), files),
    ).toEqual({ known: true, changed: files })
  })

  it('a folder whose changes are unknown counts as changing the files below it', () => {
    expect(checksFilesChange(changes({}, ['ci']), ['ci/checks.yml'])).toEqual({
      known: true,
      changed: ['ci/checks.yml'],
    })
    expect(checksFilesChange(changes({}, ['ci-other']), ['ci/checks.yml'])).toEqual({
      known: true,
      changed: [],
    })
  })

  it('an unknown change set is unknown, with its reason', () => {
    expect(
      checksFilesChange({ kind: 'all', source: 'full-sync', reason: 'no github-token' }, ['ci/checks.yml']),
    ).toEqual({ known: false, why: 'no github-token' })
  })

  it('names are compared as change detection gives them', () => {
    expect(workspaceName('./ci//checks.yml')).toBe('ci/checks.yml')
    expect(workspaceName('ci\\checks.yml')).toBe('ci/checks.yml')
  })
})

describe('checksFiles', () => {
  const schema = (file?: string) => ({ jsonSchema: { validate: () => true, file } }) as unknown as Check

  it('the checks file, then each schema file a check names, once each', () => {
    expect(
      checksFiles('ci/checks.yml', [schema('ci/a.json'), schema(), schema('./ci/a.json'), schema('b.json')]),
    ).toEqual(['ci/checks.yml', 'ci/a.json', 'b.json'])
  })

  it('inline checks read only their schema files; one question reads none', () => {
    expect(checksFiles(undefined, [schema('ci/a.json')])).toEqual(['ci/a.json'])
    expect(checksFiles(undefined)).toEqual([])
  })
})

describe('decideSkip', () => {
  it('without a file the checks read (one question, inline checks) the documents decide alone', () => {
    expect(decideSkip('Flow run')).toEqual({
      skip: true,
      reason:
        'Flow run skipped: this pull request changes none of the selected documents; the last result still ' +
        'holds for the documents it measured.',
    })
  })

  it('skips when the checks file is unchanged, naming it', () => {
    const decision = decideSkip('Flow checks', ['ci/checks.yml'], { known: true, changed: [] })
    expect(decision).toEqual({
      skip: true,
      reason: expect.stringMatching(
        /^Flow checks skipped: this pull request changes none of the selected documents nor ci\/checks\.yml; /,
      ),
    })
  })

  it('skips when none of the files is changed, naming each', () => {
    const files = ['ci/checks.yml', 'ci/a.json', 'ci/b.json']
    expect(decideSkip('Flow checks', files, { known: true, changed: [] })).toMatchObject({
      skip: true,
      reason: expect.stringContaining(
        'changes none of the selected documents nor ci/checks.yml, ci/a.json or ci/b.json;',
      ),
    })
  })

  it('runs when the checks file changed', () => {
    expect(decideSkip('Flow checks', ['ci/checks.yml'], { known: true, changed: ['ci/checks.yml'] })).toEqual(
      {
        skip: false,
        why: 'Flow checks not skipped: this pull request changes none of the selected documents, but it changes ci/checks.yml.',
      },
    )
  })

  it('runs when a schema file changed, naming the files that did', () => {
    const files = ['ci/checks.yml', 'ci/a.json', 'ci/b.json']
    expect(decideSkip('Flow checks', files, { known: true, changed: ['ci/a.json', 'ci/b.json'] })).toEqual({
      skip: false,
      why: 'Flow checks not skipped: this pull request changes none of the selected documents, but it changes ci/a.json and ci/b.json.',
    })
  })

  it('runs, saying why, when whether the checks file changed is unknown', () => {
    expect(decideSkip('Flow checks', ['ci/checks.yml'], { known: false, why: 'no github-token' })).toEqual({
      skip: false,
      unknown: true,
      why: expect.stringContaining('whether it changes ci/checks.yml is unknown (no github-token)'),
    })
    expect(
      decideSkip('Flow checks', ['ci/checks.yml', 'ci/a.json'], { known: false, why: 'no github-token' }),
    ).toMatchObject({
      why: expect.stringContaining('whether it changes ci/checks.yml or ci/a.json is unknown'),
    })
  })
})

describe('documents-changed and the checks file in the run config', () => {
  const base = { 'org-id': 'org-1', 'flow-id': 'flow-1', 'public-key': 'pk-public-Canary0123456789' }
  const SUITE = '- name: refunds\n  inputs: {in-0: refunds?}\n  contains: 14 days\n'
  const read = (inputs: Record<string, string>, workspace?: string) =>
    readRunConfig((name) => ({ ...base, ...inputs })[name as keyof typeof base]?.trim() ?? '', {
      eventName: 'pull_request',
      workspace,
    })

  it('empty is unknown; a whole number is read', () => {
    expect(read({ inputs: '{"in-0": "x"}' }).documentsChanged).toBeUndefined()
    expect(read({ inputs: '{"in-0": "x"}', 'documents-changed': '0' }).documentsChanged).toBe(0)
    expect(read({ inputs: '{"in-0": "x"}', 'documents-changed': ' 12 ' }).documentsChanged).toBe(12)
  })

  it.each(['-1', '1.5', 'none', 'true', 'yes', '1e3', '99999999999999999999'])(
    '"%s" is refused by name',
    (value) => {
      let error: unknown
      try {
        read({ inputs: '{"in-0": "x"}', 'documents-changed': value })
      } catch (caught) {
        error = caught
      }
      expect(error).toBeInstanceOf(ConfigError)
      expect((error as ConfigError).problems).toEqual([
        {
          input: 'documents-changed',
          message: `Input "documents-changed" must be empty (unknown) or a whole number of 0 or more, such as the index step's "pull-request-changed" output (got "${value}").`,
        },
      ])
    },
  )

  it('the checks file is kept when checks names one, not for inline checks', () => {
    const workspace = makeWorkspace({ 'ci/checks.yml': SUITE })
    try {
      expect(read({ checks: 'ci/checks.yml' }, workspace.dir).checksFile).toBe('ci/checks.yml')
      expect(read({ checks: SUITE }, workspace.dir).checksFile).toBeUndefined()
      expect(read({ inputs: '{"in-0": "x"}' }, workspace.dir).checksFile).toBeUndefined()
    } finally {
      workspace.remove()
    }
  })
})
