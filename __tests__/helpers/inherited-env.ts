// What a bundle started with the runner's variables only still takes from the suite's own environment:
// where programs are (PATH), the home folder, and the suite's compile cache (setup/test-processes-env.ts),
// which changes how fast the bundle's code loads, never what it does.
export function inheritedEnv(): Record<string, string> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' }
  if (process.env.NODE_COMPILE_CACHE) env.NODE_COMPILE_CACHE = process.env.NODE_COMPILE_CACHE
  return env
}
