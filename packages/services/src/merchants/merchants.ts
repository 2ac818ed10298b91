import { newId, type EntityManager } from '@cfdi/db';
import { ForbiddenError, NotFoundError, ValidationError, type FieldError } from '../errors';
import type { Scope } from '../scope';
import { isoTimestamp } from '../time';
import { findMerchant } from './merchant-access';
import { regimenProblem, rfcProblem, serieProblem } from './merchant-rules';
import {
  toMerchantIssuer,
  toMerchantView,
  type MerchantIssuer,
  type MerchantView,
  type ViewContext,
} from './merchant-view';
import {
  insertMerchant,
  merchantKeysetPage,
  softDeleteMerchant,
  updateMerchantColumns,
  type MerchantColumn,
} from './merchant-repository';
import { listAnswer } from '../pagination';
import { addressErrors, distinctAddresses } from '../emails/addresses';
import type { Periodicidad } from '../receipts/global-period';
import { lookProblems, normalizedLook } from './look-rules';

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
  /** The automatic global invoice of its receipts: off by default, monthly when on without a periodicity. */
  globalInvoice?: { enabled: boolean; periodicity?: Periodicidad };
  /** Days after a receipt's month (or global period) during which its customer may still invoice it (0–60). */
  receiptGraceDays?: number;
  /** `#RRGGBB` (stored lowercase) for the PDFs and the portal; null or absent for the default. */
  brandColor?: string | null;
  /** Printed at the foot of every PDF (≤ 500 characters, ≤ 6 lines); null, absent or blank for none. */
  pdfNote?: string | null;
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
    periodicityProblem(input.globalInvoice, input.regimenFiscal),
    ...lookProblems(input),
  ]);
  input = { ...input, ...normalizedLook(input) };
  const id = newId('mch');
  await insertMerchant(ctx.em, scope, {
    id,
    rfc: input.rfc,
    legal_name: input.legalName,
    regimen_fiscal: input.regimenFiscal,
    zip: input.zip,
    serie: input.serie ?? DEFAULT_SERIE,
    default_clave_prod_serv: input.defaultClaveProdServ ?? null,
    default_clave_unidad: input.defaultClaveUnidad ?? null,
    registro_patronal: input.registroPatronal ?? null,
    border_region_stimulus: input.borderRegionStimulus ?? false,
    auto_email: input.autoEmail ?? false,
    email_copy_to: distinctAddresses(input.emailCopyTo ?? []),
    global_invoice_enabled: input.globalInvoice?.enabled ?? false,
    global_invoice_periodicity: input.globalInvoice?.periodicity ?? DEFAULT_PERIODICITY,
    receipt_grace_days: input.receiptGraceDays ?? 0,
    brand_color: input.brandColor ?? null,
    pdf_note: input.pdfNote ?? null,
  });
  return retrieveMerchant(ctx, scope, id);
}

export async function retrieveMerchant(
  ctx: MerchantContext,
  scope: Scope,
  id: string,
): Promise<MerchantView> {
  return toMerchantView(await findMerchant(ctx.em, scope, id), ctx);
}

/** The global invoice's periodicity when it is turned on without one: monthly, as the receipts' expiry. */
export const DEFAULT_PERIODICITY: Periodicidad = '04';

/** c_Periodicidad 05 (bimonthly) is for issuers of régimen 621 only (CFDI40132). */
function periodicityProblem(
  globalInvoice: MerchantCreate['globalInvoice'],
  regimenFiscal: string,
): FieldError | undefined {
  return globalInvoice?.periodicity === '05' && regimenFiscal !== '621'
    ? {
        path: '/globalInvoice/periodicity',
        message:
          'is 05 (bimonthly), which the SAT allows only to issuers of régimen 621 (Incorporación Fiscal) (CFDI40132)',
      }
    : undefined;
}

const COLUMNS: Record<Exclude<keyof MerchantUpdate, 'globalInvoice'>, MerchantColumn> = {
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
  receiptGraceDays: 'receipt_grace_days',
  brandColor: 'brand_color',
  pdfNote: 'pdf_note',
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
    // Against the régimen the merchant will have: a PATCH may change both at once.
    input.globalInvoice || input.regimenFiscal !== undefined
      ? periodicityProblem(
          {
            enabled: true,
            periodicity: input.globalInvoice?.periodicity ?? current.global_invoice_periodicity,
          },
          input.regimenFiscal ?? current.regimen_fiscal,
        )
      : undefined,
    ...lookProblems(input),
  ]);
  input = { ...input, ...normalizedLook(input) };
  if (input.emailCopyTo !== undefined)
    input = { ...input, emailCopyTo: distinctAddresses(input.emailCopyTo) };
  const fields = (Object.keys(COLUMNS) as (keyof typeof COLUMNS)[]).filter((f) => input[f] !== undefined);
  const sets: [MerchantColumn, unknown][] = fields.map((f) => [COLUMNS[f], input[f] ?? null]);
  if (input.globalInvoice)
    sets.push(
      ['global_invoice_enabled', input.globalInvoice.enabled],
      ['global_invoice_periodicity', input.globalInvoice.periodicity ?? current.global_invoice_periodicity],
    );
  if (sets.length) {
    // Deleted between the read and the write.
    if (!(await updateMerchantColumns(ctx.em, scope, id, sets))) throw new NotFoundError('merchant', id);
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
  if (!(await softDeleteMerchant(ctx.em, scope, id))) throw new NotFoundError('merchant', id);
  return { id, object: 'merchant', deleted: true };
}

export interface ListMerchantsInput {
  limit: number;
  startingAfter?: string;
}

export async function listMerchants(ctx: MerchantContext, scope: Scope, input: ListMerchantsInput) {
  const empty = { object: 'list' as const, data: [] as MerchantView[], has_more: false };
  if (scope.merchantIds?.length === 0) return empty;
  const page = await merchantKeysetPage(ctx.em, scope, input);
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
