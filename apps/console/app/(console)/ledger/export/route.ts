import { Readable } from 'node:stream';
import {
  AppError,
  checkLedgerSearch,
  ledgerCsvInPesos,
  searchTransactions,
  transactionsCsv,
} from '@cfdi/services';
import { em } from '../../../../src/platform';
import { currentSession } from '../../../../src/session';
import { ledgerSearchFrom } from '../../../../src/search-params';
import { currentWorkspace } from '../../../../src/workspace';

export const dynamic = 'force-dynamic';

/**
 * `units=pesos`: the people's CSV (pesos, Mexico City time, UUID and serie-folio; see ledger-export.ts), streamed.
 * Otherwise the filtered ledger as CSV, every matching row (not only the page's). Types stay machine values (`consume`, not
 * "Consumo de timbre"): the file is read by spreadsheets and scripts, and matches the API's transactions whatever the language.
 */
export async function GET(request: Request): Promise<Response> {
  if (!(await currentSession())) return new Response('Sign in first.', { status: 401 });
  const { scope } = await currentWorkspace();
  if (!scope) return new Response('No account.', { status: 404 });
  const query = new URL(request.url).searchParams;
  const search = ledgerSearchFrom(Object.fromEntries(query));
  const filename = `ledger-${scope.accountId}-${scope.livemode ? 'live' : 'test'}`;
  try {
    if (query.get('units') === 'pesos') {
      checkLedgerSearch(search); // a bad filter is a 400 before the download starts
      const lines = Readable.from(ledgerCsvInPesos(await em(), scope, search));
      return new Response(Readable.toWeb(lines) as ReadableStream, {
        headers: {
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition': `attachment; filename="${filename}-pesos.csv"`,
          'cache-control': 'private, no-store',
        },
      });
    }
    const rows = await searchTransactions(await em(), scope, search, null);
    return new Response(transactionsCsv(rows), {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="${filename}.csv"`,
        'cache-control': 'private, no-store',
      },
    });
  } catch (error) {
    if (error instanceof AppError) return new Response(error.message, { status: error.status });
    throw error;
  }
}
