import type { Config } from '@cfdi/config';
import {
  createHttpMetrics,
  createMetricsRegistry,
  createPacMetrics,
  createPlatformGauges,
  createStampCounter,
  type HttpMetrics,
  type PlatformNumbers,
  type Registry,
} from '@cfdi/metrics';
import { createPlatform, type Platform } from '@cfdi/platform';

/** What the routes use: the platform (see @cfdi/platform) and the API's metrics, built once per process. */
export interface AppDeps extends Platform {
  /** This process's Prometheus registry (GET /metrics) and what feeds it. */
  metrics: ApiMetrics;
}

export interface ApiMetrics {
  registry: Registry;
  http: HttpMetrics;
  /** Sets the platform-wide gauges from PostgreSQL's numbers (read on each scrape). */
  setPlatform(numbers: PlatformNumbers): void;
  /** A stamp this process recorded itself (`cfdi_stamps_total`). */
  stampRecorded(outcome: string): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
}

/**
 * Connects everything the API needs. Nothing here requires a dependency to be up: the ORM and Temporal connect
 * lazily and Redis reconnects in the background, so the API starts and /ready tells what is missing.
 */
export async function createAppDeps(
  config: Readonly<Config>,
  options: { now?: () => Date } = {},
): Promise<AppDeps> {
  const registry = createMetricsRegistry('api');
  const platform = await createPlatform(config, {
    ...options,
    connect: ['redis'],
    observePac: createPacMetrics(registry),
  });
  // Assigned, not spread: the platform's parts are opened on first use.
  return Object.assign(platform, {
    metrics: {
      registry,
      http: createHttpMetrics(registry),
      setPlatform: createPlatformGauges(registry),
      stampRecorded: createStampCounter(registry),
    },
  });
}
