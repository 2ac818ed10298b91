/**
 * The published exchange rates' SQL (`published_exchange_rates`), parameters bound by the driver. The service checks
 * the rates and calls these functions; it never writes SQL on the table itself.
 */
import type { EntityManager } from '@cfdi/db';
import { MEXICO_CITY } from '../time';
import { firstRow } from '../sql';

export interface PublishedRateRow {
  moneda: string;
  published_on: string;
  rate: string;
  source: string;
}

/** Records rates, replacing a currency's rate of the same day (a correction): one statement, all or none. */
export async function upsertPublishedRates(
  em: EntityManager,
  rows: ReadonlyArray<{ moneda: string; publishedOn: string; rate: string; source: string }>,
): Promise<void> {
  await em.execute(
    `insert into published_exchange_rates (moneda, published_on, rate, source)
     select * from unnest(?::text[], ?::date[], ?::numeric[], ?::text[])
     on conflict (moneda, published_on) do update
       set rate = excluded.rate, source = excluded.source, recorded_at = now()`,
    [
      rows.map((r) => r.moneda),
      rows.map((r) => r.publishedOn),
      rows.map((r) => r.rate),
      rows.map((r) => r.source),
    ],
  );
}

/** The latest rate of `moneda` published in the `lookbackDays` days up to `at`'s Mexico City day. */
export function selectLatestPublishedRate(
  em: EntityManager,
  moneda: string,
  at: Date,
  lookbackDays: number,
): Promise<Pick<PublishedRateRow, 'rate' | 'published_on'> | undefined> {
  return firstRow(
    em,
    `select rate::text as rate, to_char(published_on, 'YYYY-MM-DD') as published_on
       from published_exchange_rates
      where moneda = ? and published_on <= (?::timestamptz at time zone '${MEXICO_CITY}')::date
        and published_on > (?::timestamptz at time zone '${MEXICO_CITY}')::date - ${lookbackDays}
      order by published_on desc limit 1`,
    [moneda, at.toISOString(), at.toISOString()],
  );
}

/** The recorded rates (of one currency, when given), newest first. */
export function selectPublishedRates(
  em: EntityManager,
  options: { moneda?: string; limit: number },
): Promise<PublishedRateRow[]> {
  return em.execute(
    `select moneda, to_char(published_on, 'YYYY-MM-DD') as published_on, rate::text as rate, source
       from published_exchange_rates
      where (?::text is null or moneda = ?)
      order by published_on desc, moneda limit ?`,
    [options.moneda ?? null, options.moneda ?? null, options.limit],
  );
}
