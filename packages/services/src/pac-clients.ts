import type { Config } from '@cfdi/config';
import { createPacClient, FinkokPac, type PacClient } from '@cfdi/pac';

/**
 * The bundled sandbox PAC accepts any credentials unless started with PAC_SANDBOX_USERNAME/PASSWORD;
 * these are the ones its tests and `npm run up` use.
 */
export const SANDBOX_CREDENTIALS = { username: 'sandbox', password: 'sandbox' } as const;

/** The one place that decides which PAC a mode talks to: test → the sandbox, live → the configured PAC. */
export interface PacClients {
  forMode(livemode: boolean): PacClient;
  /** Releases keep-alive sockets (graceful shutdown, tests). */
  close(): void;
}

export function createPacClients(config: Pick<Config, 'pac'>, options: { timeoutMs?: number } = {}): PacClients {
  const timeout = options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {};
  const test = new FinkokPac({ url: config.pac.sandboxUrl, ...SANDBOX_CREDENTIALS, ...timeout });
  // Without PAC_URL and credentials this is the NullPac: every live call answers `unavailable`.
  const live = createPacClient({ url: config.pac.url ?? undefined, username: config.pac.username ?? undefined, password: config.pac.password ?? undefined, ...timeout });
  return {
    forMode: (livemode) => (livemode ? live : test),
    close() {
      test.close();
      if (live instanceof FinkokPac) live.close();
    },
  };
}
