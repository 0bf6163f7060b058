// What the bundles load for `import … from 'undici'` (tsconfig.json "paths"; ncc resolves every importer's
// 'undici', ours and @actions/*'s, through it). undici's root module evaluates all of undici at start: fetch,
// cookies (which wakes Node's own copy of undici), cache, WebSocket, mocks: ~28 ms of every run's start-up
// for an action that needs only an Agent (bench/README.md). This module hands out the three things the
// bundles use: Agent (src/service/client.ts), ProxyAgent (@actions/http-client) and fetch (@actions/github,
// loaded on its first call). Its types are undici's own. Jest does not read "paths": the unit tests run
// undici's root; the end-to-end tests run the bundles, through a proxy too.
import type * as Undici from 'undici/index.js'
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js'
import api from 'undici/lib/api/index.js'
import AgentModule from 'undici/lib/dispatcher/agent.js'
import ProxyAgentModule from 'undici/lib/dispatcher/proxy-agent.js'

export type * from 'undici/index.js'

// undici's root adds request(), stream(), pipeline(), connect() and upgrade() to every dispatcher the same way.
Object.assign(Dispatcher.prototype, api)

export const Agent = AgentModule as typeof Undici.Agent
export type Agent = Undici.Agent
export const ProxyAgent = ProxyAgentModule as typeof Undici.ProxyAgent
export type ProxyAgent = Undici.ProxyAgent

let fetchModule: { fetch: typeof Undici.fetch } | undefined

export const fetch: typeof Undici.fetch = async (input, init) => {
  // Its own chunk (~180 KB of undici's web layer): only octokit calls fetch, and kept in a bundle's main
  // file it would be compiled at every start (src/jobs/index-job.ts, decideChanges).
  fetchModule ??= (await import('undici/lib/web/fetch/index.js')) as {
    fetch: typeof Undici.fetch
  }
  return fetchModule.fetch(input, init)
}
