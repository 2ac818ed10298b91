import type { McpTool } from '../tool';
import { documentTools } from '../../kinds/tools';
import { recordTools } from '../../records/tools';
import { globalInvoiceTool, receiptInvoiceTool } from '../../records/receipt-invoice-routes';
import { accountTools } from './account';
import { catalogTools } from './catalogs';
import { emailTools } from './emails';

/**
 * Every tool the server lists (39): the spec's 18 in its listing order with the drafts' two and the withholding
 * certificates' four among the documents' (see
 * kinds/), then e-mail, the account and catalog tools, then the saved records' (see records/) and receipts' invoices.
 */
export const MCP_TOOLS: readonly McpTool[] = [
  ...documentTools(),
  ...emailTools,
  ...accountTools,
  ...catalogTools,
  ...recordTools(),
  receiptInvoiceTool(),
  globalInvoiceTool(),
];
