// Signs and verifies the `CFDI-Signature` header of webhook deliveries. Self-contained (node:crypto only): copy this
// file into your receiver as it is.
//
//   CFDI-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>[,v1=<…>]
//
// The key is the whole `whsec_…` string. While a secret is being rotated the header carries one `v1` per secret, so
// a receiver holding either one verifies the delivery.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'CFDI-Signature';
export const EVENT_ID_HEADER = 'CFDI-Event-Id';

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

const hmacHex = (secret: string, timestamp: number, body: string | Buffer) =>
  createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');

/** The header value for `body` signed at `timestamp` (unix seconds) with each of `secrets`. */
export function signWebhook(body: string | Buffer, secrets: readonly string[], timestamp: number): string {
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${hmacHex(secret, timestamp, body)}`)].join(',');
}

/**
 * Checks a delivery and returns its parsed event. Throws `WebhookVerificationError` when the header is malformed,
 * no `v1` signature matches `secret`, or the timestamp is more than `toleranceSeconds` away from now (a replayed
 * capture). Pass the raw body exactly as received: re-serialised JSON does not verify.
 */
export function verifyWebhook<T = unknown>(
  rawBody: string | Buffer,
  header: string | null | undefined,
  secret: string,
  toleranceSeconds = 300,
  nowSeconds: number = Math.floor(Date.now() / 1000),
): T {
  if (!header) throw new WebhookVerificationError(`Missing ${SIGNATURE_HEADER} header`);
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const [key, value] = part.trim().split('=', 2);
    if (key === 't' && value && /^\d+$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && value && /^[0-9a-f]{64}$/.test(value)) signatures.push(value);
  }
  if (timestamp === null || signatures.length === 0)
    throw new WebhookVerificationError(`Malformed ${SIGNATURE_HEADER} header`);
  const expected = Buffer.from(hmacHex(secret, timestamp, rawBody), 'hex');
  if (!signatures.some((signature) => timingSafeEqual(Buffer.from(signature, 'hex'), expected))) {
    throw new WebhookVerificationError('No signature matches the secret');
  }
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds) {
    throw new WebhookVerificationError(`Timestamp outside the tolerance of ${toleranceSeconds} s`);
  }
  return JSON.parse(typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8')) as T;
}
