// undici's internal modules, loaded by src/net/undici-lean.ts; their types are those of undici's root.
declare module 'undici/lib/dispatcher/dispatcher.js' {
  const Dispatcher: { prototype: object }
  export default Dispatcher
}
declare module 'undici/lib/api/index.js' {
  const api: object
  export default api
}
declare module 'undici/lib/dispatcher/agent.js' {
  const Agent: unknown
  export default Agent
}
declare module 'undici/lib/dispatcher/proxy-agent.js' {
  const ProxyAgent: unknown
  export default ProxyAgent
}
declare module 'undici/lib/web/fetch/index.js' {
  export const fetch: unknown
}
