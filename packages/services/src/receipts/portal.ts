import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { EntityManager } from '@cfdi/db';
import type { Receiver } from '@cfdi/cfdi';
import type { FileStorage } from '@cfdi/storage';
import { addressProblem } from '../emails/addresses';
import { AppError, ValidationError } from '../errors';
import { documentDownload } from '../console/document-downloads';
import { loadDocument, type DocumentRow } from '../documents/document-row';
import { requestDocumentEmail } from '../emails/deliveries';
import type { StampingDeps } from '../documents/stamping-deps';
import { loadPrintableLogo } from '../merchants/logo';
import { consumeRateLimit } from '../rate-limit';
import type { Scope } from '../scope';
import { isoTimestamp } from '../time';
import { createInvoiceFromReceipts } from './invoice-receipts';
import { normalizeReceiptKey, printedReceiptKey } from './receipt-key';
import { selectPortalRows, type PortalRow } from './receipt-repository';

/** At most this many tickets in one invoice from the portal (one customer's purchases, not a shop's day). */
export const PORTAL_MAX_RECEIPTS = 10;

/**
 * The portal's one answer for a key it will not invoice: unknown, mistyped, expired, cancelled, already invoiced or
 * in a global invoice, or of another merchant than the tickets already chosen. The same answer for all of them, so
 * the portal never tells a visitor whether a key exists or what became of someone else's sale.
 */
export class ReceiptUnavailableError extends Error {
  constructor() {
    super('This ticket cannot be invoiced here.');
    this.name = 'ReceiptUnavailableError';
  }
}

/** A ticket as the portal shows it: the sale only (no ids, no status, nothing of the merchant's other receipts). */
export interface PortalTicket {
  key: string;
  printedKey: string;
  soldAt: string;
  expiresAt: string;
  branch: string | null;
  lines: { description: string; quantity: string; amount: string }[];
  subtotal: string;
  total: string;
}

export interface PortalReceipts {
  /** The merchant as its page shows it: name, RFC, logo and brand colour (`#rrggbb`, null for the default). */
  merchant: { name: string; rfc: string; logoKey: string | null; brandColor: string | null };
  tickets: PortalTicket[];
  /** The sum of the tickets' totals, as the invoice will carry it. */
  total: string;
}

const cents = (value: number) => (Math.round(value * 100) / 100).toFixed(2);

/**
 * The keys a visitor typed, normalized (`normalizeReceiptKey`) and without repeats; any key that cannot be one, or
 * more than PORTAL_MAX_RECEIPTS of them, is the uniform refusal.
 */
export function portalKeys(typed: readonly string[]): string[] {
  const keys = typed.map(normalizeReceiptKey);
  if (!keys.length || keys.length > PORTAL_MAX_RECEIPTS || keys.some((key) => key === null))
    throw new ReceiptUnavailableError();
  return [...new Set(keys as string[])];
}

/**
 * The receipts behind some keys, if the portal may invoice them together: every key known, open, not expired at
 * `now`, and all of one (not deleted) merchant, in one account and mode. Otherwise ReceiptUnavailableError, the same
 * for every reason. The keys are the only credential: 80 random bits each (receipt-key.ts), and the portal limits
 * how many a visitor may try (`consumePortalLimits`).
 */
async function portalRows(em: EntityManager, typed: readonly string[], now: Date): Promise<PortalRow[]> {
  const keys = portalKeys(typed);
  const rows = await selectPortalRows(em, keys);
  const first = rows[0];
  const usable =
    first &&
    rows.length === keys.length &&
    rows.every(
      (row) =>
        row.status === 'open' &&
        new Date(row.expires_at).getTime() >= now.getTime() &&
        row.merchant_id === first.merchant_id &&
        row.account_id === first.account_id &&
        row.livemode === first.livemode &&
        row.prices_include_tax === first.prices_include_tax &&
        !row.merchant_deleted_at,
    );
  if (!usable) throw new ReceiptUnavailableError();
  // In the order typed: the first key is the ticket the customer started from.
  return keys.map((key) => rows.find((row) => row.key === key)!);
}

