// The built run-flow action reads a flow's answer as it streams in: its peak memory (maximum resident set,
// measured in the action's own process, see helpers/peak-rss.ts) is about the same for a 200 MB answer as for a 20 MB
// one. The answers hold one huge named output and many 1 MB strings, streamed with backpressure.
import { once } from 'node:events'
import { describe, expect, it } from '@jest/globals'
import { peakRss } from '../helpers/peak-rss.js'
import { runAction } from '../helpers/run-action.js'
import { startRecordingServer, type RecordingServer, type Responder } from '../helpers/recording-server.js'

const MB = 1024 * 1024
const ids = { 'flow-id': '65f0c0ffee0000000000beef', 'org-id': 'b2a1c3d4-0000-4000-8000-000000000001' }

/** An answer of about `megabytes` MB: half in the named output, half in 1 MB strings of another output. */
function answerOf(megabytes: number): Responder {
  const block = Buffer.alloc(MB, 'refund policy ')
  return (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' })
    void (async () => {
      const write = async (chunk: Buffer | string) => {
        if (!response.write(chunk)) await once(response, 'drain')
      }
      await write('{"outputs": {"out-0": "')
      for (let i = 0; i < megabytes / 2; i++) await write(block)
      await write('", "out-1": [')
      for (let i = 0; i < megabytes / 2; i++) {
        await write(i === 0 ? '"' : ', "')
        await write(block)
        await write('"')
      }
      response.end('], "out-2": 0.5}, "run_id": "run-1", "state": "COMPLETED", "error": null, "pause": null}')
    })()
  }
}

async function peakOf(megabytes: number): Promise<{ peakKb: number; outputs: Record<string, string> }> {
  const service: RecordingServer = await startRecordingServer(answerOf(megabytes))
  const peak = peakRss()
  try {
    const run = await runAction({
      action: 'run-flow/action.yml',
      inputs: {
        'base-url': service.url,
        ...ids,
        'public-key': 'pub-memory-0123456789',
        inputs: '{"in-0": "q"}',
      },
      env: peak.env,
    })
    if (run.status !== 0) console.log(run.stdout, run.stderr.slice(0, 3000))
    expect(run.status).toBe(0)
    expect(service.requests).toHaveLength(1)
    return { peakKb: peak.kilobytes(), outputs: run.outputs }
  } finally {
    peak.remove()
    await service.close()
  }
}

describe('run-flow memory', () => {
  it('peaks about as high for a 200 MB answer as for a 20 MB one', async () => {
    const small = await peakOf(20)
    const large = await peakOf(200)
    // Reported by the test run (README quotes these numbers).
    process.stdout.write(
      `run-flow peak RSS: 20 MB answer ${small.peakKb} kB, 200 MB answer ${large.peakKb} kB\n`,
    )
    expect(large.peakKb).toBeLessThan(small.peakKb * 1.5 + 20 * 1024)
    for (const { outputs } of [small, large]) {
      for (const name of ['result', 'response', 'outputs'])
        expect(Buffer.byteLength(outputs[name])).toBeLessThan(MB)
    }
    // Cut twice: to 900 KiB on arrival, then to the step's outputs budget; the note names the whole answer.
    expect(large.outputs.result).toMatch(
      /characters of an output of 104,857,600 bytes are kept; the file named by the "results-file" output holds its first [\d,]+ bytes\]$/,
    )
    const out1 = (JSON.parse(large.outputs.outputs) as { 'out-1': string[] })['out-1']
    expect(out1).toHaveLength(100)
    expect(out1[99]).toMatch(/of 1,048,576 characters removed\]$/)
  }, 300_000)
})
