// Runs git with argument arrays, never through a shell: commit ids come from the event payload and
// paths may contain anything, so nothing is ever interpolated into a command line.
import { spawn } from 'node:child_process'

export interface GitResult {
  exitCode: number
  stdout: string
  /** Standard output as git wrote it: paths in -z output are bytes, not necessarily UTF-8. */
  stdoutBytes: Buffer
  stderr: string
}

export class GitError extends Error {
  constructor(
    readonly args: string[],
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    // A remote URL may carry credentials (https://user:token@host/...): they never reach a message.
    const lastLines = stderr
      .trim()
      .split('\n')
      .slice(-3)
      .join(' ')
      .replace(/\/\/[^/@\s]+@/g, '//***@')
    const detail = lastLines || `exit code ${exitCode}`
    super(`git ${args[0] ?? ''} failed: ${detail}`)
    this.name = 'GitError'
  }
}

// Variables that would point git at another repository than the working directory's (they are set,
// for example, when the action runs inside a git hook).
const REPOSITORY_OVERRIDES = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_COMMON_DIR',
  'GIT_NAMESPACE',
]

function gitEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const name of REPOSITORY_OVERRIDES) delete env[name]
  // A job has no one to answer a credential prompt: fail instead of hanging.
  env.GIT_TERMINAL_PROMPT = '0'
  env.GCM_INTERACTIVE = 'never'
  // English messages in logs (with -z, paths are raw bytes whatever the locale).
  env.LC_ALL = 'C'
  return env
}

// Process groups are POSIX; on Windows git is killed alone.
const OWN_PROCESS_GROUP = process.platform !== 'win32'

export interface GitRunOptions {
  /** Kill git after this long (a fetch over a slow network). */
  timeoutMs?: number
  /** Kill git on cancellation; the call then rejects with the signal's reason. */
  signal?: AbortSignal
  /** Standard output's chunks as they come, not kept (the result's stdout is then empty). */
  onStdout?: (chunk: Buffer) => void
  /** Written to git's standard input, which is then closed (without it git reads nothing there). */
  input?: string
}

export class Git {
  constructor(readonly workingDirectory: string) {}