/** The tickets of some keys for the portal's page, or ReceiptUnavailableError (see `portalRows`). */
export async function portalReceipts(
  em: EntityManager,
  typed: readonly string[],
  now = new Date(),
): Promise<PortalReceipts> {
  const rows = await portalRows(em, typed, now);
  const first = rows[0]!;
  return {
    merchant: {
      name: first.merchant_name,
      rfc: first.merchant_rfc,
      logoKey: first.merchant_logo_key,
      brandColor: first.merchant_brand_color,
    },
    tickets: rows.map((row) => ({
      key: row.key,
      printedKey: printedReceiptKey(row.key),
      soldAt: isoTimestamp(row.created_at),
      expiresAt: isoTimestamp(row.expires_at),
      branch: row.branch,
      lines: row.items.map((item) => ({
        description: item.description,
        quantity: String(item.quantity),
        amount: cents(Number(item.quantity) * Number(item.unitPrice)),
      })),
      subtotal: row.subtotal,
      total: row.total,
    })),
    total: cents(rows.reduce((sum, row) => sum + Number(row.total), 0)),
  };
}

/** The merchant's logo for the portal's header (the PDF's rendition: small, PNG), or null. */
export async function portalLogo(
  em: EntityManager,
  storage: Pick<FileStorage, 'get'>,
  typed: readonly string[],
): Promise<Buffer | null> {
  const first = (await portalRows(em, typed, new Date()))[0]!;
  if (!first.merchant_logo_key) return null;
  return loadPrintableLogo(
    em,
    storage,
    { accountId: first.account_id, livemode: first.livemode },
    first.merchant_id,
    first.merchant_logo_key,
  );
}

/** The receipts' own account and mode, limited to their merchant: the portal acts for nobody else. */
const portalScope = (row: { account_id: string; livemode: boolean; merchant_id: string }): Scope => ({
  accountId: row.account_id,
  livemode: row.livemode,
  keyId: 'portal',
  merchantIds: [row.merchant_id],
});

/** What the customer types in the portal's form. */
export interface PortalInvoiceRequest {
  keys: string[];
  receiver: Receiver;
  usoCfdi: string;
  /** Where the stamped CFDI goes; optional (the page offers the downloads either way). */
  email?: string;
}

/**
 * Invoices the tickets of some keys for the customer who typed them: the same path as `POST /v1/invoices/from_receipts`
 * (`createInvoiceFromReceipts`: validation with field paths, the tax engine, the receipts marked `invoiced` in the
 * transaction that stores the invoice), in the receipts' own account and mode. A receipt that another request took
 * meanwhile (its conditional update missed) is the uniform refusal, like any key the portal will not invoice. The
 * caller starts the stamp workflow of the returned document.
 */
export async function invoicePortalReceipts(
  em: EntityManager,
  deps: StampingDeps & { portalUrl: string },
  request: PortalInvoiceRequest,
  now = new Date(),
): Promise<{ document: DocumentRow; scope: Scope }> {
  const email = request.email?.trim();
  const emailProblem = email ? addressProblem(email) : null;
  if (emailProblem) throw ValidationError.field('/email', emailProblem);
  const rows = await portalRows(em, request.keys, now);
  const scope = portalScope(rows[0]!);
  try {
    const document = await createInvoiceFromReceipts(em, deps, scope, {
      receiptIds: rows.map((row) => row.id),
      // As a customer types them: the SAT registers RFCs and names in capitals (CFDI40145), so case is no mistake.
      receiver: {
        ...request.receiver,
        rfc: request.receiver.rfc.trim().toUpperCase(),
        name: request.receiver.name.trim().replace(/\s+/g, ' ').toUpperCase(),
        zip: request.receiver.zip.trim(),
      },
      usoCfdi: request.usoCfdi,
    });
    return { document, scope };
  } catch (error) {
    // Taken by someone else between the read and the update: the same answer as for any unavailable key.
    if (error instanceof AppError && error.code === 'receipt_not_open') throw new ReceiptUnavailableError();
    throw error;
  }
}

/** What a portal visitor may do with the invoice just made: download its files, for a day, by an unguessable pass. */
export interface PortalPass {
  documentId: string;
  /** The tickets it invoiced, normalized: a refused stamp reopens them and the customer corrects the data. */
  keys: string[];
  accountId: string;
  livemode: boolean;
  email: string | null;
  locale: 'es' | 'en';
}

/** How long the link to a portal invoice's files lives: the day the customer made it. */
export const PORTAL_PASS_SECONDS = 24 * 3600;
const passKey = (token: string) => `portal:pass:${token}`;

/**
 * A pass to the invoice just stamped (its page and files), held in Redis for PORTAL_PASS_SECONDS. The receipt key
 * is not enough to reach an invoice: an invoiced key gets the uniform refusal, so whoever finds a used ticket learns
 * nothing of the customer who invoiced it.
 */
export async function createPortalPass(redis: Redis, pass: PortalPass): Promise<string> {
  const token = randomBytes(24).toString('base64url');
  await redis.set(passKey(token), JSON.stringify(pass), 'EX', PORTAL_PASS_SECONDS);
  return token;
}

