import { cfdiRelacionados } from '@cfdi/cfdi';
import type { EntityManager } from '@cfdi/db';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import { attachIdempotentResource } from '../idempotency';
import { reserveTimbre } from '../ledger';
import { assertMerchantAccess } from '../merchants';
import type { Scope } from '../scope';
import { isoTimestamp } from '../time';
import type { DocumentType, StampingDeps } from '../documents';
import { creditNotesOf } from '../documents/create-credit-note';
import {
  lockDocumentId,
  lockScopedDocument,
  markCancellationRequested,
  selectReplacementByUuid,
} from '../documents/repository';
import { resolveStampingMerchant } from '../documents/merchant-gate';
import { livePayments } from '../payments/installments';
import type { CancellableRow, CancellationRecord, Motivo } from './cancellation-record';

/** POST /v1/{invoices|payments|nominas}/{id}/cancel body after schema validation (api-spec.md CancelRequest). */
export interface CancelRequest {
  motivo: Motivo;
  folioSustitucion?: string;
}

function checkMotive(body: CancelRequest, uuid: string | null): void {
  if (body.motivo === '01' && !body.folioSustitucion) {
    throw ValidationError.field(
      '/folioSustitucion',
      'is required with motivo 01: the UUID of the stamped CFDI that replaces this one (TipoRelacion 04)',
    );
  }
  if (body.motivo !== '01' && body.folioSustitucion) {
    throw ValidationError.field(
      '/folioSustitucion',
      `is only allowed with motivo 01; motivo ${body.motivo} cancels without a replacement`,
    );
  }
  if (body.folioSustitucion && body.folioSustitucion.toUpperCase() === uuid) {
    throw ValidationError.field(
      '/folioSustitucion',
      'must be the replacement, not the document being cancelled',
    );
  }
}

/**
 * Motive 01 names the CFDI that replaces this one; when that CFDI lives in this service (account and mode) it must be
 * stamped and relate this UUID with TipoRelacion 04, or the SAT answers 207. One stamped elsewhere is taken as sent.
 */
async function checkSubstitution(
  tx: EntityManager,
  scope: Scope,
  row: CancellableRow,
  body: CancelRequest,
): Promise<void> {
  if (body.motivo !== '01' || !body.folioSustitucion) return;
  const replacement = await selectReplacementByUuid(tx, scope, body.folioSustitucion.toUpperCase());
  if (!replacement) return;
  if (replacement.status !== 'stamped') {
    throw ValidationError.field(
      '/folioSustitucion',
      `the replacement ${replacement.id} is ${replacement.status}; it must be a stamped CFDI in force`,
    );
  }
  const xml = replacement.stamped_xml ?? replacement.sealed_xml;
  const relates =
    xml !== null && cfdiRelacionados(xml).some((r) => r.tipoRelacion === '04' && r.uuids.includes(row.uuid!));
  if (!relates) {
    throw ValidationError.field(
      '/folioSustitucion',
      `the replacement ${replacement.id} does not relate ${row.uuid} with TipoRelacion 04 (sustitución); create it with relatedDocuments [{tipoRelacion: "04", uuids: ["${row.uuid}"]}] (the SAT answers 207 otherwise)`,
    );
  }
}

/**
 * Motive 04 (operación nominativa relacionada en una factura global) cancels a global invoice one of whose sales was
 * then invoiced to its customer by name; on any other document the SAT refuses it.
 */
function checkGlobalMotive(row: CancellableRow, body: CancelRequest): void {
  if (body.motivo === '04' && row.kind !== 'global') {
    throw ValidationError.field(
      '/motivo',
      '04 (operación nominativa relacionada en una factura global) applies only to a global invoice to PUBLICO EN GENERAL; use 02 or 03, or 01 with a replacement',
    );
  }
}

async function lockDocument(
  tx: EntityManager,
  scope: Scope,
  id: string,
  type: DocumentType,
): Promise<CancellableRow> {
  const row = await lockScopedDocument<CancellableRow>(tx, scope, id, type);
  if (!row) throw new NotFoundError(type, id);
  return row;
}

/**
 * Installments are cancelled newest first: each one's ImpSaldoAnt assumes every earlier one was paid, so cancelling
 * an earlier one would leave the later ones (and the installment that takes its number) with wrong balances. The
 * invoice row is locked as payment creation locks it, so no installment is added meanwhile.
 */
