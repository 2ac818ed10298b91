import { Migration20261121000000Foundation } from './Migration20261121000000Foundation';
import { Migration20261121010000Catalogs } from './Migration20261121010000Catalogs';
import { Migration20261121020000Merchants } from './Migration20261121020000Merchants';
import { Migration20261121030000Documents } from './Migration20261121030000Documents';
import { Migration20261121040000Cancellations } from './Migration20261121040000Cancellations';
import { Migration20261121050000LedgerAudits } from './Migration20261121050000LedgerAudits';
import { Migration20261121060000MonthlyUsage } from './Migration20261121060000MonthlyUsage';
import { Migration20261121070000StalledWorkIndexes } from './Migration20261121070000StalledWorkIndexes';
import { Migration20261121080000ReconciliationOnce } from './Migration20261121080000ReconciliationOnce';
import { Migration20261125100000SealedFingerprints } from './Migration20261125100000SealedFingerprints';
import { Migration20261125200000BorderRegionStimulus } from './Migration20261125200000BorderRegionStimulus';
import { Migration20261125400000Webhooks } from './Migration20261125400000Webhooks';
import { Migration20261125500000PayrollReceipts } from './Migration20261125500000PayrollReceipts';
import { Migration20261125600000Purchases } from './Migration20261125600000Purchases';
import { Migration20261125700000ConsoleUsersOAuth } from './Migration20261125700000ConsoleUsersOAuth';
import { Migration20261126300000ConsoleSessionsAudit } from './Migration20261126300000ConsoleSessionsAudit';
import { Migration20261126400000WebhookFirstAttempt } from './Migration20261126400000WebhookFirstAttempt';
import { Migration20261128340000OAuthCodeGrant } from './Migration20261128340000OAuthCodeGrant';
import { Migration20261128400000Drafts } from './Migration20261128400000Drafts';
import { Migration20261128500000EmailDeliveries } from './Migration20261128500000EmailDeliveries';
import { Migration20261128500000CustomersProducts } from './Migration20261128500000CustomersProducts';
import { Migration20261128600000ReadPathsAtScale } from './Migration20261128600000ReadPathsAtScale';
import { Migration20261128700000Receipts } from './Migration20261128700000Receipts';
import { Migration20261128800000LedgerAuditCheckpoints } from './Migration20261128800000LedgerAuditCheckpoints';
import { Migration20261128810000GlobalInvoices } from './Migration20261128810000GlobalInvoices';
import { Migration20261128900000DocumentExports } from './Migration20261128900000DocumentExports';
import { Migration20261128910000LowBalanceAlerts } from './Migration20261128910000LowBalanceAlerts';
import { Migration20261128920000Retentions } from './Migration20261128920000Retentions';
import { Migration20261128930000MerchantPdfLook } from './Migration20261128930000MerchantPdfLook';
import { Migration20261128940000Traslados } from './Migration20261128940000Traslados';
import { Migration20261128980000PublishedExchangeRates } from './Migration20261128980000PublishedExchangeRates';
import { Migration20261129000000ReceivableTotals } from './Migration20261129000000ReceivableTotals';

/**
 * Every migration, in order. Listed explicitly (not discovered from disk) so they run the same
 * under tsx, jest and bundlers. Append new migrations at the end.
 */
export const migrationsList = [
  { name: 'Migration20261121000000Foundation', class: Migration20261121000000Foundation },
  { name: 'Migration20261121010000Catalogs', class: Migration20261121010000Catalogs },
  { name: 'Migration20261121020000Merchants', class: Migration20261121020000Merchants },
  { name: 'Migration20261121030000Documents', class: Migration20261121030000Documents },
  { name: 'Migration20261121040000Cancellations', class: Migration20261121040000Cancellations },
  { name: 'Migration20261121050000LedgerAudits', class: Migration20261121050000LedgerAudits },
  { name: 'Migration20261121060000MonthlyUsage', class: Migration20261121060000MonthlyUsage },
  { name: 'Migration20261121070000StalledWorkIndexes', class: Migration20261121070000StalledWorkIndexes },
  { name: 'Migration20261121080000ReconciliationOnce', class: Migration20261121080000ReconciliationOnce },
  { name: 'Migration20261125100000SealedFingerprints', class: Migration20261125100000SealedFingerprints },
  { name: 'Migration20261125200000BorderRegionStimulus', class: Migration20261125200000BorderRegionStimulus },
  { name: 'Migration20261125400000Webhooks', class: Migration20261125400000Webhooks },
  { name: 'Migration20261125500000PayrollReceipts', class: Migration20261125500000PayrollReceipts },
  { name: 'Migration20261125600000Purchases', class: Migration20261125600000Purchases },
  { name: 'Migration20261125700000ConsoleUsersOAuth', class: Migration20261125700000ConsoleUsersOAuth },
  { name: 'Migration20261126300000ConsoleSessionsAudit', class: Migration20261126300000ConsoleSessionsAudit },
  { name: 'Migration20261126400000WebhookFirstAttempt', class: Migration20261126400000WebhookFirstAttempt },
  { name: 'Migration20261128340000OAuthCodeGrant', class: Migration20261128340000OAuthCodeGrant },
  { name: 'Migration20261128400000Drafts', class: Migration20261128400000Drafts },
  { name: 'Migration20261128500000EmailDeliveries', class: Migration20261128500000EmailDeliveries },
  { name: 'Migration20261128500000CustomersProducts', class: Migration20261128500000CustomersProducts },
  { name: 'Migration20261128600000ReadPathsAtScale', class: Migration20261128600000ReadPathsAtScale },
  { name: 'Migration20261128700000Receipts', class: Migration20261128700000Receipts },
  {
    name: 'Migration20261128800000LedgerAuditCheckpoints',
    class: Migration20261128800000LedgerAuditCheckpoints,
  },
  { name: 'Migration20261128810000GlobalInvoices', class: Migration20261128810000GlobalInvoices },
  { name: 'Migration20261128900000DocumentExports', class: Migration20261128900000DocumentExports },
  { name: 'Migration20261128910000LowBalanceAlerts', class: Migration20261128910000LowBalanceAlerts },
  { name: 'Migration20261128920000Retentions', class: Migration20261128920000Retentions },
  { name: 'Migration20261128930000MerchantPdfLook', class: Migration20261128930000MerchantPdfLook },
  { name: 'Migration20261128940000Traslados', class: Migration20261128940000Traslados },
  {
    name: 'Migration20261128980000PublishedExchangeRates',
    class: Migration20261128980000PublishedExchangeRates,
  },
  { name: 'Migration20261129000000ReceivableTotals', class: Migration20261129000000ReceivableTotals },
];
