import { ValidationError } from '../errors';
import type { DocumentRow } from '../documents/document-row';
import { toMinorUnits } from '../centavos';

/**
 * Why an invoice cannot take a payment, as a 400 on the path the spec names; otherwise its outstanding balance in the
 * smallest unit of its currency (`decimals`: 2 for centavos). Called on the locked row, so the answer holds until
 * the transaction ends.
 */
export function checkPayable(invoice: DocumentRow, decimals = 2): number {
  const refuse = (message: string) => ValidationError.field('/params/id', message);
  if (invoice.kind === 'credit_note') throw refuse('a credit note takes no payments');
  if (invoice.metodo_pago !== 'PPD')
    throw refuse(
      `payment complements apply only to PPD invoices; this one is ${invoice.metodo_pago ?? 'PUE'} (paid in one go)`,
    );
  if (invoice.status !== 'stamped')
    throw refuse(`the invoice is ${invoice.status}; only a stamped invoice takes payments`);
  if ((invoice.cancellation as { status?: string } | null)?.status === 'pending') {
    throw refuse('a cancellation of this invoice is being requested; it takes no payments meanwhile');
  }
  const saldo = toMinorUnits(invoice.saldo_pendiente ?? '0', decimals);
  if (saldo <= 0) throw refuse('the invoice is already settled (saldoPendiente 0)');
  return saldo;
}
