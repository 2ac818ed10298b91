import type { EntityManager } from '@cfdi/db';
import type { FileStorage, StoredFile } from '@cfdi/storage';
import { ValidationError } from '../errors';
import type { Scope } from '../scope';
import { decodeBase64Strict } from './base64';
import { sniffImageType } from './image-type';
import { findMerchant } from './merchant-access';
import { selectMerchantLogoKey, setMerchantLogoKey } from './merchant-repository';
import { retrieveMerchant, type MerchantContext } from './merchants';
import type { MerchantView } from './merchant-view';

/** 500 KB decoded (api-spec Limits). */
export const MAX_LOGO_BYTES = 500 * 1024;
/**
 * Largest logo side in pixels. 500 KB of PNG can hold an 11,000 × 11,000 image (484 MB decoded): the pixel count,
 * not the file size, decides the memory and time decoding takes.
 */
export const MAX_LOGO_SIDE = 4000;
/** What the PDF header needs: its logo box is 170 × 60 points; four pixels per point print sharp. */
const PRINT_BOX = { width: 680, height: 240 };

export interface LogoContext extends MerchantContext {
  storage: FileStorage;
}

export function merchantLogoKey(scope: Pick<Scope, 'accountId' | 'livemode'>, merchantId: string): string {
  return `${scope.accountId}/${scope.livemode ? 'live' : 'test'}/merchants/${merchantId}/logo`;
}

/** Stores the logo (replacing any previous one under the same key) and returns the merchant with its new URL. */
export async function putMerchantLogo(
  ctx: LogoContext,
  scope: Scope,
  merchantId: string,
  logoBase64: string,
): Promise<MerchantView> {
  await findMerchant(ctx.em, scope, merchantId);
  const bytes = decodeBase64Strict(logoBase64);
  if (!bytes) throw ValidationError.field('/logo', 'must be a base64-encoded PNG, JPEG or WebP image');
  if (bytes.length > MAX_LOGO_BYTES)
    throw ValidationError.field(
      '/logo',
      `is ${bytes.length} bytes decoded; the limit is ${MAX_LOGO_BYTES} bytes (500 KB)`,
    );
  const contentType = sniffImageType(bytes);
  if (!contentType)
    throw ValidationError.field(
      '/logo',
      'is not a PNG, JPEG or WebP image (checked by its content, not its name)',
    );
  const printable = await printRendition(bytes);
  const key = merchantLogoKey(scope, merchantId);
  // The rendition first: a logo_key always has its rendition beside it, except for logos stored before it existed.
  await ctx.storage.put(printKey(key), printable, 'image/png');
  await ctx.storage.put(key, bytes, contentType);
  await setMerchantLogoKey(ctx.em, merchantId, key);
  return retrieveMerchant(ctx, scope, merchantId);
}

/** Idempotent: removing an absent logo just returns the merchant. */
export async function deleteMerchantLogo(
  ctx: LogoContext,
  scope: Scope,
  merchantId: string,
): Promise<MerchantView> {
  const merchant = await findMerchant(ctx.em, scope, merchantId);
  // The row first: once it says "no logo" no new URL is issued, then the bytes go.
  await setMerchantLogoKey(ctx.em, merchantId, null);
  if (merchant.logo_key) {
    await ctx.storage.delete(merchant.logo_key);
    await ctx.storage.delete(printKey(merchant.logo_key));
  }
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
  const key = knownKey !== undefined ? knownKey : await selectMerchantLogoKey(em, scope, merchantId);
  return key ? storage.get(key) : null;
}

const printKey = (logoKey: string) => `${logoKey}-print`;

/**
 * The logo as the PDF draws it: a PNG fitted inside PRINT_BOX. Decoding is bounded by sharp's `limitInputPixels`
 * (4,000 × 4,000), and the header is checked before anything is decoded, so an image bomb costs nothing. An
 * image over the limit or that cannot be decoded is a 400 on `/logo`.
 */
async function printRendition(bytes: Buffer): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  // The header alone (no pixel decoded) says the size, so the message can name it; decoding is then bounded.
  const { width, height } = await sharp(bytes, { limitInputPixels: false })
    .metadata()
    .catch(() => ({ width: undefined, height: undefined }));
  if (!width || !height) throw ValidationError.field('/logo', 'cannot be decoded as an image');
  if (width > MAX_LOGO_SIDE || height > MAX_LOGO_SIDE) {
    throw ValidationError.field(
      '/logo',
      `is ${width} × ${height} pixels; the limit is ${MAX_LOGO_SIDE} × ${MAX_LOGO_SIDE}`,
    );
  }
  try {
    return await sharp(bytes, { limitInputPixels: MAX_LOGO_SIDE * MAX_LOGO_SIDE })
      .resize({ ...PRINT_BOX, fit: 'inside', withoutEnlargement: true })
      .png()
      .toBuffer();
  } catch {
    throw ValidationError.field('/logo', 'cannot be decoded as an image');
  }
}

/**
 * The logo for the PDF header (a small PNG), or null to print only the legal name. Its rendition was made at
 * upload; a logo stored before renditions existed is rendered here under the same bounds, and one that breaks them
 * (or cannot be decoded) gives null. Works for deleted merchants too: their historical documents are still rendered.
 */
export async function loadPrintableLogo(
  em: EntityManager,
  storage: Pick<FileStorage, 'get'>,
  scope: Pick<Scope, 'accountId' | 'livemode'>,
  merchantId: string,
  knownKey?: string | null,
): Promise<Buffer | null> {
  const key = knownKey !== undefined ? knownKey : await selectMerchantLogoKey(em, scope, merchantId);
  if (!key) return null;
  const rendition = await storage.get(printKey(key));
  if (rendition) return rendition.bytes;
  const original = await storage.get(key);
  return original ? printRendition(original.bytes).catch(() => null) : null;
}
