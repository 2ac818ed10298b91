import { newId, type EntityManager } from '@cfdi/db';
import { ForbiddenError, NotFoundError, ValidationError, type FieldError } from '../errors';
import type { Scope } from '../scope';
import { isoTimestamp } from '../time';
import { findMerchant } from './merchant-access';
import { regimenProblem, rfcProblem, serieProblem } from './merchant-rules';
import {
  MERCHANT_SELECT,
  toMerchantIssuer,
  toMerchantView,
  type MerchantIssuer,
  type MerchantRow,
  type MerchantView,
  type ViewContext,
} from './merchant-view';
import { Conditions, keysetPage, listAnswer } from '../pagination';
import { addressErrors, distinctAddresses } from '../emails/addresses';

export const DEFAULT_SERIE = 'A';

export interface MerchantCreate {
  rfc: string;
  legalName: string;
  regimenFiscal: string;
  zip: string;
  serie?: string;
  defaultClaveProdServ?: string | null;
  defaultClaveUnidad?: string | null;
  /** IMSS registro patronal used by payroll receipts of subordinate employees that do not send one. */
  registroPatronal?: string | null;
  /** Registered in the border-region stimulus (IVA 8 %); default false. */
  borderRegionStimulus?: boolean;
  /** E-mail each stamped document and each cancellation on its own (default false). */
  autoEmail?: boolean;
  /** Addresses copied on every e-mail of the merchant's documents (at most 10). */
  emailCopyTo?: string[];
}

/** Everything but the RFC, which identifies the issuer to the SAT and the PAC and so never changes. */
export type MerchantUpdate = Partial<Omit<MerchantCreate, 'rfc'>>;

export interface MerchantContext extends ViewContext {
  em: EntityManager;
}

function reject(problems: (FieldError | undefined)[]): void {
  const errors = problems.filter((p): p is FieldError => p !== undefined);
  if (errors.length)
    throw new ValidationError(errors.map((e) => `${e.path} ${e.message}`).join('; '), errors);
}

export async function createMerchant(
  ctx: MerchantContext,
  scope: Scope,
  input: MerchantCreate,
): Promise<MerchantView> {
  // A restricted key manages only the merchants it names; a new merchant would be outside them by definition.
  if (scope.merchantIds)
    throw new ForbiddenError('This API key is restricted to some merchants and cannot create merchants.');
  const rfc = rfcProblem(input.rfc);
  reject([
    rfc,
    rfc ? undefined : regimenProblem(input.regimenFiscal, input.rfc),
    serieProblem(input.serie),
    ...addressErrors(input.emailCopyTo ?? [], '/emailCopyTo'),
  ]);
  const id = newId('mch');
  await ctx.em.execute(
    `insert into merchants (id, account_id, livemode, rfc, legal_name, regimen_fiscal, zip, serie, default_clave_prod_serv, default_clave_unidad,
       registro_patronal, border_region_stimulus, auto_email, email_copy_to)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::text[])`,
    [
      id,
      scope.accountId,
      scope.livemode,
      input.rfc,
      input.legalName,
      input.regimenFiscal,
      input.zip,
      input.serie ?? DEFAULT_SERIE,
      input.defaultClaveProdServ ?? null,
      input.defaultClaveUnidad ?? null,
      input.registroPatronal ?? null,
      input.borderRegionStimulus ?? false,
      input.autoEmail ?? false,
      distinctAddresses(input.emailCopyTo ?? []),
    ],
  );
  return retrieveMerchant(ctx, scope, id);
}

export async function retrieveMerchant(
  ctx: MerchantContext,
  scope: Scope,
  id: string,
): Promise<MerchantView> {
  return toMerchantView(await findMerchant(ctx.em, scope, id), ctx);
}

const COLUMNS: Record<keyof MerchantUpdate, string> = {
  legalName: 'legal_name',
  regimenFiscal: 'regimen_fiscal',
  zip: 'zip',
  serie: 'serie',
  defaultClaveProdServ: 'default_clave_prod_serv',
  defaultClaveUnidad: 'default_clave_unidad',
  registroPatronal: 'registro_patronal',
  borderRegionStimulus: 'border_region_stimulus',
  autoEmail: 'auto_email',
  emailCopyTo: 'email_copy_to',
};