export async function readPortalPass(redis: Redis, token: string): Promise<PortalPass | null> {
  if (!/^[A-Za-z0-9_-]{32}$/.test(token)) return null;
  const stored = await redis.get(passKey(token));
  return stored ? (JSON.parse(stored) as PortalPass) : null;
}

/** True the first time for a pass: its e-mail is queued once however often its page is loaded. */
async function claimPortalEmail(redis: Redis, token: string): Promise<boolean> {
  return (await redis.set(`${passKey(token)}:emailed`, '1', 'EX', PORTAL_PASS_SECONDS, 'NX')) === 'OK';
}

/** The invoice of a pass as its page shows it: how the stamp went, and nothing the customer did not type. */
export interface PortalInvoiceView {
  status: 'stamping' | 'stamped' | 'failed';
  uuid: string | null;
  receiver: { rfc: string; name: string; zip: string; regimenFiscal: string };
  usoCfdi: string | null;
  total: string;
  /** The SAT's (or the PAC's) refusal of a failed stamp: the receipts are open again. */
  failure: { code: string | null; message: string | null } | null;
}

/** The invoice behind a pass (a stamp still running or reconciling shows as `stamping`). */
export async function portalInvoice(em: EntityManager, pass: PortalPass): Promise<PortalInvoiceView> {
  const row = await loadDocument(em, pass, pass.documentId);
  const status =
    row.status === 'stamped' || row.status === 'cancel_pending' || row.status === 'cancelled'
      ? 'stamped'
      : row.status === 'stamp_failed'
        ? 'failed'
        : 'stamping';
  return {
    status,
    uuid: row.uuid,
    receiver: row.receiver,
    usoCfdi: row.uso_cfdi,
    total: row.total,
    failure: status === 'failed' ? { code: row.sat_code, message: row.failure_detail } : null,
  };
}

/** The stamped XML or the PDF of a pass's invoice: its storage key and name, or null while there is none. */
export async function portalInvoiceFile(em: EntityManager, pass: PortalPass, file: 'xml' | 'pdf') {
  const row = await loadDocument(em, pass, pass.documentId);
  return row.status === 'stamped' ? documentDownload(row, file) : null;
}

/**
 * Queues the e-mail of a pass's stamped invoice to the address the customer gave, once per pass however often its
 * page is loaded (the e-mail deliveries of services/emails, sent by their workflow, which the caller starts). Null
 * when there is nothing to send: no address, already queued, or not stamped.
 */
export async function queuePortalEmail(
  em: EntityManager,
  redis: Redis,
  token: string,
  pass: PortalPass,
  sending: { configured: boolean },
): Promise<{ deliveryId: string; to: string[] } | null> {
  if (!pass.email || (await portalInvoice(em, pass)).status !== 'stamped') return null;
  if (!(await claimPortalEmail(redis, token))) return null;
  const delivery = await requestDocumentEmail(
    em,
    { accountId: pass.accountId, livemode: pass.livemode, keyId: 'portal', merchantIds: null },
    'invoice',
    pass.documentId,
    { to: [pass.email], locale: pass.locale },
    sending,
  );
  return { deliveryId: delivery.id, to: delivery.recipients };
}

export interface PortalLimits {
  /** Requests per minute from one client address. */
  perIp: number;
  /** Requests per minute naming one key (typed keys, normalized, valid or not). */
  perKey: number;
}

/**
 * Counts a portal request against its client address and each key it names (one-minute windows in Redis, as the
 * API's quota); the first exhausted quota refuses it. A key's own limit stops a guess spread over many addresses at
 * one key; the address limit stops one client walking through keys.
 */
export async function consumePortalLimits(
  redis: Redis,
  ip: string,
  typedKeys: readonly string[],
  limits: PortalLimits,
  now = Date.now(),
): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
  const ipDecision = await consumeRateLimit(redis, ip, limits.perIp, now, 'portal-ip');
  if (!ipDecision.allowed) return { allowed: false, retryAfterSeconds: ipDecision.resetSeconds };
  for (const typed of typedKeys.slice(0, PORTAL_MAX_RECEIPTS + 1)) {
    const key = normalizeReceiptKey(typed) ?? typed.toUpperCase().slice(0, 64);
    const decision = await consumeRateLimit(redis, key, limits.perKey, now, 'portal-key');
    if (!decision.allowed) return { allowed: false, retryAfterSeconds: decision.resetSeconds };
  }
  return { allowed: true, retryAfterSeconds: 0 };
}
