import { checkCreditNoteRequest, type CreditNoteInput, type Receiver } from '@cfdi/cfdi';
import type { EntityManager } from '@cfdi/db';
import { publishedRateFor } from '../exchange-rates/published-rates';
import { NotFoundError, ValidationError } from '../errors';
import {
  customerOfInvoice,
  expandDocumentReferences,
  type DocumentItemRequest,
} from '../records/expand-references';
import { assertMerchantAccess } from '../merchants';
import type { Scope } from '../scope';
import { loadDocument, type DocumentRow } from './document-row';
import {
  lockDocument,
  reduceInvoiceBalance,
  selectCreditNotesOf,
  selectDocumentByUuid,
  uuidHeld,
} from './repository';
import { fromMinorUnits, toMinorUnits } from '../centavos';
import { storePrepared, type PreparedDocument } from './prepared-document';
import { checkAmountMagnitudes } from './amount-limits';
import { resolveStampingMerchant } from './merchant-gate';
import type { StampingDeps } from './stamping-deps';

/** POST /v1/credit_notes body after schema validation (api-spec.md CreditNoteCreate). */
export interface CreditNoteCreate {
  merchantId: string;
  relatedInvoiceId?: string;
  relatedUuid?: string;
  tipoRelacion?: '01' | '03';
  usoCfdi?: string;
  formaPago: string;
  folio?: string;
  receiver?: Receiver;
  /** A saved customer instead of `receiver` (its data is copied). */
  customerId?: string;
  /** Items in full, or `{productId, quantity, …}` made from a saved product. */
  items: DocumentItemRequest[];
  pricesIncludeTax?: boolean;
  /** c_Moneda, default the related invoice's (MXN without one); any other needs tipoCambio. */
  moneda?: string;
  tipoCambio?: number | string;
}

/** The request once its customer and products are replaced by their data. */
type ExpandedCreditNote = Omit<CreditNoteCreate, 'items' | 'customerId'> & {
  items: CreditNoteInput['items'];
  customerId: string | null;
};

/**
 * The related income invoice when it lives in this service: named by `relatedInvoiceId`, or found by `relatedUuid` in
 * this account and mode (a UUID "stamped elsewhere" is not found and is taken as sent). Either way it must be a
 * stamped income invoice of the same merchant with no cancellation under way.
 */
async function relatedInvoice(
  em: EntityManager,
  scope: Scope,
  body: Pick<CreditNoteCreate, 'relatedInvoiceId' | 'relatedUuid' | 'merchantId' | 'moneda'>,
): Promise<DocumentRow | null> {
  if (!body.relatedInvoiceId) {
    if (!body.relatedUuid) return null; // the request validation says what is missing
    const related = await selectDocumentByUuid(em, scope, body.relatedUuid.toUpperCase());
    if (related) checkCreditable(scope, related, body, '/relatedUuid');
    else if (!scope.livemode) await refuseOtherTenantsTestUuid(em, body.relatedUuid);
    return related ?? null;
  }
  let invoice: DocumentRow;
  try {
    invoice = await loadDocument(em, scope, body.relatedInvoiceId, 'invoice');
  } catch (error) {
    if (error instanceof NotFoundError) throw new NotFoundError('related invoice', body.relatedInvoiceId);
    throw error;
  }
  checkCreditable(scope, invoice, body, '/relatedInvoiceId');
  if (body.relatedUuid && body.relatedUuid.toUpperCase() !== invoice.uuid) {
    throw ValidationError.field('/relatedUuid', `does not match the related invoice's UUID ${invoice.uuid}`);
  }
  return invoice;
}

/**
 * Test mode shares one sandbox PAC (and the SAT test CSDs) among every account: a credit note relating another
 * account's test document would count, in the sandbox, as a document in force related to it and make that account's
 * invoice `no_cancelable`. A UUID this service stamped for another account or mode is therefore not "stamped
 * elsewhere"; it is refused without saying whose it is. Live mode relates what the real SAT knows.
 */
async function refuseOtherTenantsTestUuid(em: EntityManager, relatedUuid: string): Promise<void> {
  if (await uuidHeld(em, relatedUuid.toUpperCase())) {
    throw ValidationError.field(
      '/relatedUuid',
      "is not a document of this account and mode; in test mode a credit note relates this account's documents or a UUID stamped outside this service",
    );
  }
}

