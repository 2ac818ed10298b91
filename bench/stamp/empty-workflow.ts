// bench/stamp reference mode "empty workflow": the stamp's update-with-start answered by a workflow that returns at
// once, i.e. what Temporal alone costs a stamp (server, client and worker plumbing). Bench-only.
import { condition, allHandlersFinished, setHandler } from '@temporalio/workflow';
import { stampOutcomeUpdate, type StampOutcome, type StampWorkflowInput } from '@cfdi/temporal-contract';

/** A stamped invoice as the recording would carry it, of the size a one-item invoice has (nothing is stored). */
const stamped = (documentId: string): StampOutcome => ({
  outcome: 'stamped',
  document: {
    id: documentId,
    account_id: 'acct_bench',
    livemode: false,
    merchant_id: 'mch_bench',
    type: 'invoice',
    kind: 'nominal',
    status: 'stamped',
    serie: 'A',
    folio: '1',
    folio_text: null,
    metodo_pago: 'PUE',
    forma_pago: '03',
    uso_cfdi: 'G03',
    currency: 'MXN',
    subtotal: '1000.00',
    discount: '0.00',
    total: '1160.00',
    saldo_pendiente: null,
    receiver: { rfc: 'XAXX010101000', name: 'PUBLICO EN GENERAL', zip: '64000', regimenFiscal: '616' },
    tipo_relacion: null,
    related_uuid: null,
    related_invoice_id: null,
    invoice_id: null,
    num_parcialidad: null,
    monto: null,
    fecha_pago: null,
    saldo_anterior: null,
    saldo_insoluto: null,
    input: {},
    request: null,
    fecha: '2026-01-01T00:00:00',
    uuid: '00000000-0000-0000-0000-000000000000',
    stamped_at: '2026-01-01T00:00:01Z',
    sat_code: null,
    failure_detail: null,
    needs_reconciliation: false,
    reservation_id: null,
    reservation_state: 'confirmed',
    files_status: 'pending',
    files: null,
    cancellation: null,
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:01Z',
  },
});

export async function emptyStampWorkflow(input: StampWorkflowInput): Promise<void> {
  setHandler(stampOutcomeUpdate, () => stamped(input.documentId));
  await condition(allHandlersFinished);
}