  /**
   * Runs git and resolves with its exit code; rejects when git cannot be started, or with the signal's
   * reason on cancellation.
   */
  run(args: string[], options: GitRunOptions = {}): Promise<GitResult> {
    return new Promise((resolve, reject) => {
      const { signal } = options
      if (signal?.aborted) return reject(signal.reason)
      const child = spawn('git', args, {
        cwd: this.workingDirectory,
        env: gitEnvironment(),
        stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
        // Its own process group, so that a kill reaches what git started too (upload-pack, ssh, a remote
        // helper): git does not end them when it is killed, and they would hold the network and our pipes.
        detached: OWN_PROCESS_GROUP,
        windowsHide: true,
      })
      const kill = () => {
        try {
          if (OWN_PROCESS_GROUP && child.pid !== undefined) process.kill(-child.pid, 'SIGTERM')
          else child.kill('SIGTERM')
        } catch {
          // Already ended.
        }
      }
      if (options.input !== undefined) {
        // git may end before it has read everything (its exit code tells): a closed pipe is no error here.
        child.stdin!.on('error', () => {})
        child.stdin!.end(options.input)
      }
      const timer = options.timeoutMs === undefined ? undefined : setTimeout(kill, options.timeoutMs)
      const onAbort = () => {
        kill()
        child.stdout!.destroy()
        child.stderr!.destroy()
        reject(signal!.reason)
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      const stdout: Buffer[] = []
      const stderr: Buffer[] = []
      const onChunk = options.onStdout
      child.stdout!.on('data', (chunk: Buffer) => {
        if (!onChunk) return void stdout.push(chunk)
        try {
          onChunk(chunk)
        } catch (error) {
          kill()
          reject(error)
        }
      })
      child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk))
      child.on('error', reject)
      child.on('close', (code, killedBy) => {
        clearTimeout(timer)
        signal?.removeEventListener('abort', onAbort)
        const stdoutBytes = Buffer.concat(stdout)
        // Made when asked: a listing of 100,000 files read as bytes is not also copied into a string.
        let text: string | undefined
        resolve({
          exitCode: code ?? (killedBy ? 128 : 1),
          get stdout() {
            return (text ??= stdoutBytes.toString('utf8'))
          },
          stdoutBytes,
          stderr: Buffer.concat(stderr).toString('utf8'),
        })
      })
    })
  }

  /**
   * Runs git and hands its standard output to `onChunk` as it comes, without keeping it (a listing of
   * 100,000 files is ~7 MB); a non-zero exit is a GitError. An error thrown by `onChunk` ends git and
   * rejects with it.
   */
  async eachChunk(
    args: string[],
    onChunk: (chunk: Buffer) => void,
    options: Omit<GitRunOptions, 'onStdout'> = {},
  ): Promise<void> {
    const result = await this.run(args, { ...options, onStdout: onChunk })
    if (result.exitCode !== 0) throw new GitError(args, result.exitCode, result.stderr)
  }

  /** Runs git and returns its standard output; a non-zero exit is a GitError. */
  async exec(args: string[], options: GitRunOptions = {}): Promise<string> {
    const result = await this.run(args, options)
    if (result.exitCode !== 0) throw new GitError(args, result.exitCode, result.stderr)
    return result.stdout
  }

  /** Runs git and returns its standard output as bytes; a non-zero exit is a GitError. */
  async execBytes(args: string[], options: GitRunOptions = {}): Promise<Buffer> {
    const result = await this.run(args, options)
    if (result.exitCode !== 0) throw new GitError(args, result.exitCode, result.stderr)
    return result.stdoutBytes
  }

  /**
   * The contents of the blobs these object names name (`<commit>:<path>`; a path starting with `./` is
   * relative to the working directory), by name, from one git process. A name that is missing or names no
   * blob is left out; so is one holding a line break, which git's batch input cannot carry, and every name
   * when git fails.
   */
  async blobs(
    names: readonly string[],
    options: Omit<GitRunOptions, 'input' | 'onStdout'> = {},
  ): Promise<Map<string, Buffer>> {
    const asked = names.filter((name) => !/[\r\n]/.test(name))
    const found = new Map<string, Buffer>()
    if (asked.length === 0) return found
    const input = asked.map((name) => `${name}\n`).join('')
    const result = await this.run(['cat-file', '--batch'], { ...options, input })
    if (result.exitCode !== 0) return found
    const out = result.stdoutBytes
    // Per name, in order: `<id> <type> <size>`, a line break, the content and a line break; or
    // `<name> missing` (or `ambiguous`), whose last word is no size.
    let at = 0
    for (const name of asked) {
      const end = out.indexOf(0x0a, at)
      if (end < 0) break
      const header = out.toString('utf8', at, end).split(' ')
      at = end + 1
      const size = Number(header.at(-1))
      if (header.length !== 3 || !Number.isSafeInteger(size)) continue
      if (header[1] === 'blob') found.set(name, out.subarray(at, at + size))
      at += size + 1
    }
    return found
  }

  /** The top folder of the working tree that contains the working directory (a GitError outside one). */
  async topLevel(): Promise<string> {
    return (await this.exec(['rev-parse', '--show-toplevel'])).replace(/\n$/, '')
  }

  /** Whether the commit's object is in the local repository. */
  async hasCommit(sha: string): Promise<boolean> {
    const result = await this.run(['cat-file', '-e', `${sha}^{commit}`])
    return result.exitCode === 0
  }

  /**
   * Which of these commit ids (full ids, not refs) the local repository holds: one git process for all;
   * when git fails, each is asked on its own.
   */
  async presentCommits(ids: readonly string[]): Promise<Set<string>> {
    const result = await this.run([
      'rev-list',
      '--no-walk',
      '--ignore-missing',
      ...ids.map((id) => `${id}^{commit}`),
    ])
    if (result.exitCode === 0) {
      // git prints ids in small letters.
      const listed = new Set(result.stdout.split('\n'))
      return new Set(ids.filter((id) => listed.has(id.toLowerCase())))
    }
    const present = new Set<string>()
    for (const id of ids) if (await this.hasCommit(id)) present.add(id)
    return present
  }

  /** The commit id a ref (branch, tag, `HEAD~2`, commit id) names, or undefined when it names none. */
  async resolveCommit(ref: string): Promise<string | undefined> {
    const result = await this.run(['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`])
    return result.exitCode === 0 ? result.stdout.trim() : undefined
  }

  /** The best common ancestor of two commits, or undefined when there is none in the local history. */
  async mergeBase(a: string, b: string): Promise<string | undefined> {
    const result = await this.run(['merge-base', '--end-of-options', a, b])
    return result.exitCode === 0 ? result.stdout.trim() : undefined
  }

  /** The committer time of a commit (`%cI`), or undefined when the commit is not in the repository. */
  async commitTime(sha: string): Promise<Date | undefined> {
    const result = await this.run(['show', '-s', '--format=%cI', '--end-of-options', `${sha}^{commit}`])
    const time = result.exitCode === 0 ? new Date(result.stdout.trim()) : undefined
    return time && !Number.isNaN(time.getTime()) ? time : undefined
  }

  async isShallow(): Promise<boolean> {
    return (await this.exec(['rev-parse', '--is-shallow-repository'])).trim() === 'true'
  }

  /**
   * Fetches one commit with the remote's configured credentials, no tags. A shallow clone gets only
   * that commit; a complete one gets its history too, so it does not become shallow.
   */
  async fetchCommit(remote: string, sha: string, options: GitRunOptions = {}): Promise<void> {
    const depth = (await this.isShallow()) ? ['--depth=1'] : []
    await this.exec(['fetch', '--no-tags', '--no-recurse-submodules', ...depth, remote, sha], options)
  }

  /**
   * The tree difference between two commits as `--raw -z` bytes: modes show submodules (gitlinks,
   * mode 160000) and paths stay the bytes git stores, whatever their encoding. The plumbing command
   * ignores user configuration such as colour or external diff drivers.
   */
  async diffRaw(before: string, after: string): Promise<Buffer> {
    return this.execBytes(['diff-tree', '-r', '--raw', '--no-renames', '--no-abbrev', '-z', before, after])
  }

  /** Every entry of a commit's tree as `ls-tree -r -z` bytes (submodules appear as one gitlink entry). */
  async listTree(commit: string): Promise<Buffer> {
    return this.execBytes(['ls-tree', '-r', '-z', '--full-tree', commit])
  }

  /** The working tree of the superproject when this checkout is a submodule's, else undefined. */
  async superproject(): Promise<string | undefined> {
    const top = (await this.exec(['rev-parse', '--show-superproject-working-tree'])).replace(/\n$/, '')
    return top === '' ? undefined : top
  }
}
