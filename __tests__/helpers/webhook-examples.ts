// Real webhook payloads, as GitHub sends them, from @octokit/webhooks-examples.
import { createRequire } from 'node:module'

type Payload = Record<string, unknown>

const definitions = createRequire(import.meta.url)(
  '@octokit/webhooks-examples/api.github.com/index.json',
) as {
  name: string
  examples: Payload[]
}[]

/** Every example payload of an event (`push`, `workflow_dispatch`, …). */
export function webhookExamples(event: string): Payload[] {
  const definition = definitions.find((candidate) => candidate.name === event)
  if (!definition) throw new Error(`@octokit/webhooks-examples has no "${event}" event`)
  return definition.examples
}

/** The `pull_request` payload of an action (`opened`, `synchronize`, …): shared, clone before changing it. */
export function pullRequestExample(action: string): Payload {
  const payload = webhookExamples('pull_request').find((example) => example.action === action)
  if (!payload) throw new Error(`@octokit/webhooks-examples has no pull_request "${action}" payload`)
  return payload
}
