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

/** Told of every PAC call once it returns (metrics); never changes the call or its result. */
export type PacCallObserver = (call: {
  operation: keyof PacClient;
  /** The result's `outcome`, or `error` when the call threw. */
  outcome: string;
  livemode: boolean;
  seconds: number;
}) => void;

export function createPacClients(
  config: Pick<Config, 'pac'>,
  options: { timeoutMs?: number; observe?: PacCallObserver } = {},
): PacClients {
  const timeout = options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {};
  const test = new FinkokPac({ url: config.pac.sandboxUrl, ...SANDBOX_CREDENTIALS, ...timeout });
  // Without PAC_URL and credentials this is the NullPac: every live call answers `unavailable`.
  const live = createPacClient({
    url: config.pac.url ?? undefined,
    username: config.pac.username ?? undefined,
    password: config.pac.password ?? undefined,
    ...timeout,
  });
  const observe = options.observe;
  const [observedTest, observedLive] = observe
    ? [observedPac(test, false, observe), observedPac(live, true, observe)]
    : [test, live];
  return {
    forMode: (livemode) => (livemode ? observedLive : observedTest),
    close() {
      test.close();
      if (live instanceof FinkokPac) live.close();
    },
  };
}

/** The same client, timing each call and telling `observe` its operation and outcome. */
function observedPac(client: PacClient, livemode: boolean, observe: PacCallObserver): PacClient {
  const wrap =
    <A extends unknown[], R extends { outcome: string }>(
      operation: keyof PacClient,
      call: (...args: A) => Promise<R>,
    ) =>
    async (...args: A): Promise<R> => {
      const started = performance.now();
      const seconds = () => (performance.now() - started) / 1000;
      try {
        const result = await call.apply(client, args);
        observe({ operation, outcome: result.outcome, livemode, seconds: seconds() });
        return result;
      } catch (error) {
        observe({ operation, outcome: 'error', livemode, seconds: seconds() });
        throw error;
      }
    };
  return {
    stamp: wrap('stamp', client.stamp),
    lookupStamped: wrap('lookupStamped', client.lookupStamped),
    stampRetention: wrap('stampRetention', client.stampRetention),
    lookupStampedRetention: wrap('lookupStampedRetention', client.lookupStampedRetention),
    cancelRetention: wrap('cancelRetention', client.cancelRetention),
    cancel: wrap('cancel', client.cancel),
    satStatus: wrap('satStatus', client.satStatus),
    receipt: wrap('receipt', client.receipt),
    registerCsd: wrap('registerCsd', client.registerCsd),
    updateCsd: wrap('updateCsd', client.updateCsd),
    getCsd: wrap('getCsd', client.getCsd),
  };
}
