import { Badge } from '@radix-ui/themes';
import type { ReceiptStatus } from '@cfdi/services';

/** A receipt's status as a badge: open ones stand out, cancelled ones are grey. */
export function ReceiptStatusBadge({ status, label }: { status: ReceiptStatus; label: string }) {
  const color = ({ open: 'blue', invoiced: 'green', in_global: 'green', cancelled: 'gray' } as const)[status];
  return (
    <Badge highContrast color={color} data-testid="receipt-status">
      {label}
    </Badge>
  );
}
