// `kb-sync serve`: the emulator of the service, in a module of its own so that it starts without the
// pipelines' code (ready in ~0.11 s of CPU instead of ~0.22: CONTRIBUTING, "Where the suite's time goes").
import { randomBytes } from 'node:crypto'
import { startEmulator } from '../emulator/server.js'
import type { KnowledgeBaseId } from '../emulator/store.js'
import { consoleSink, Logger } from '../log.js'
import { reportError } from './console.js'
import { EXIT_FAILURE, EXIT_USAGE, UsageError } from './errors.js'

export interface ServeFlags {
  port: number
  host: string
  dataDir?: string
  privateKey?: string
  publicKey?: string
  latency?: number
  faultRate?: number
  seed?: number
  missRate?: number
  /** Seconds. */
  indexDelay?: number
  flow?: KnowledgeBaseId[]
  judgeFlow?: string[]
}

export async function serveCommand(flags: ServeFlags): Promise<void> {
  const log = new Logger(consoleSink())
  const generated = (env: string) => process.env[env] || randomBytes(18).toString('base64url')
  const privateKey = flags.privateKey ?? generated('KB_SYNC_PRIVATE_KEY')
  const publicKey = flags.publicKey ?? generated('KB_SYNC_PUBLIC_KEY')
  if (privateKey === publicKey) {
    reportError(
      log,
      new UsageError('--public-key must differ from --private-key (the keys tell the operations apart).'),
    )
    return
  }
  let emulator: Awaited<ReturnType<typeof startEmulator>>
  try {
    emulator = await startEmulator({
      port: flags.port,
      host: flags.host,
      dataDir: flags.dataDir,
      privateKey,
      publicKey,
      latencyMs: flags.latency,
      faultRate: flags.faultRate,
      seed: flags.seed,
      missRate: flags.missRate,
      indexDelayMs: flags.indexDelay === undefined ? undefined : flags.indexDelay * 1000,
      flows: flags.flow,
      judgeFlows: flags.judgeFlow,
    })
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? ` (${String(error.code)})` : ''
    const message = error instanceof Error ? error.message : String(error)
    log.error(`cannot start the emulator on ${flags.host}:${flags.port}${code}: ${message}`)
    process.exitCode = code ? EXIT_FAILURE : EXIT_USAGE
    return
  }
  // The emulator's keys are local, made-up keys: printing them is how a person uses the emulator.
  if (!process.env.KB_SYNC_PRIVATE_KEY && flags.privateKey === undefined)
    log.info(`private key: ${privateKey}`)
  if (!process.env.KB_SYNC_PUBLIC_KEY && flags.publicKey === undefined) log.info(`public key: ${publicKey}`)
  log.info(`data directory: ${emulator.dataDir}`)
  if (flags.indexDelay) log.info(`index delay: ${flags.indexDelay} s after each upload or update`)
  if (flags.flow) log.info(`flows: ${flags.flow.map((f) => `${f.orgId}/${f.flowId}/${f.nodeId}`).join(', ')}`)
  if (flags.judgeFlow) log.info(`judge flows: ${flags.judgeFlow.join(', ')}`)
  process.stdout.write(`${emulator.url}\n`)
  const stop = () => void emulator.close().then(() => process.exit(0))
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
}
