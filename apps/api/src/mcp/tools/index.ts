import type { McpTool } from '../tool';
import { accountTools } from './account';
import { catalogTools } from './catalogs';
import { invoiceTools } from './invoices';
import { paymentTools } from './payments';

/**
 * Every tool the server lists, in listing order. The payroll tools (create_nomina, get_nomina, list_nominas,
 * cancel_nomina) join as one more array built like `paymentTools`, calling the payroll service's operations.
 */
export const MCP_TOOLS: readonly McpTool[] = [...invoiceTools, ...paymentTools, ...accountTools, ...catalogTools];
