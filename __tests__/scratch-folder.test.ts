// The suite's scratch folder (globalSetup): in memory when the machine has /dev/shm as tmpfs, removed at
// the end, a TMPDIR set by whoever runs the tests left alone, and folders of killed runs cleaned up. And
// the compile cache the processes it starts share, the action bundles included.
import { describe, expect, it } from '@jest/globals'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import module from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { inheritedEnv } from './helpers/inherited-env.js'
import { runAction } from './helpers/run-action.js'
import {
  COMPILE_CACHE_VARIABLE,
  inMemory,
  openCompileCache,
  openScratchFolder,
  SCRATCH_VARIABLE,
} from './setup/test-processes-env.js'
import { closeCompileCache, closeScratchFolder } from './setup/test-processes-teardown.js'

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

describe('the compile cache', () => {
  it('is a new folder in the temp folder, removed at the end', () => {
    const temp = mkdtempSync(join(tmpdir(), 'kb-sync-cache-test-'))
    try {
      const env: NodeJS.ProcessEnv = { TMPDIR: temp }
      const folder = openCompileCache(env)
      expect(folder).toMatch(new RegExp(`^${temp}/kb-sync-compile-cache-`))
      expect(env).toEqual({ TMPDIR: temp, NODE_COMPILE_CACHE: folder, [COMPILE_CACHE_VARIABLE]: folder })
      expect(existsSync(folder!)).toBe(true)
      closeCompileCache(env)
      expect(existsSync(folder!)).toBe(false)
      expect(env).toEqual({ TMPDIR: temp })
    } finally {
      rmSync(temp, { recursive: true, force: true })
    }
  })

  it('leaves a NODE_COMPILE_CACHE that is already set, and removes nothing at the end', () => {
    const env: NodeJS.ProcessEnv = { NODE_COMPILE_CACHE: tmpdir() }
    expect(openCompileCache(env)).toBeUndefined()
    closeCompileCache(env)
    expect(env).toEqual({ NODE_COMPILE_CACHE: tmpdir() })
    expect(existsSync(tmpdir())).toBe(true)
  })

  it("reaches the bundles, which are started with the runner's variables only", () => {
    const saved = process.env.NODE_COMPILE_CACHE
    try {
      process.env.NODE_COMPILE_CACHE = '/cache/of/the/suite'
      expect(inheritedEnv()).toMatchObject({ NODE_COMPILE_CACHE: '/cache/of/the/suite' })
      delete process.env.NODE_COMPILE_CACHE
      expect(inheritedEnv()).not.toHaveProperty('NODE_COMPILE_CACHE')
    } finally {
      if (saved === undefined) delete process.env.NODE_COMPILE_CACHE
      else process.env.NODE_COMPILE_CACHE = saved
    }
  })

  // Node 20 has no compile cache: there the variable changes nothing, and nothing is written.
  if (typeof module.enableCompileCache === 'function') {
    it('holds the code of a bundle the suite ran', async () => {
      const saved = process.env.NODE_COMPILE_CACHE
      const folder = mkdtempSync(join(tmpdir(), 'kb-sync-cache-test-'))
      try {
        process.env.NODE_COMPILE_CACHE = folder
        // No inputs: the action stops at its first check, after Node compiled its index.js.
        const run = await runAction({ action: 'action.yml', inputs: {} })
        expect(run.status).toBe(1)
        expect(readdirSync(folder, { recursive: true }).length).toBeGreaterThan(0)
      } finally {
        if (saved === undefined) delete process.env.NODE_COMPILE_CACHE
        else process.env.NODE_COMPILE_CACHE = saved
        rmSync(folder, { recursive: true, force: true })
      }
    })
  }
})
