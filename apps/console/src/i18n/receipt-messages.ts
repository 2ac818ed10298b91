import type { ReceiptStatus } from '@cfdi/services';

/** The texts of the receipts pages (notas de venta), Spanish and English. */
const es = {
  receipts: 'Notas de venta',
  receipt: 'Nota de venta',
  noReceipts: 'No hay notas de venta.',
  branch: 'Sucursal',
  externalId: 'ID externo',
  expires: 'Vence',
  invoice: 'Factura',
  key: 'Clave de facturación',
  selfInvoiceUrl: 'Enlace de autofacturación',
  ticketPdf: 'Ticket (PDF)',
  ticketText: 'Ticket (texto)',
  cancelledAt: 'Cancelada',
  cancel: 'Cancelar nota de venta',
  cancelConfirm:
    '¿Cancelar esta nota de venta? Sale del portal de autofacturación y de toda factura global; no se puede deshacer.',
  cancelConfirmButton: 'Sí, cancelar la nota de venta',
  keepIt: 'No cancelar',
  cancelled: 'Nota de venta cancelada.',
  status: {
    open: 'Abierta',
    invoiced: 'Facturada',
    in_global: 'En factura global',
    cancelled: 'Cancelada',
  } satisfies Record<ReceiptStatus, string>,
};

const en: typeof es = {
  receipts: 'Receipts',
  receipt: 'Receipt',
  noReceipts: 'No receipts.',
  branch: 'Branch',
  externalId: 'External id',
  expires: 'Expires',
  invoice: 'Invoice',
  key: 'Invoicing key',
  selfInvoiceUrl: 'Self-invoicing link',
  ticketPdf: 'Ticket (PDF)',
  ticketText: 'Ticket (text)',
  cancelledAt: 'Cancelled',
  cancel: 'Cancel receipt',
  cancelConfirm:
    'Cancel this receipt? It leaves the self-invoicing portal and every global invoice; this cannot be undone.',
  cancelConfirmButton: 'Yes, cancel the receipt',
  keepIt: 'Keep it',
  cancelled: 'Receipt cancelled.',
  status: {
    open: 'Open',
    invoiced: 'Invoiced',
    in_global: 'In a global invoice',
    cancelled: 'Cancelled',
  },
};

export const RECEIPT_MESSAGES = { es, en };
