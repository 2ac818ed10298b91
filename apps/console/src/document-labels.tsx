import { Badge } from '@radix-ui/themes';
import { isAwaitingReconciliation, type DocumentRow } from '@cfdi/services';
import { labelOf } from './i18n/format';
import type { DisplayStatus, Messages } from './i18n/messages';

const COLORS: Record<DisplayStatus, 'gray' | 'green' | 'red' | 'orange' | 'amber'> = {
  draft: 'gray',
  stamping: 'gray',
  stamped: 'green',
  stamp_failed: 'red',
  cancel_pending: 'orange',
  cancelled: 'gray',
  needs_reconciliation: 'amber',
};

/** What the kind filter calls a document: an invoice's kind, or the other types themselves (SEARCH_KINDS). */
export const kindOf = (row: Pick<DocumentRow, 'type' | 'kind'>): string =>
  (row.type === 'invoice' && row.kind) || row.type;

const displayStatus = (row: Pick<DocumentRow, 'status' | 'needs_reconciliation'>): DisplayStatus =>
  isAwaitingReconciliation(row) ? 'needs_reconciliation' : row.status;

/** The status badge of the documents list and detail, labelled in the user's language. */
export function DocumentStatusBadge({
  row,
  t,
  size,
  testId,
}: {
  row: Pick<DocumentRow, 'status' | 'needs_reconciliation'>;
  t: Messages;
  size?: '1' | '2';
  testId?: string;
}) {
  const status = displayStatus(row);
  return (
    <Badge highContrast size={size} color={COLORS[status] ?? 'gray'} data-testid={testId}>
      {labelOf(t.documentStatus, status)}
    </Badge>
  );
}
