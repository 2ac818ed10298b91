import type { McpTool } from '../tool';
import { accountTools } from './account';
import { catalogTools } from './catalogs';
import { invoiceTools } from './invoices';
import { nominaTools } from './nominas';
import { paymentTools } from './payments';

/** Every tool the server lists, in the spec's listing order (18 tools). */
export const MCP_TOOLS: readonly McpTool[] = [...invoiceTools, ...paymentTools, ...nominaTools, ...accountTools, ...catalogTools];
