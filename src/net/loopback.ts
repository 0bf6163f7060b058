// The loopback rule, shared by the service client (plain http only to this machine) and the sitemap
// reader (which pages may be fetched over plain http).

/** Hosts that never leave the machine: `localhost`, 127.0.0.0/8 and `[::1]` (as the URL parser spells them). */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
}
