// The suite's scratch folder (globalSetup): in memory when the machine has /dev/shm as tmpfs, removed at
// the end, a TMPDIR set by whoever runs the tests left alone, and folders of killed runs cleaned up.
import { describe, expect, it } from '@jest/globals'
import { existsSync, mkdirSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { inMemory, openScratchFolder, SCRATCH_VARIABLE } from './setup/test-processes-env.js'
import { closeScratchFolder } from './setup/test-processes-teardown.js'

const memory = inMemory('/dev/shm')

describe('the scratch folder', () => {
  it(
    memory
      ? 'is a new folder in /dev/shm open to every user, removed at the end'
      : 'falls back to the system temp folder without tmpfs at /dev/shm',
    () => {
      const env: NodeJS.ProcessEnv = {}
      const folder = openScratchFolder(env)
      if (!memory) {
        expect(folder).toBeUndefined()
        expect(env).toEqual({})
        return
      }
      expect(folder).toMatch(new RegExp(`^/dev/shm/kb-sync-tests-${process.pid}-`))
      expect(env.TMPDIR).toBe(folder)
      expect(env[SCRATCH_VARIABLE]).toBe(folder)
      expect(statSync(folder!).mode & 0o7777).toBe(0o1777)
      closeScratchFolder(env)
      expect(existsSync(folder!)).toBe(false)
      expect(env).toEqual({})
    },
  )

  it('leaves a TMPDIR that is already set, and removes nothing at the end', () => {
    const env: NodeJS.ProcessEnv = { TMPDIR: tmpdir() }
    expect(openScratchFolder(env)).toBeUndefined()
    closeScratchFolder(env)
    expect(env).toEqual({ TMPDIR: tmpdir() })
    expect(existsSync(tmpdir())).toBe(true)
  })

  it('the suite itself runs in it when /dev/shm is tmpfs, unless whoever runs it set TMPDIR', () => {
    const scratch = process.env[SCRATCH_VARIABLE]
    if (scratch === undefined) {
      // No folder made: no tmpfs, or a TMPDIR of the caller's own (kept, so not the setup's folder).
      if (memory) expect(tmpdir()).not.toMatch(/^\/dev\/shm\/kb-sync-tests-/)
      return
    }
    expect(tmpdir()).toBe(scratch)
    expect(inMemory(scratch)).toBe(true)
  })

  if (memory) {
    it("removes the folder of a run that no longer runs, never a running one's", () => {
      // Pids are below 2^22 on Linux: this one runs nothing.
      const abandoned = '/dev/shm/kb-sync-tests-4194305-test'
      const live = `/dev/shm/kb-sync-tests-${process.pid}-live`
      mkdirSync(abandoned, { recursive: true })
      mkdirSync(live, { recursive: true })
      const env: NodeJS.ProcessEnv = {}
      try {
        openScratchFolder(env)
        expect(existsSync(abandoned)).toBe(false)
        expect(existsSync(live)).toBe(true)
      } finally {
        closeScratchFolder(env)
        closeScratchFolder({ [SCRATCH_VARIABLE]: live, TMPDIR: live })
      }
    })
  }
})
