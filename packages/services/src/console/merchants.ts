import type { EntityManager } from '@cfdi/db';
import { toCsdView, type CsdView } from '../merchants/merchant-view';
import {
  merchantCountedPage,
  selectMerchantChoices,
  type MerchantRow,
} from '../merchants/merchant-repository';
import type { Scope } from '../scope';
import type { CountedPage, ListWindow } from '../pagination';

/** The console warns this many days before a merchant's CSD stops being usable for stamping. */
export const CSD_EXPIRY_WARNING_DAYS = 30;

export interface ConsoleMerchant {
  id: string;
  rfc: string;
  legalName: string;
  serie: string;
  csd: CsdView | null;
  /** The CSD is active but expires within CSD_EXPIRY_WARNING_DAYS. */
  csdExpiresSoon: boolean;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The scope's merchants (a user limited to some sees only those) with their CSD status, by legal name. */
export async function listConsoleMerchants(
  em: EntityManager,
  scope: Scope,
  now: Date,
): Promise<ConsoleMerchant[]> {
  return (await consoleMerchantsPage(em, scope, now, { limit: 500, offset: 0 })).rows;
}

/** One numbered page of the scope's merchants, by legal name, and how many there are (the merchants page). */
export async function consoleMerchantsPage(
  em: EntityManager,
  scope: Scope,
  now: Date,
  window: ListWindow,
): Promise<CountedPage<ConsoleMerchant>> {
  if (scope.merchantIds?.length === 0) return { rows: [], total: 0, capped: false };
  const page = await merchantCountedPage(em, scope, window);
  return { ...page, rows: page.rows.map((row) => toConsoleMerchant(row, now)) };
}

function toConsoleMerchant(row: MerchantRow, now: Date): ConsoleMerchant {
  const csd = toCsdView(row, now);
  const msLeft = csd ? new Date(csd.validTo).getTime() - now.getTime() : 0;
  return {
    id: row.id,
    rfc: row.rfc,
    legalName: row.legal_name,
    serie: row.serie,
    csd,
    csdExpiresSoon: csd?.status === 'active' && msLeft < CSD_EXPIRY_WARNING_DAYS * DAY_MS,
  };
}

export interface MerchantChoice {
  id: string;
  accountId: string;
  rfc: string;
  legalName: string;
  livemode: boolean;
}

/** Merchants an admin can limit a console user to, for the accounts the users page offers (newest first, as there). */
export async function listMerchantChoices(
  em: EntityManager,
  accountIds: string[],
): Promise<MerchantChoice[]> {
  if (!accountIds.length) return [];
  const rows = await selectMerchantChoices(em, accountIds);
  return rows.map((row) => ({
    id: row.id,
    accountId: row.account_id,
    rfc: row.rfc,
    legalName: row.legal_name,
    livemode: row.livemode,
  }));
}
