import { renderTicketPdf, ticketText } from '@cfdi/cfdi';
import { AppError, receiptTicket } from '@cfdi/services';
import { receiptContext } from '../../../../../../src/records-context';
import { currentSession } from '../../../../../../src/session';
import { currentWorkspace } from '../../../../../../src/workspace';
import { privateFile } from '../../../../../../src/binary-route';

export const dynamic = 'force-dynamic';

/** A receipt's ticket as the API serves it: the 80 mm PDF or the plain text a till prints. */
export async function GET(
  _request: Request,
  { params }: { params: Promise<{ id: string; format: string }> },
): Promise<Response> {
  const { id, format } = await params;
  if (!(await currentSession())) return new Response('Sign in first.', { status: 401 });
  if (format !== 'pdf' && format !== 'txt') return new Response('Not found.', { status: 404 });
  const { scope } = await currentWorkspace();
  if (!scope) return new Response('Not found.', { status: 404 });
  try {
    const { ctx } = await receiptContext();
    const ticket = await receiptTicket(ctx, scope, id);
    if (format === 'txt') return privateFile(ticketText(ticket), 'text/plain; charset=utf-8');
    return privateFile(await renderTicketPdf(ticket), 'application/pdf', `inline; filename="${id}.pdf"`);
  } catch (error) {
    if (error instanceof AppError) return new Response(error.message, { status: error.status });
    throw error;
  }
}
