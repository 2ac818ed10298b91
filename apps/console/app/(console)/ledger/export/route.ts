import { AppError, searchTransactions, transactionsCsv } from '@cfdi/services';
import { em } from '../../../../src/platform';
import { currentSession } from '../../../../src/session';
import { ledgerSearchFrom } from '../../../../src/search-params';
import { currentWorkspace } from '../../../../src/workspace';

export const dynamic = 'force-dynamic';

/**
 * The filtered ledger as CSV, every matching row (not only the page's). Types stay machine values (`consume`, not
 * "Consumo de timbre"): the file is read by spreadsheets and scripts, and matches the API's transactions whatever the language.
 */
export async function GET(request: Request): Promise<Response> {
  if (!(await currentSession())) return new Response('Sign in first.', { status: 401 });
  const { scope } = await currentWorkspace();
  if (!scope) return new Response('No account.', { status: 404 });
  const search = ledgerSearchFrom(Object.fromEntries(new URL(request.url).searchParams));
  try {
    const rows = await searchTransactions(await em(), scope, search, null);
    return new Response(transactionsCsv(rows), {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="ledger-${scope.accountId}-${scope.livemode ? 'live' : 'test'}.csv"`,
        'cache-control': 'private, no-store',
      },
    });
  } catch (error) {
    if (error instanceof AppError) return new Response(error.message, { status: error.status });
    throw error;
  }
}
