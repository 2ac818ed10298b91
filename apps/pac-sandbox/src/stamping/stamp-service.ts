import { appendTfd, buildTfd, parseTfd } from '@cfdi/cfdi';
import { createHash, randomUUID } from 'node:crypto';
import type { SatCredentials } from '../sat/sat-credentials';
import type { StampRecord, StampStore } from '../storage/stamps';
import { mexicoLocal } from '../time/mexico-time';
import type { Incidencia } from './incidence-codes';
import { receiverTrigger } from './magic-triggers';
import { readComprobante } from './read-comprobante';
import { readRetenciones } from './read-retenciones';
import { validateCfdi } from './validate-cfdi';

export type StampOutcome =
  | { kind: 'stamped'; record: StampRecord; previouslyStamped: boolean; satSeal: string }
  | { kind: 'rejected'; incidencia: Incidencia };

export interface StampServiceDeps {
  stamps: StampStore;
  sat: SatCredentials;
  now: () => Date;
  rfcProvCertif: string;
  requireRegistration: boolean;
  validateSchema?: (xml: string) => Promise<string | undefined>;
}

/** Identity of a document for the PAC: the exact sealed bytes (re-sealing makes a new CFDI). */
export const xmlHash = (xml: string) => createHash('sha256').update(xml, 'utf8').digest('hex');

/** SelloSAT of a stored stamp (Finkok answers it next to the XML). */
export const satSealOf = (record: StampRecord) => parseTfd(record.xml)?.selloSAT ?? '';

/** What a stamp operation accepts: a CFDI 4.0 on the stamp service, a Retenciones 2.0 on the retentions one. */
export type StampedDocument = 'cfdi' | 'retenciones';

export class StampService {
  constructor(private readonly deps: StampServiceDeps) {}

  /**
   * Idempotent per sealed XML: the same bytes always yield the first stamp (answered as 307). A certificate of
   * retentions goes through the same checks (date window, CSD, seal, registration) and gets the same TFD 1.1.
   */
  async stamp(xml: string, document: StampedDocument = 'cfdi'): Promise<StampOutcome> {
    const hash = xmlHash(xml);
    // Read first so that the duplicate check and the issuer's registration are one query; a
    // duplicate is still answered before any validation.
    const read = document === 'cfdi' ? readComprobante(xml) : readRetenciones(xml);
    const checkRegistration = this.deps.requireRegistration && read.ok;
    const { existing, registrationStatus } = await this.deps.stamps.findForStamping(
      hash,
      checkRegistration ? read.facts.emisorRfc : null,
    );
    if (existing)
      return { kind: 'stamped', record: existing, previouslyStamped: true, satSeal: satSealOf(existing) };
    const now = this.deps.now();
    const validation = await validateCfdi(xml, read, {
      now,
      ...(checkRegistration ? { registrationStatus } : {}),
      // The configured schema check is the CFDI bundle's.
      ...(this.deps.validateSchema && document === 'cfdi'
        ? { validateSchema: this.deps.validateSchema }
        : {}),
    });
    if (!validation.ok) return { kind: 'rejected', incidencia: validation.incidencia };
    const f = validation.facts;
    const tfd = buildTfd({
      uuid: randomUUID(),
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
    return stored.inserted
      ? { kind: 'stamped', record, previouslyStamped: false, satSeal: tfd.tfd.selloSAT }
      : {
          kind: 'stamped',
          record: stored.record,
          previouslyStamped: true,
          satSeal: satSealOf(stored.record),
        };
  }

  async byUuid(uuid: string): Promise<StampRecord | undefined> {
    return this.deps.stamps.findByUuid(uuid);
  }

  /** Finkok `stamped`: the stamp of exactly these bytes, if any. */
  async stamped(xml: string): Promise<StampRecord | undefined> {
    return this.deps.stamps.findByHash(xmlHash(xml));
  }
}
