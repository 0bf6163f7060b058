// The message of whatever a send caught, as the outcome and the log say it.
export function errorMessage(error: unknown): string {
  // Duck-typed: errors from another realm (vm contexts) are not `instanceof Error`.
  const message =
    typeof error === 'object' && error !== null ? (error as { message?: unknown }).message : undefined
  return typeof message === 'string' ? message : String(error)
}
