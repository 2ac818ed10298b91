import type { DocumentSearch, LedgerSearch } from '@cfdi/services';

export type SearchParams = Record<string, string | string[] | undefined>;

/** One text value of a query parameter; empty means absent. */
export const param = (params: SearchParams, name: string): string | undefined => {
  const value = params[name];
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  return text ? text.slice(0, 200) : undefined;
};

const amount = (text: string | undefined) =>
  text === undefined ? undefined : Number(text.replace(/[$,\s]/g, ''));

/** The query string as the services' search types; the services validate every field. */
export const ledgerSearchFrom = (p: SearchParams): LedgerSearch => ({
  type: param(p, 'type') as LedgerSearch['type'],
  from: param(p, 'from'),
  to: param(p, 'to'),
  reference: param(p, 'reference'),
});

export const documentSearchFrom = (p: SearchParams): DocumentSearch => ({
  uuid: param(p, 'uuid'),
  receiver: param(p, 'receiver'),
  serie: param(p, 'serie'),
  folio: param(p, 'folio'),
  status: param(p, 'status') as DocumentSearch['status'],
  kind: param(p, 'kind') as DocumentSearch['kind'],
  merchantId: param(p, 'merchant'),
  from: param(p, 'from'),
  to: param(p, 'to'),
  minTotal: amount(param(p, 'min')),
  maxTotal: amount(param(p, 'max')),
  withBalance: param(p, 'balance') === '1',
  startingAfter: param(p, 'after'),
});
