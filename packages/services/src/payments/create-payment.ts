import { checkPaymentRequest, computePayment, formatFecha, type PaymentInput } from '@cfdi/cfdi';
import type { EntityManager } from '@cfdi/db';
import { NotFoundError, ValidationError } from '../errors';
import { assertMerchantAccess } from '../merchants';
import type { Scope } from '../scope';
import { loadDocument, type DocumentRow } from '../documents/document-row';
import { storeNewDocument } from '../documents/store-new-document';
import {
  lockScopedInvoice,
  reduceInvoiceBalance,
  selectUnsettledOrLiveCreditNotes,
} from '../documents/repository';
import type { StampingDeps } from '../documents/stamping-deps';
import { resolveStampingMerchant } from '../documents/merchant-gate';
import { fromMinorUnits, toMinorUnits } from '../centavos';
import { relatedInvoiceOf } from './invoice-taxes';
import { livePayments, nextParcialidad, previousInstallments } from './installments';
import { checkPayable } from './payable-invoice';
import { customerOfInvoice, expandDocumentReferences } from '../records/expand-references';

/** POST /v1/invoices/{id}/payments body after schema validation (api-spec.md PaymentCreate). */
export interface PaymentCreate {
  /** In monedaP. */
  monto: number;
  formaPago: string;
  /** c_Moneda of the money received, default MXN; any other needs tipoCambioP. */
  monedaP?: string;
  tipoCambioP?: number;
  /** Units of the invoice's currency per unit of monedaP; required when they differ. */
  equivalenciaDR?: number;
  /** What the payment takes off the invoice, in its currency; default monto × equivalenciaDR. */
  impPagado?: number;
  fechaPago?: string;
  numParcialidad?: number;
  /** The saved customer the complement is issued to: its current data, under the invoice's receiver RFC. */
  customerId?: string;
}

/** The complement's Receptor: the paid invoice's, or the named customer's current data (see customerOfInvoice). */
async function receiverOfPayment(
  em: EntityManager,
  scope: Scope,
  invoice: DocumentRow,
  body: PaymentCreate,
): Promise<{ receiver: DocumentRow['receiver']; customerId: string | null }> {
  if (body.customerId === undefined)
    return { receiver: invoice.receiver, customerId: invoice.customer_id ?? null };
  const { receiver, customerId } = await expandDocumentReferences(em, scope, 'payment', body);
  return { receiver: customerOfInvoice(receiver!, invoice.receiver, 'a payment complement'), customerId };
}

/** The invoice row, locked: payments of one invoice are decided one at a time. */
async function lockInvoice(tx: EntityManager, scope: Scope, invoiceId: string): Promise<DocumentRow> {
  const row = await lockScopedInvoice(tx, scope, invoiceId);
  if (!row) throw new NotFoundError('invoice', invoiceId);
  return row;
}

/**
 * What the credit notes in force took off the invoice's balance (their `monto`, in the invoice's currency and its
 * smallest unit): the installments then carry the invoice's taxes times (Total − credited) / Total. A credit note
 * still stamping or being cancelled would change that (and ImpSaldoAnt) by its outcome, so the payment waits for it,
 * like for an installment in the same state.
 */
async function creditedAmount(tx: EntityManager, invoiceId: string, decimals: number): Promise<number> {
  const notes = await selectUnsettledOrLiveCreditNotes(tx, invoiceId);
  const unsettled = notes.find((n) => n.status !== 'stamped' || n.cancellation?.status === 'pending');
  if (unsettled) {
    throw ValidationError.notYet(
      '/params/id',
      `credit note ${unsettled.id} of this invoice is ${unsettled.status === 'stamping' ? 'still being stamped' : 'being cancelled'}; the balance depends on its outcome, retry once it settles`,
    );
  }
  return notes.reduce((sum, n) => sum + toMinorUnits(n.monto ?? '0', decimals), 0);
}

/**
 * Records a payment of a PPD invoice as a `stamping` payment complement. Under the invoice's row lock, in one
 * transaction: the balance check, NumParcialidad, the folio, the timbre and the decrement of `saldo_pendiente`. The
 * balance is in the invoice's currency (ImpSaldoAnt, ImpPagado, ImpSaldoInsoluto); `monto` in monedaP.
 * Two concurrent payments that together overpay therefore see each other: exactly one gets through. A payment that
 * ends `stamp_failed` gives its amount back (recordStampFailure).
 */