async function checkLatestInstallment(tx: EntityManager, payment: CancellableRow): Promise<void> {
  await lockDocumentId(tx, payment.invoice_id);
  const later = (await livePayments(tx, payment.invoice_id!)).filter(
    (p) => (p.num_parcialidad ?? 0) > (payment.num_parcialidad ?? 0),
  );
  if (later.length > 0) {
    throw ValidationError.notYet(
      '/params/id',
      `installment ${payment.num_parcialidad} is followed by ${later.map((p) => `${p.num_parcialidad} (${p.id})`).join(', ')}, whose balances assume it was paid; cancel installments newest first`,
    );
  }
}

/**
 * A credit note of this invoice still stamping would be in force once stamped, and the SAT refuses to cancel an
 * invoice with one (no_cancelable); sent now, the request would race it. Credit notes take the invoice's row lock,
 * held here, so none starts meanwhile.
 */
async function checkNoCreditNoteStamping(tx: EntityManager, invoice: CancellableRow): Promise<void> {
  const stamping = await creditNotesOf(tx, invoice, ['stamping']);
  if (stamping[0]) {
    throw ValidationError.notYet(
      '/params/id',
      `credit note ${stamping[0].id} of this invoice is still being stamped; wait for its outcome (an invoice with a credit note in force cannot be cancelled)`,
    );
  }
}

/**
 * Accepts a cancellation request: the document is `stamped`, no other request is in flight, and one timbre is
 * reserved, all under the document's row lock in one transaction. The cancel workflow does the rest; nothing is
 * sent to the PAC here.
 */
export async function requestCancellation(
  em: EntityManager,
  deps: Pick<StampingDeps, 'config' | 'now'>,
  scope: Scope,
  target: { id: string; type: DocumentType },
  body: CancelRequest,
  idempotencyKey?: string,
): Promise<CancellableRow> {
  const now = deps.now?.() ?? new Date();
  return em.transactional(async (tx) => {
    const row = await lockDocument(tx, scope, target.id, target.type);
    assertMerchantAccess(scope, row.merchant_id);
    checkMotive(body, row.uuid);
    if (row.status !== 'stamped') {
      const message = `the ${target.type} is ${row.status}; only a stamped document can be cancelled`;
      // Still stamping: the same request can pass once it is stamped, so the answer is not kept under the key.
      throw row.status === 'stamping'
        ? ValidationError.notYet('/params/id', message)
        : ValidationError.field('/params/id', message);
    }
    if (row.cancellation?.status === 'pending') {
      throw new ConflictError(
        'cancellation_in_progress',
        `A cancellation of ${row.id} is already being requested; wait for its outcome.`,
      );
    }
    checkGlobalMotive(row, body);
    await checkSubstitution(tx, scope, row, body);
    if (target.type === 'payment') await checkLatestInstallment(tx, row);
    // Motives 02/03 say the operation did not happen (or never should have): not true of an invoice with payments.
    if (
      target.type === 'invoice' &&
      (body.motivo === '02' || body.motivo === '03') &&
      (await livePayments(tx, row.id)).length > 0
    ) {
      throw ValidationError.notYet(
        '/motivo',
        `the invoice has payment complements in force; cancel them first (POST /v1/payments/{id}/cancel) before cancelling it with motivo ${body.motivo}`,
      );
    }
    if (target.type === 'invoice') await checkNoCreditNoteStamping(tx, row);
    // The CSD signs the request: a merchant that can no longer seal cannot cancel either (before any charge).
    await resolveStampingMerchant(tx, scope, row.merchant_id, now).catch((error: unknown) => {
      if (error instanceof NotFoundError)
        throw ValidationError.field(
          '/params/id',
          `the merchant that issued this ${target.type} was deleted; its CSD can no longer sign a cancellation`,
        );
      throw error;
    });
    const reservation = await reserveTimbre(tx, deps.config, scope, { type: 'cancellation', id: row.id });
    const cancellation: CancellationRecord = {
      motivo: body.motivo,
      folioSustitucion: body.folioSustitucion?.toUpperCase() ?? null,
      status: 'pending',
      requestedAt: isoTimestamp(now),
      resolvedAt: null,
      acuse: null,
    };
    const updated = await markCancellationRequested<CancellableRow>(
      tx,
      row.id,
      JSON.stringify(cancellation),
      reservation.id,
    );
    if (idempotencyKey) await attachIdempotentResource(tx, scope, idempotencyKey, row.id);
    return updated;
  });
}
