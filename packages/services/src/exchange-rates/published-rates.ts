import type { PublishedRate } from '@cfdi/cfdi';
import type { EntityManager } from '@cfdi/db';
import { ValidationError, type FieldError } from '../errors';
import {
  selectLatestPublishedRate,
  selectPublishedRates,
  upsertPublishedRates,
} from './exchange-rate-repository';

/**
 * The exchange rates published for foreign currencies, which the operator records (`cfdi exchange-rates`): the centre
 * of c_Moneda's variation band (CFDI40118). The SAT takes the rate Banxico publishes in the DOF; a document may be
 * issued on a day with no publication (weekends, holidays), so the latest rate of the 7 days up to its date counts.
 * Without one, the band is not checked: a rate the PAC refuses is refunded like any refusal.
 */
export interface PublishedRateRecord {
  moneda: string;
  /** YYYY-MM-DD. */
  publishedOn: string;
  /** MXN per unit, decimal text with up to 6 decimals. */
  rate: string;
  /** Where the operator took it from (e.g. "DOF", "banxico:SF43718"). */
  source: string;
}

const MONEDA = /^[A-Z]{3}$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const RATE = /^[0-9]{1,18}(\.[0-9]{1,6})?$/;
/** How far back a publication still counts for a document's day. */
const LOOKBACK_DAYS = 7;

/** The problems of rates to record, each with its path (`/0/rate`): the CLI shows them as a file's lines. */
export function publishedRateProblems(records: readonly PublishedRateRecord[]): FieldError[] {
  const problems: FieldError[] = [];
  records.forEach((r, i) => {
    if (!MONEDA.test(r.moneda) || r.moneda === 'MXN' || r.moneda === 'XXX')
      problems.push({
        path: `/${i}/moneda`,
        message: `${r.moneda} is not a foreign c_Moneda key (USD, EUR…)`,
      });
    if (!DAY.test(r.publishedOn) || Number.isNaN(Date.parse(`${r.publishedOn}T00:00:00Z`)))
      problems.push({ path: `/${i}/publishedOn`, message: `${r.publishedOn} is not a date (YYYY-MM-DD)` });
    if (!RATE.test(r.rate) || Number(r.rate) <= 0)
      problems.push({
        path: `/${i}/rate`,
        message: `${r.rate} is not a rate: MXN per unit, more than 0, up to 6 decimals`,
      });
    if (r.source.length < 1 || r.source.length > 100)
      problems.push({ path: `/${i}/source`, message: 'must be 1 to 100 characters' });
  });
  return problems;
}

/** Records rates, replacing a currency's rate of the same day (a correction): one statement, all or none. */
export async function recordPublishedRates(
  em: EntityManager,
  records: readonly PublishedRateRecord[],
): Promise<number> {
  const problems = publishedRateProblems(records);
  if (problems.length > 0) throw new ValidationError('Some exchange rates are invalid.', problems);
  if (records.length === 0) return 0;
  await upsertPublishedRates(em, records);
  return records.length;
}

/** The rate that centres the band of a document in `moneda` issued at `at` (Mexico City's day), if recorded. */
export async function publishedRateFor(
  em: EntityManager,
  moneda: unknown,
  at: Date,
): Promise<PublishedRate | undefined> {
  if (typeof moneda !== 'string' || !MONEDA.test(moneda) || moneda === 'MXN' || moneda === 'XXX')
    return undefined;
  const row = await selectLatestPublishedRate(em, moneda, at, LOOKBACK_DAYS);
  return row && { rate: trimRate(row.rate), publishedOn: row.published_on };
}

/** The recorded rates, newest first (the CLI's list). */
export async function listPublishedRates(
  em: EntityManager,
  options: { moneda?: string; limit: number },
): Promise<PublishedRateRecord[]> {
  const rows = await selectPublishedRates(em, options);
  return rows.map((r) => ({
    moneda: r.moneda,
    publishedOn: r.published_on,
    rate: trimRate(r.rate),
    source: r.source,
  }));
}

/** numeric(24,6) as text without its trailing zeros: 17.234500 → 17.2345, 20.000000 → 20. */
function trimRate(text: string): string {
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}
