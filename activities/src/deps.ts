import type { Config } from '@cfdi/config';
import type { Orm } from '@cfdi/db';
import type { PacClient } from '@cfdi/pac';
import type {
  CsdLoader,
  DocumentExportDeps,
  DocumentFilesDeps,
  EmailSendingDeps,
  StampingDeps,
} from '@cfdi/services';

/** What activities may use; built once by the worker. No activity constructs its own client. */
export interface ActivityDeps {
  config: Readonly<Config>;
  orm: Orm;
  pac: { forMode(livemode: boolean): PacClient };
  loadCsd: CsdLoader;
  /** The SAT catalogs a document created by a workflow (the global invoice) is validated against. */
  catalogs: StampingDeps['catalogs'];
  files: DocumentFilesDeps;
  /** Stored files, the renderer and the SMTP sender of documents' e-mails. */
  emails: EmailSendingDeps;
  /** Storage (streamed writes) and the renderer of console exports. */
  exports: DocumentExportDeps;
  now?: () => Date;
  /** Told of stamp outcomes and delivery attempts (the worker's Prometheus metrics); absent in most tests. */
  observer?: ActivityObserver;
}

export interface ActivityObserver {
  /** A stamp's recorded outcome: stamped, failed (refunded) or reconciling (see StampOutcome). */
  stampRecorded(outcome: string): void;
  /** A webhook delivery attempt (delivered or failed); `lagSeconds` from the event to now, null for a redelivery. */
  webhookAttempt(outcome: string, lagSeconds: number | null): void;
}
