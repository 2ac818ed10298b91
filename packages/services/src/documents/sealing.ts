import { createHash } from 'node:crypto';
import { rootAttributes, sealXml, type Csd } from '@cfdi/cfdi';
import type { EntityManager } from '@cfdi/db';
import type { DocumentRow } from './document-row';
import { claimSealedFingerprint, selectSealedXml, storeSealedXml } from './repository';
import { kindOf } from './kinds';

/**
 * A business reason the document can never be sealed (no CSD, expired CSD, deleted merchant, input the engine cannot
 * write): not retryable.
 */
export class UnsealableDocumentError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'UnsealableDocumentError';
  }
}

export type CsdLoader = (row: DocumentRow) => Promise<Csd>;

/**
 * The document's XML. The engine throws a RangeError for input it can never build (a pipe or a control character in a
 * name the API accepted before it refused them, an amount past the XSD): that is permanent, so it becomes an
 * UnsealableDocumentError (the document fails as `invalid_document`, the timbre is refunded) and is never retried or
 * reported as the PAC being unavailable.
 */
function buildXml(row: DocumentRow, now: Date): string {
  try {
    return kindOf(row).buildXml(row.input, now);
  } catch (error) {
    if (error instanceof RangeError)
      throw new UnsealableDocumentError('invalid_document', `The document cannot be built: ${error.message}`);
    throw error;
  }
}

/** How far back Fecha may move to give a document a CFDI no other document has sealed (see `sealDistinct`). */
const MAX_FECHA_SHIFT_SECONDS = 300;

/**
 * Seals the document to a CFDI no other document has: two documents with the same issuer, serie, folio text, content
 * and Fecha second (the same body sent twice with two Idempotency-Keys, or two accounts sharing the SAT test CSD)
 * would seal byte-identical, and the PAC would answer the second with the first's stamp. The sha256 of the cadena
 * original (issuer RFC and certificate included) is claimed in `sealed_fingerprints`, unique across every tenant;
 * when another document holds it, Fecha moves one second back and the document is sealed again. Only hashes are
 * stored, so nothing of another tenant can be learnt from a collision.
 */
async function sealDistinct(em: EntityManager, row: DocumentRow, csd: Csd, now: Date): Promise<string> {
  for (let shift = 0; shift <= MAX_FECHA_SHIFT_SECONDS; shift++) {
    const sealed = sealXml(buildXml(row, new Date(now.getTime() - shift * 1000)), csd);
    const fingerprint = createHash('sha256').update(sealed.cadena).digest('hex');
    // One round trip: the claim, or else who holds it. The holder is this document when an earlier attempt of its own
    // sealed the same bytes in the same second. A holder still uncommitted when the statement began is not seen: no
    // row, so the next second is tried, as when another document holds it.
    if ((await claimSealedFingerprint(em, fingerprint, row.id)) === row.id) return sealed.xml;
  }
  throw new Error(
    `document ${row.id}: every Fecha in the last ${MAX_FECHA_SHIFT_SECONDS} s seals a CFDI another document holds`,
  );
}

/**
 * Builds and seals the document once and persists the sealed XML before any PAC call. Idempotent: when a sealed
 * XML exists it is returned unchanged (re-sealing would make a different CFDI and defeat the PAC's duplicate check).
 */
export async function sealDocument(
  em: EntityManager,
  row: DocumentRow,
  loadCsd: CsdLoader,
  now: Date,
): Promise<string> {
  if (row.sealed_xml) return row.sealed_xml;
  const sealedXml = await sealDistinct(em, row, await loadCsd(row), now);
  const root = rootAttributes(sealedXml);
  // An invoice's amounts become the XML's: the API computed them when it accepted the request, and a worker of a
  // newer engine may build the XML (a deploy between the two). Nothing is paid against an unstamped invoice yet.
  const amounts =
    row.type === 'payment'
      ? { subtotal: row.subtotal, discount: row.discount, total: row.total }
      : {
          subtotal: root.SubTotal ?? row.subtotal,
          discount: root.Descuento ?? '0',
          total: root.Total ?? row.total,
        };
  const stored = await storeSealedXml(em, row.id, {
    sealedXml,
    fecha: root.Fecha ?? root.FechaExp ?? null,
    ...amounts,
  });
  if (stored !== undefined) return stored;
  // Another attempt sealed it first: its bytes are the ones the PAC may already have.
  return selectSealedXml(em, row.id);
}
