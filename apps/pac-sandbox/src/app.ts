import { noCertificadoFromSerial } from '@cfdi/cfdi';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { X509Certificate } from 'node:crypto';
import { CancelService } from './cancellation/cancel-service';
import { FaultRegistry } from './faults/fault-registry';
import { registerSandboxRoutes } from './routes/sandbox-routes';
import { registerSoapRoutes } from './routes/soap-routes';
import { loadSatCredentials } from './sat/sat-credentials';
import type { Credentials } from './soap/context';
import { xmllintValidator } from './stamping/xsd-validation';
import { StampService } from './stamping/stamp-service';
import { CancellationStore } from './storage/cancellations';
import { openDatabase } from './storage/database';
import { RegistrationStore } from './storage/registrations';
import { StampStore } from './storage/stamps';

export interface SandboxOptions {
  databaseUrl: string;
  /** Injectable clock: validity, 72-hour window, FechaTimbrado, cancellation deadlines. */
  now?: () => Date;
  /** RfcProvCertif written in every TFD. Default SPR190613I52 (a syntactically valid PAC RFC). */
  rfcProvCertif?: string;
  /** Answer 702 for issuers without an active registration. Default true. */
  requireRegistration?: boolean;
  /**
   * RMF 2.7.1.35-IX (cancellation until the next business day needs no acceptance), as the SAT does. Default true;
   * a document with a receiver trigger (SANDBOX_REQUIRE_ACCEPTANCE, SANDBOX_RECEIVER_ACCEPTS/REJECTS) still needs it.
   */
  nextBusinessDayRule?: boolean;
  /** Receiver's answer window before "Plazo vencido". Default 72 h. */
  acceptanceWindowMs?: number;
  autoAnswer?: { answer: 'accept' | 'reject'; afterMs: number };
  credentials?: Credentials;
  resellerCredentials?: Credentials;
  /** Path to cfdi40-bundle.xsd: enables xmllint validation (≈0.4 s per stamp). */
  xsdPath?: string;
  logger?: FastifyServerOptions['logger'];
}

export const DEFAULT_RFC_PROV_CERTIF = 'SPR190613I52';

/** The sandbox PAC as a Fastify app, not listening; its database pool closes with the app. */
export async function buildSandboxApp(options: SandboxOptions): Promise<FastifyInstance> {
  const now = options.now ?? (() => new Date());
  const pool = await openDatabase(options.databaseUrl);
  const sat = await loadSatCredentials(pool, now());
  const noCertificadoSat = noCertificadoFromSerial(new X509Certificate(sat.certificateDer).serialNumber);
  const stamps = new StampStore(pool);
  const registrations = new RegistrationStore(pool);
  const stampService = new StampService({
    stamps,
    sat,
    now,
    rfcProvCertif: options.rfcProvCertif ?? DEFAULT_RFC_PROV_CERTIF,
    requireRegistration: options.requireRegistration ?? true,
    ...(options.xsdPath ? { validateSchema: xmllintValidator(options.xsdPath) } : {}),
  });
  const cancelService = new CancelService({
    stamps,
    cancellations: new CancellationStore(pool),
    sat,
    now,
    nextBusinessDayRule: options.nextBusinessDayRule ?? true,
    settle: {
      acceptanceWindowMs: options.acceptanceWindowMs ?? 72 * 3_600_000,
      ...(options.autoAnswer ? { autoAnswer: options.autoAnswer } : {}),
    },
  });
  const faults = new FaultRegistry();

  // forceCloseConnections: "hang" faults leave sockets open that close() must not wait for.
  const app = Fastify({ logger: options.logger ?? false, forceCloseConnections: true });
  // An idle connection dropped by PostgreSQL (restart, admin command) is logged and replaced on the
  // next query; unhandled, the pool's 'error' event would crash the process.
  pool.on('error', (err) => app.log.warn({ err }, 'idle database connection lost'));
  app.addHook('onClose', async () => pool.end());
  app.get('/health', async () => ({ ok: true }));
  registerSoapRoutes(
    app,
    {
      stampService,
      cancelService,
      registrations,
      now,
      noCertificadoSat,
      ...(options.credentials ? { credentials: options.credentials } : {}),
      ...(options.resellerCredentials ? { resellerCredentials: options.resellerCredentials } : {}),
    },
    faults,
  );
  registerSandboxRoutes(app, { faults, cancelService, sat, noCertificadoSat });
  return app;
}
