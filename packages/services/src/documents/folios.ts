import type { EntityManager } from '@cfdi/db';
import { ValidationError } from '../errors';
import { findMerchant } from '../merchants/merchant-access';
import { serieProblem } from '../merchants/merchant-rules';
import type { Scope } from '../scope';
import { advanceFolio, incrementFolio, selectFolioSequences } from './repository';

/**
 * Next folio of a (merchant, serie): one upsert that increments under the row lock, so folios are unique and
 * never reused (a rolled-back creation leaves a gap, which the SAT allows).
 */
export async function nextFolio(em: EntityManager, merchantId: string, serie: string): Promise<number> {
  return Number(await incrementFolio(em, merchantId, serie));
}

/** A series of a merchant and the folio its next document gets. */
export interface FolioSeries {
  serie: string;
  nextFolio: number;
}

/** Folios are bigint in the database; a console form keeps to ten digits. */
export const MAX_FOLIO = 9_999_999_999;

/** The merchant's series with their next folios: its current series first (1 when unused), then the others used. */
export async function folioSeries(
  em: EntityManager,
  scope: Scope,
  merchantId: string,
): Promise<FolioSeries[]> {
  const merchant = await findMerchant(em, scope, merchantId);
  const rows = await selectFolioSequences(em, merchant.id);
  const current = rows.find((row) => row.serie === merchant.serie);
  return [
    { serie: merchant.serie, nextFolio: Number(current?.last_folio ?? 0) + 1 },
    ...rows
      .filter((row) => row.serie !== merchant.serie)
      .map((row) => ({ serie: row.serie, nextFolio: Number(row.last_folio) + 1 })),
  ];
}

/**
 * Sets the folio the next document of a merchant's series gets (a merchant moving from another system continues its
 * numbering). Only forward: a folio already given stays unique, so `nextFolio` must be above the series' last one
 * (checked and written in one statement under the row lock, so a stamp at the same moment cannot slip below it).
 */
export async function setNextFolio(
  em: EntityManager,
  scope: Scope,
  merchantId: string,
  input: { serie: string; nextFolio: number },
): Promise<FolioSeries> {
  const merchant = await findMerchant(em, scope, merchantId);
  const serie = input.serie.trim();
  const problems = [
    serieProblem(serie),
    Number.isSafeInteger(input.nextFolio) && input.nextFolio >= 1 && input.nextFolio <= MAX_FOLIO
      ? undefined
      : { path: '/nextFolio', message: `must be a whole number from 1 to ${MAX_FOLIO}` },
  ].filter((p) => p !== undefined);
  if (problems.length)
    throw new ValidationError(problems.map((p) => `${p.path} ${p.message}`).join('; '), problems);
  const lastFolio = await advanceFolio(em, merchant.id, serie, input.nextFolio - 1);
  if (lastFolio === undefined) {
    const [used] = await folioSeries(em, scope, merchant.id).then((all) =>
      all.filter((s) => s.serie === serie),
    );
    throw ValidationError.field(
      '/nextFolio',
      `must be above ${used!.nextFolio - 1}, the series' last folio (a folio is never given twice)`,
    );
  }
  return { serie, nextFolio: Number(lastFolio) + 1 };
}
