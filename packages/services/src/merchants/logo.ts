import { createHash } from 'node:crypto';
import type { EntityManager } from '@cfdi/db';
import type { FileStorage, StoredFile } from '@cfdi/storage';
import { ValidationError } from '../errors';
import type { Scope } from '../scope';
import { decodeBase64Strict } from './base64';
import { sniffImageType } from './image-type';
import { findMerchant } from './merchant-access';
import { retrieveMerchant, type MerchantContext } from './merchants';
import type { MerchantView } from './merchant-view';

/** 500 KB decoded (api-spec Limits). */
export const MAX_LOGO_BYTES = 500 * 1024;

export interface LogoContext extends MerchantContext {
  storage: FileStorage;
}

export function merchantLogoKey(scope: Pick<Scope, 'accountId' | 'livemode'>, merchantId: string): string {
  return `${scope.accountId}/${scope.livemode ? 'live' : 'test'}/merchants/${merchantId}/logo`;
}

/** Stores the logo (replacing any previous one under the same key) and returns the merchant with its new URL. */
export async function putMerchantLogo(ctx: LogoContext, scope: Scope, merchantId: string, logoBase64: string): Promise<MerchantView> {
  await findMerchant(ctx.em, scope, merchantId);
  const bytes = decodeBase64Strict(logoBase64);
  if (!bytes) throw ValidationError.field('/logo', 'must be a base64-encoded PNG, JPEG or WebP image');
  if (bytes.length > MAX_LOGO_BYTES) throw ValidationError.field('/logo', `is ${bytes.length} bytes decoded; the limit is ${MAX_LOGO_BYTES} bytes (500 KB)`);
  const contentType = sniffImageType(bytes);
  if (!contentType) throw ValidationError.field('/logo', 'is not a PNG, JPEG or WebP image (checked by its content, not its name)');
  const key = merchantLogoKey(scope, merchantId);
  await ctx.storage.put(key, bytes, contentType);
  await ctx.em.execute('update merchants set logo_key = ?, updated_at = now() where id = ?', [key, merchantId]);
  return retrieveMerchant(ctx, scope, merchantId);
}

/** Idempotent: removing an absent logo just returns the merchant. */
export async function deleteMerchantLogo(ctx: LogoContext, scope: Scope, merchantId: string): Promise<MerchantView> {
  const merchant = await findMerchant(ctx.em, scope, merchantId);
  // The row first: once it says "no logo" no new URL is issued, then the bytes go.
  await ctx.em.execute('update merchants set logo_key = null, updated_at = now() where id = ?', [merchantId]);
  if (merchant.logo_key) await ctx.storage.delete(merchant.logo_key);
  return retrieveMerchant(ctx, scope, merchantId);
}

/**
 * The logo for the PDF header, or null to print only the legal name. Works for deleted merchants too: their
 * historical documents are still rendered. `knownKey` is the merchant's `logo_key` when the caller already read it.
 */
export async function loadMerchantLogo(
  em: EntityManager,
  storage: Pick<FileStorage, 'get'>,
  scope: Pick<Scope, 'accountId' | 'livemode'>,
  merchantId: string,
  knownKey?: string | null,
): Promise<StoredFile | null> {
  const key = knownKey !== undefined ? knownKey : await logoKey(em, scope, merchantId);
  return key ? storage.get(key) : null;
}

const printableWebp = new Map<string, Buffer>();

/**
 * The logo as the PDF renderer can draw it: pdfkit embeds PNG and JPEG only, so a WebP upload (accepted and served
 * back as uploaded) is converted to PNG, once per distinct image in this process. An image that cannot be decoded
 * gives null: the PDF prints the legal name instead.
 */
export async function printableLogo(logo: StoredFile | null): Promise<Buffer | null> {
  if (!logo || logo.contentType !== 'image/webp') return logo?.bytes ?? null;
  const digest = createHash('sha256').update(logo.bytes).digest('hex');
  const known = printableWebp.get(digest);
  if (known) return known;
  try {
    const { default: sharp } = await import('sharp');
    const png = await sharp(logo.bytes).png().toBuffer();
    if (printableWebp.size >= 100) printableWebp.delete(printableWebp.keys().next().value!);
    printableWebp.set(digest, png);
    return png;
  } catch {
    return null;
  }
}

async function logoKey(em: EntityManager, scope: Pick<Scope, 'accountId' | 'livemode'>, merchantId: string): Promise<string | null> {
  const rows: { logo_key: string | null }[] = await em.execute(
    'select logo_key from merchants where id = ? and account_id = ? and livemode = ?',
    [merchantId, scope.accountId, scope.livemode],
  );
  return rows[0]?.logo_key ?? null;
}
