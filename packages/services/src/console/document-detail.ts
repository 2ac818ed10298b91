import type { EntityManager } from '@cfdi/db';
import { computeInvoice, invoiceTaxGroups, type ConceptsInput, type TaxGroup } from '@cfdi/cfdi';
import type { Scope } from '../scope';
import type { DocumentRow } from '../documents/document-row';
import { selectDocumentDeliveries } from '../emails/email-delivery-repository';

export interface DetailItem {
  description: string;
  quantity: string;
  unitPrice: string;
  amount: string;
}

export interface DetailEmail {
  id: string;
  recipients: string[];
  status: 'queued' | 'sent' | 'failed';
  trigger: string;
  at: string;
}

/** What a document's page shows beyond the row: its lines, its taxes per rate and the e-mails that carried it. */
export interface DocumentDetail {
  items: DetailItem[];
  taxes: TaxGroup[];
  emails: DetailEmail[];
}

/**
 * Lines as the tax engine computed them from the stored input (the input the XML was built from); taxes per rate as
 * the stamped XML carries them (document-level Traslados), so the page shows what the SAT received.
 */
export async function documentDetail(
  em: EntityManager,
  scope: Scope,
  row: DocumentRow,
): Promise<DocumentDetail> {
  const invoice = row.type === 'invoice';
  const items = invoice
    ? computeInvoice(row.input as unknown as ConceptsInput).concepts.map((c) => ({
        description: c.descripcion,
        quantity: c.cantidad,
        unitPrice: c.valorUnitario,
        amount: c.importe,
      }))
    : [];
  const taxes = invoice && row.stamped_xml ? invoiceTaxGroups(row.stamped_xml) : [];
  const emails = await selectDocumentDeliveries(em, scope, row.id);
  return { items, taxes, emails };
}