function checkCreditable(
  scope: Scope,
  invoice: DocumentRow,
  body: Pick<CreditNoteCreate, 'merchantId' | 'moneda'>,
  path: string,
): void {
  assertMerchantAccess(scope, invoice.merchant_id);
  if (invoice.type !== 'invoice')
    throw ValidationError.field(
      path,
      `is payment complement ${invoice.id}; a credit note relates an income invoice`,
    );
  if (invoice.kind === 'credit_note')
    throw ValidationError.field(
      path,
      `is credit note ${invoice.id}; a credit note relates an income invoice, not another credit note`,
    );
  // A credit note is applied to its invoice's amounts (§6): the balance and the credit left are in the invoice's
  // currency, so the note is written in it too (docs/decisions.md).
  if (body.moneda !== undefined && body.moneda !== invoice.currency)
    throw ValidationError.field(
      '/moneda',
      `must be ${invoice.currency}, the currency of the related invoice ${invoice.id} (or be left out): a credit note is applied to its invoice's amounts`,
    );
  checkNoCancellation(invoice, path);
  if (invoice.merchant_id !== body.merchantId) {
    throw ValidationError.field(
      '/merchantId',
      `must be ${invoice.merchant_id}, the merchant that stamped the related invoice`,
    );
  }
}

/**
 * Only a stamped invoice with no cancellation under way is credited: a credit note stamped while the invoice's
 * cancellation waits for the receiver would stay in force for a cancelled invoice. "Still stamping" and "being
 * cancelled" are not-yet answers (the same Idempotency-Key passes once they settle).
 */
function checkNoCancellation(
  invoice: Pick<DocumentRow, 'id' | 'status' | 'cancellation'>,
  path: string,
): void {
  if (invoice.status === 'stamping')
    throw ValidationError.notYet(
      path,
      `the related invoice ${invoice.id} is still being stamped; retry once it is stamped`,
    );
  if (invoice.status === 'cancel_pending' || invoice.cancellation?.status === 'pending') {
    throw ValidationError.notYet(
      path,
      `a cancellation of the related invoice ${invoice.id} is being requested; wait for its outcome`,
    );
  }
  if (invoice.status !== 'stamped')
    throw ValidationError.field(
      path,
      `the related invoice is ${invoice.status}; only a stamped invoice can be credited`,
    );
}

/**
 * A credit note corrects the invoice it relates, so an invoice of this service fixes its receiver: a `receiver` sent
 * anyway is ignored when it is that one (RFC case and surrounding spaces aside) and refused when it is another.
 */
function receiverOf(invoice: DocumentRow, sent: Receiver | undefined): Receiver {
  const own = invoice.receiver as Receiver;
  if (!sent) return own;
  const norm = (r: Receiver): string[] => [
    r.rfc.trim().toUpperCase(),
    r.name.trim(),
    r.zip.trim(),
    r.regimenFiscal.trim(),
  ];
  const [a, b] = [norm(own), norm(sent)];
  if (a.some((v, i) => v !== b[i])) {
    throw ValidationError.field(
      '/receiver',
      `must be the related invoice's receiver (${own.rfc} ${own.name}) or be left out: a credit note corrects the invoice it relates, so its receiver is the invoice's`,
    );
  }
  return own;
}

/**
 * The credit notes in force (or stamping) of an invoice never add up to more than the invoice: a credit beyond what
 * was invoiced has no fiscal meaning. Checked under the invoice's row lock, so two notes cannot both take the rest.
 */
async function checkCreditLeft(
  tx: EntityManager,
  invoice: DocumentRow,
  total: string,
  decimals: number,
): Promise<void> {
  const inForce = await creditNotesOf(tx, invoice, ['stamping', 'stamped', 'cancel_pending']);
  const units = (v: string): number => toMinorUnits(v, decimals);
  const left = units(invoice.total) - inForce.reduce((sum, note) => sum + units(note.total), 0);
  if (units(total) > left) {
    throw ValidationError.field(
      '/items',
      `the credit note totals ${total}, more than the ${fromMinorUnits(left, decimals)} of invoice ${invoice.id} (total ${invoice.total} ${invoice.currency}) that its credit notes in force leave to credit`,
    );
  }
}

/** The credit notes in the given statuses that relate this invoice, by its id or by its UUID. */
export const creditNotesOf = selectCreditNotesOf;

/** Like invoices: validate, folio, reserve and store `stamping` atomically. A credit note never changes the invoice. */
export async function createCreditNoteDocument(
  em: EntityManager,
  deps: StampingDeps,
  scope: Scope,
  request: CreditNoteCreate,
  idempotencyKey?: string,
): Promise<DocumentRow> {
  const prepared = await prepareCreditNote(em, deps, scope, request);
  return em.transactional((tx) => storePrepared(tx, deps.config, scope, prepared, { idempotencyKey }));
}

