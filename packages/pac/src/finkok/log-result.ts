import { randomUUID } from 'node:crypto';
import type { PacLogger } from '../logger';
import type { CallContext } from '../types';

/** Result fields safe to log: classification and identifiers, never documents or secrets. */
const LOGGED = ['reason', 'code', 'uuid', 'previouslyStamped'] as const;

/**
 * Runs one client operation under a correlation id (the caller's, or a new one) and logs its
 * classified outcome: info when the PAC answered, warn when unavailable or ambiguous.
 */
export async function logResult<T extends { outcome: string }>(
  logger: PacLogger,
  operation: string,
  ctx: CallContext | undefined,
  run: (ctx: CallContext) => Promise<T>,
): Promise<T> {
  const correlationId = ctx?.correlationId ?? randomUUID();
  const started = Date.now();
  const result = await run({ ...ctx, correlationId });
  const fields: Record<string, unknown> = {
    pac: 'finkok',
    operation,
    correlationId,
    durationMs: Date.now() - started,
    outcome: result.outcome,
  };
  for (const key of LOGGED) if (key in result) fields[key] = (result as Record<string, unknown>)[key];
  if (result.outcome === 'unavailable' || result.outcome === 'ambiguous') logger.warn(fields, 'pac call');
  else logger.info(fields, 'pac call');
  return result;
}
