import { appendTfd, buildTfd } from '@cfdi/cfdi';
import { createHash, randomUUID } from 'node:crypto';
import type { SatCredentials } from '../sat/sat-credentials';
import type { RegistrationStore } from '../storage/registrations';
import type { StampRecord, StampStore } from '../storage/stamps';
import { mexicoLocal } from '../time/mexico-time';
import type { Incidencia } from './incidence-codes';
import { receiverTrigger } from './magic-triggers';
import { validateCfdi } from './validate-cfdi';

export type StampOutcome =
  | { kind: 'stamped'; record: StampRecord; previouslyStamped: boolean }
  | { kind: 'rejected'; incidencia: Incidencia };

export interface StampServiceDeps {
  stamps: StampStore;
  registrations: RegistrationStore;
  sat: SatCredentials;
  now: () => Date;
  rfcProvCertif: string;
  requireRegistration: boolean;
  validateSchema?: (xml: string) => Promise<string | undefined>;
}

/** Identity of a document for the PAC: the exact sealed bytes (re-sealing makes a new CFDI). */
export const xmlHash = (xml: string) => createHash('sha256').update(xml, 'utf8').digest('hex');

export class StampService {
  constructor(private readonly deps: StampServiceDeps) {}

  /** Idempotent per sealed XML: the same bytes always yield the first stamp (answered as 307). */
  async stamp(xml: string): Promise<StampOutcome> {
    const hash = xmlHash(xml);
    const existing = await this.deps.stamps.findByHash(hash);
    if (existing) return { kind: 'stamped', record: existing, previouslyStamped: true };
    const now = this.deps.now();
    const validation = await validateCfdi(xml, {
      now,
      registrations: this.deps.registrations,
      requireRegistration: this.deps.requireRegistration,
      ...(this.deps.validateSchema ? { validateSchema: this.deps.validateSchema } : {}),
    });
    if (!validation.ok) return { kind: 'rejected', incidencia: validation.incidencia };
    const f = validation.facts;
    const tfd = buildTfd({
      uuid: randomUUID().toUpperCase(),
      fechaTimbrado: mexicoLocal(now),
      rfcProvCertif: this.deps.rfcProvCertif,
      selloCFD: f.sello,
      sat: this.deps.sat,
    });
    const record: StampRecord = {
      xmlHash: hash,
      uuid: tfd.tfd.uuid,
      emisorRfc: f.emisorRfc,
      receptorRfc: f.receptorRfc,
      total: f.total,
      tipoDeComprobante: f.tipoDeComprobante,
      global: f.global,
      fechaTimbrado: tfd.tfd.fechaTimbrado,
      stampedAt: now,
      xml: appendTfd(xml, tfd.xml),
      receiverAnswer: receiverTrigger(f.conceptos),
    };
    const stored = await this.deps.stamps.insert(record, f.relations);
    return { kind: 'stamped', record: stored.record, previouslyStamped: !stored.inserted };
  }

  async byUuid(uuid: string): Promise<StampRecord | undefined> {
    return this.deps.stamps.findByUuid(uuid);
  }

  /** Finkok `stamped`: the stamp of exactly these bytes, if any. */
  async stamped(xml: string): Promise<StampRecord | undefined> {
    return this.deps.stamps.findByHash(xmlHash(xml));
  }
}
