/** Folio sequences, the sealed fingerprints that keep two CFDIs from sealing alike, and the sealed XML. */
import type { EntityManager } from '@cfdi/db';
import { firstRow } from '../../sql';

/** Increments the (merchant, serie) sequence under its row lock and returns the folio it gives. */
export async function incrementFolio(em: EntityManager, merchantId: string, serie: string): Promise<string> {
  const rows: { last_folio: string }[] = await em.execute(
    `insert into folio_sequences (merchant_id, serie, last_folio) values (?, ?, 1)
     on conflict (merchant_id, serie) do update set last_folio = folio_sequences.last_folio + 1
     returning last_folio`,
    [merchantId, serie],
  );
  return rows[0]!.last_folio;
}

export function selectFolioSequences(
  em: EntityManager,
  merchantId: string,
): Promise<{ serie: string; last_folio: string }[]> {
  return em.execute('select serie, last_folio from folio_sequences where merchant_id = ? order by serie', [
    merchantId,
  ]);
}

/** Moves the sequence forward to `lastFolio`, in one statement under the row lock; undefined when it is not above. */
export async function advanceFolio(
  em: EntityManager,
  merchantId: string,
  serie: string,
  lastFolio: number,
): Promise<string | undefined> {
  const row = await firstRow<{ last_folio: string }>(
    em,
    `insert into folio_sequences (merchant_id, serie, last_folio) values (?, ?, ?)
     on conflict (merchant_id, serie) do update set last_folio = excluded.last_folio
       where folio_sequences.last_folio < excluded.last_folio
     returning last_folio`,
    [merchantId, serie, lastFolio],
  );
  return row?.last_folio;
}

// ---- Sealing

/** Claims the fingerprint for the document, or else reads who holds it: one round trip (see sealDocument). */
export async function claimSealedFingerprint(
  em: EntityManager,
  fingerprint: string,
  documentId: string,
): Promise<string | undefined> {
  const holder = await firstRow<{ document_id: string }>(
    em,
    `with claimed as (insert into sealed_fingerprints (fingerprint, document_id) values (?, ?) on conflict do nothing returning document_id)
       select document_id from claimed union all select document_id from sealed_fingerprints where fingerprint = ?`,
    [fingerprint, documentId, fingerprint],
  );
  return holder?.document_id;
}

export interface SealedColumns {
  sealedXml: string;
  fecha: string | null;
  subtotal: string;
  discount: string;
  total: string;
}

/** Stores the sealed XML and the amounts it carries, once: undefined when another attempt sealed it first. */
export async function storeSealedXml(
  em: EntityManager,
  documentId: string,
  sealed: SealedColumns,
): Promise<string | undefined> {
  const row = await firstRow<{ sealed_xml: string }>(
    em,
    `update documents set sealed_xml = ?, fecha = ?, subtotal = ?, discount = ?, total = ?,
            saldo_pendiente = case when saldo_pendiente is null then null else ?::numeric end, updated_at = now()
      where id = ? and sealed_xml is null returning sealed_xml`,
    [
      sealed.sealedXml,
      sealed.fecha,
      sealed.subtotal,
      sealed.discount,
      sealed.total,
      sealed.total,
      documentId,
    ],
  );
  return row?.sealed_xml;
}

export async function selectSealedXml(em: EntityManager, documentId: string): Promise<string> {
  const rows: { sealed_xml: string }[] = await em.execute('select sealed_xml from documents where id = ?', [
    documentId,
  ]);
  return rows[0]!.sealed_xml;
}