export async function createPaymentDocument(
  em: EntityManager,
  deps: StampingDeps,
  scope: Scope,
  invoiceId: string,
  body: PaymentCreate,
  idempotencyKey?: string,
): Promise<DocumentRow> {
  const now = deps.now?.() ?? new Date();
  const invoice = await loadDocument(em, scope, invoiceId, 'invoice');
  assertMerchantAccess(scope, invoice.merchant_id);
  const receiver = await receiverOfPayment(em, scope, invoice, body);
  await deps.catalogs.index();
  const { issues, payment } = checkPaymentRequest(body, deps.catalogs.lookup, { moneda: invoice.currency });
  if (!payment)
    throw new ValidationError(
      `The payment is invalid: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`,
      issues,
    );
  const decimals = payment.invoiceDecimals;
  const units = (amount: number): string => `${fromMinorUnits(amount, decimals)} ${invoice.currency}`;
  // Where an overpayment is named: the field that set what the invoice is paid.
  const paidPath =
    body.impPagado !== undefined ? '/impPagado' : payment.equivalenciaDR ? '/equivalenciaDR' : '/monto';
  const nowLocal = formatFecha(now);
  const fechaPago = body.fechaPago ?? nowLocal;
  if (fechaPago > nowLocal) {
    throw ValidationError.field(
      '/fechaPago',
      `must not be in the future (now is ${nowLocal} in Mexico City): a complement records money already received`,
    );
  }
  const merchant = await resolveStampingMerchant(em, scope, invoice.merchant_id, now);

  return em.transactional(async (tx) => {
    const locked = await lockInvoice(tx, scope, invoiceId);
    const live = await livePayments(tx, invoiceId);
    // A payment being cancelled still counts, but will give its amount back: a new installment now would carry an
    // ImpSaldoAnt (and a NumParcialidad) that its outcome makes wrong either way.
    const cancelling = live.find(
      (p) =>
        p.status === 'cancel_pending' || (p.cancellation as { status?: string } | null)?.status === 'pending',
    );
    if (cancelling) {
      throw ValidationError.notYet(
        '/params/id',
        `installment ${cancelling.num_parcialidad} (${cancelling.id}) of this invoice is being cancelled; wait for its outcome`,
      );
    }
    const saldo = checkPayable(locked, decimals);
    const paid = toMinorUnits(payment.impPagado, decimals);
    if (paid > saldo) {
      throw ValidationError.field(
        paidPath,
        `pays ${units(paid)}, more than the outstanding balance of ${units(saldo)}`,
      );
    }
    // Likewise an installment still stamping: if it ends `stamp_failed` its amount comes back, and a later installment
    // would already carry a balance that assumed it was paid.
    const stamping = live.find((p) => p.status === 'stamping');
    if (stamping) {
      throw ValidationError.notYet(
        '/params/id',
        `installment ${stamping.num_parcialidad} (${stamping.id}) of this invoice is still being stamped; retry once it is stamped`,
      );
    }
    const credited = await creditedAmount(tx, invoiceId, decimals);
    const expected = nextParcialidad(live);
    if (body.numParcialidad !== undefined && body.numParcialidad !== expected) {
      throw ValidationError.field(
        '/numParcialidad',
        `out of sequence: the next installment of this invoice is ${expected}`,
      );
    }

    let computed!: ReturnType<typeof computePayment>;
    const row = await storeNewDocument(
      tx,
      deps.config,
      scope,
      { type: 'payment', merchant, idempotencyKey },
      (_id, folio) => {
        const input: PaymentInput = {
          issuer: {
            rfc: merchant.rfc,
            legalName: merchant.legalName,
            regimenFiscal: merchant.regimenFiscal,
            zip: merchant.zip,
          },
          receiver: receiver.receiver,
          serie: merchant.serie,
          folio,
          invoice: { ...relatedInvoiceOf(locked), moneda: locked.currency, currencyDecimals: decimals },
          monto: payment.monto,
          monedaP: payment.monedaP,
          monedaPDecimals: payment.monedaPDecimals,
          ...(payment.tipoCambioP ? { tipoCambioP: payment.tipoCambioP } : {}),
          ...(payment.equivalenciaDR ? { equivalenciaDR: payment.equivalenciaDR } : {}),
          impPagado: payment.impPagado,
          numParcialidad: expected,
          saldoAnterior: fromMinorUnits(saldo, decimals),
          fechaPago,
          formaPago: body.formaPago,
          ...(credited > 0 ? { credited: fromMinorUnits(credited, decimals) } : {}),
          previousInstallments: previousInstallments(live, locked.uuid!),
        };
        computed = computePayment(input);
        return {
          folioText: null,
          formaPago: body.formaPago,
          usoCfdi: 'CP01',
          // The currency of `monto`; the balances are in the invoice's (the view says which).
          currency: payment.monedaP,
          receiver: receiver.receiver,
          customerId: receiver.customerId,
          // The P document itself has SubTotal and Total 0 (the SAT status query is keyed on that Total).
          subtotal: '0',
          discount: '0',
          total: '0',
          invoiceId,
          numParcialidad: expected,
          monto: computed.monto,
          fechaPago,
          saldoAnterior: computed.impSaldoAnt,
          saldoInsoluto: computed.impSaldoInsoluto,
          input,
        };
      },
    );
    await reduceInvoiceBalance(tx, invoiceId, computed.impPagado);
    return row;
  });
}
