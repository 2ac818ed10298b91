/** Exponential backoff of reconciliation lookups, capped (pure, deterministic). */
export function nextLookupDelay(currentSeconds: number, maxSeconds: number): number {
  return Math.min(currentSeconds * 2, maxSeconds);
}