export async function updateMerchant(
  ctx: MerchantContext,
  scope: Scope,
  id: string,
  input: MerchantUpdate,
): Promise<MerchantView> {
  const current = await findMerchant(ctx.em, scope, id);
  // Every field's problem at once, so a form can show each under its field.
  reject([
    input.regimenFiscal !== undefined ? regimenProblem(input.regimenFiscal, current.rfc) : undefined,
    serieProblem(input.serie),
    ...(input.emailCopyTo !== undefined ? addressErrors(input.emailCopyTo, '/emailCopyTo') : []),
  ]);
  if (input.emailCopyTo !== undefined)
    input = { ...input, emailCopyTo: distinctAddresses(input.emailCopyTo) };
  const fields = (Object.keys(COLUMNS) as (keyof MerchantUpdate)[]).filter((f) => input[f] !== undefined);
  if (fields.length) {
    const updated: unknown[] = await ctx.em.execute(
      `update merchants set ${fields.map((f) => `${COLUMNS[f]} = ?`).join(', ')}, updated_at = now()
        where id = ? and account_id = ? and livemode = ? and deleted_at is null returning id`,
      [...fields.map((f) => input[f] ?? null), id, scope.accountId, scope.livemode],
    );
    // Deleted between the read and the write.
    if (!updated.length) throw new NotFoundError('merchant', id);
  }
  return retrieveMerchant(ctx, scope, id);
}

/** Soft delete: the row stays for its documents; the merchant disappears from reads and can no longer stamp. */
export async function deleteMerchant(
  ctx: MerchantContext,
  scope: Scope,
  id: string,
): Promise<{ id: string; object: 'merchant'; deleted: true }> {
  await findMerchant(ctx.em, scope, id);
  const deleted: unknown[] = await ctx.em.execute(
    `update merchants set deleted_at = now(), updated_at = now()
      where id = ? and account_id = ? and livemode = ? and deleted_at is null returning id`,
    [id, scope.accountId, scope.livemode],
  );
  if (!deleted.length) throw new NotFoundError('merchant', id);
  return { id, object: 'merchant', deleted: true };
}

export interface ListMerchantsInput {
  limit: number;
  startingAfter?: string;
}

export async function listMerchants(ctx: MerchantContext, scope: Scope, input: ListMerchantsInput) {
  const empty = { object: 'list' as const, data: [] as MerchantView[], has_more: false };
  if (scope.merchantIds?.length === 0) return empty;
  const where = new Conditions().add('m.deleted_at is null');
  if (scope.merchantIds) where.add('m.id = any(?)', scope.merchantIds);
  // Deleted merchants still count as cursors (the helper checks account and mode only): deleting the last item
  // of a page must not break the next page.
  const page = await keysetPage<MerchantRow>(
    ctx.em,
    { select: MERCHANT_SELECT, table: 'merchants', alias: 'm', scope, where, noun: 'merchant' },
    input,
  );
  return listAnswer(page, (row) => toMerchantView(row, ctx));
}

/** The issuer as stamping needs it. */
export interface MerchantForStamping extends MerchantIssuer {
  id: string;
  hasCsd: boolean;
  /** End of the CSD's validity (ISO), or null without a CSD. */
  csdValidTo: string | null;
}

/** For new documents: 404 for absent or deleted merchants, 403 outside a restricted key's merchants. */
export async function getStampingMerchant(
  em: EntityManager,
  scope: Scope,
  id: string,
): Promise<MerchantForStamping> {
  const row = await findMerchant(em, scope, id);
  return {
    id: row.id,
    ...toMerchantIssuer(row),
    hasCsd: row.csd_serial_number !== null,
    csdValidTo: row.csd_valid_to === null ? null : isoTimestamp(row.csd_valid_to),
  };
}
