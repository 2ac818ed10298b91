import { can, searchDocuments, type DocumentRow } from '@cfdi/services';
import { em } from '../../../../src/platform';
import { currentWorkspace } from '../../../../src/workspace';
import { currentLocale } from '../../../../src/i18n/locale';
import { catalogChoices } from '../../../../src/records-context';
import { requireSession } from '../../../../src/session';
import { DocumentActionForms } from './document-action-forms';

/** The stamped invoice this one replaces (relation 04), while it is still to be cancelled with motive 01. */
async function replacedInvoice(row: DocumentRow): Promise<{ id: string; label: string } | null> {
  const related = (row.input as { relatedDocuments?: { tipoRelacion: string; uuids: string[] }[] })
    .relatedDocuments;
  const uuid = related?.find((r) => r.tipoRelacion === '04')?.uuids[0];
  const { scope } = await currentWorkspace();
  if (!uuid || !scope) return null;
  const { rows } = await searchDocuments(await em(), scope, { uuid }, 1);
  const replaced = rows.find(
    (r) =>
      r.uuid === uuid &&
      r.status === 'stamped' &&
      (r.cancellation as { status?: string } | null)?.status !== 'pending',
  );
  return replaced
    ? { id: replaced.id, label: `${replaced.serie}-${replaced.folio_text ?? replaced.folio}` }
    : null;
}

/**
 * What a finance user can do with a stamped document: e-mail it (a withholding certificate is not) and cancel it; for an invoice, issue its credit note
 * or a replacement (substitution), cancel the invoice it replaces, and for a PPD invoice with a balance, record a
 * payment (its complement).
 */
export async function DocumentActions({ row }: { row: DocumentRow }) {
  const { user } = await requireSession();
  if (row.status !== 'stamped' || !can(user, 'documents.issue')) return null;
  const { t } = await currentLocale();
  const invoice = row.type === 'invoice' && row.kind !== 'credit_note';
  const owed = invoice && row.metodo_pago === 'PPD' && Number(row.saldo_pendiente ?? 0) > 0;
  const [{ formas }, replaced] = await Promise.all([catalogChoices(), invoice ? replacedInvoice(row) : null]);
  return (
    <DocumentActionForms
      id={row.id}
      labels={t.issue}
      creditNote={invoice}
      payment={owed ? { balance: row.saldo_pendiente!, currency: row.currency, formas } : null}
      replaces={replaced && row.uuid ? { ...replaced, uuid: row.uuid } : null}
      email={row.type !== 'retention'}
    />
  );
}