/**
 * Validates a credit note request and computes it; what depends on the related invoice's current state (no
 * cancellation, the credit left, its balance) is checked again under that invoice's row lock when it is stored.
 */
export async function prepareCreditNote(
  em: EntityManager,
  deps: StampingDeps,
  scope: Scope,
  request: CreditNoteCreate,
): Promise<PreparedDocument> {
  // A draft keeps its references: each preview, edit and stamp copies the customer's and products' data anew.
  const body: ExpandedCreditNote = await expandDocumentReferences(em, scope, 'credit_note', request);
  checkAmountMagnitudes(body.items);
  const now = deps.now?.() ?? new Date();
  const merchant = await resolveStampingMerchant(em, scope, body.merchantId, now);
  const invoice = await relatedInvoice(em, scope, body);
  await deps.catalogs.index();
  const receiver = !invoice
    ? body.receiver
    : request.customerId
      ? customerOfInvoice(body.receiver!, invoice.receiver, 'a credit note')
      : receiverOf(invoice, body.receiver);
  const moneda = body.moneda ?? invoice?.currency;
  const { issues, computed, currency } = checkCreditNoteRequest(
    { ...body, receiver, ...(moneda !== undefined ? { moneda } : {}) },
    deps.catalogs.lookup,
    { issuer: merchant, now, publishedRate: await publishedRateFor(em, moneda, now) },
  );
  if (!computed || !currency)
    throw new ValidationError(
      `The credit note is invalid: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`,
      issues,
    );

  const relatedUuid = (invoice?.uuid ?? body.relatedUuid!).toUpperCase();
  const input: CreditNoteInput = {
    issuer: {
      rfc: merchant.rfc,
      legalName: merchant.legalName,
      regimenFiscal: merchant.regimenFiscal,
      zip: merchant.zip,
    },
    receiver: receiver!,
    relatedUuid,
    tipoRelacion: body.tipoRelacion ?? '01',
    formaPago: body.formaPago,
    usoCfdi: body.usoCfdi ?? 'G02',
    items: body.items,
    pricesIncludeTax: body.pricesIncludeTax ?? true,
    serie: merchant.serie,
    ...(body.folio ? { folioText: body.folio } : {}),
    // Foreign currency: the stored input carries what the XML needs, so sealing rebuilds the same document.
    ...(currency.moneda !== 'MXN'
      ? { moneda: currency.moneda, tipoCambio: currency.tipoCambio!, currencyDecimals: currency.decimales }
      : {}),
  };

  return {
    type: 'invoice',
    merchant,
    details: {
      kind: 'credit_note',
      folioText: body.folio ?? null,
      currency: currency.moneda,
      metodoPago: 'PUE',
      formaPago: input.formaPago,
      usoCfdi: input.usoCfdi!,
      receiver: input.receiver,
      subtotal: computed.subTotal,
      discount: computed.descuento ?? '0',
      total: computed.total,
      tipoRelacion: input.tipoRelacion!,
      relatedUuid,
      relatedInvoiceId: invoice?.id ?? null,
      monto: null,
      input,
      customerId: body.customerId,
    },
    // Under the invoice's row lock, as a cancellation request takes it: no cancellation starts in between.
    underLock: async (tx) => {
      if (!invoice) return {};
      const locked = (await lockDocument(tx, invoice.id))!;
      checkNoCancellation(locked, body.relatedInvoiceId ? '/relatedInvoiceId' : '/relatedUuid');
      await checkCreditLeft(tx, locked, computed.total, currency.decimales);
      return { monto: await creditOutstandingBalance(tx, locked, computed.total, currency.decimales) };
    },
  };
}

/**
 * A credit note reduces what a PPD invoice still owes (docs/decisions.md, credit notes and the balance): it takes its
 * total off `saldo_pendiente`, at most what is outstanding (a note after full payment is a refund, not a balance),
 * and keeps that amount as its `monto` so a failed stamp or a cancellation gives exactly it back.
 */
async function creditOutstandingBalance(
  tx: EntityManager,
  invoice: DocumentRow,
  total: string,
  decimals: number,
): Promise<string | null> {
  if (invoice.metodo_pago !== 'PPD' || invoice.saldo_pendiente === null) return null;
  const applied = Math.min(toMinorUnits(total, decimals), toMinorUnits(invoice.saldo_pendiente, decimals));
  if (applied <= 0) return null;
  const monto = fromMinorUnits(applied, decimals);
  await reduceInvoiceBalance(tx, invoice.id, monto);
  return monto;
}
