import { createHmac } from 'node:crypto';
import { signWebhook, verifyWebhook, WebhookVerificationError } from './index';

const body = JSON.stringify({ id: 'evt_1', object: 'event', type: 'invoice.stamped' });
const secret = 'whsec_current';
const now = 1_800_000_000;

it('verifies a header signed with the secret and returns the parsed event', () => {
  expect(verifyWebhook(body, signWebhook(body, [secret], now), secret, 300, now)).toEqual(JSON.parse(body));
  // The algorithm is plain HMAC-SHA256 over "t.body", as documented.
  const hex = createHmac('sha256', secret).update(`${now}.${body}`).digest('hex');
  expect(verifyWebhook(Buffer.from(body), `t=${now},v1=${hex}`, secret, 300, now)).toMatchObject({
    id: 'evt_1',
  });
});

it('accepts either secret while both sign (rotation)', () => {
  const header = signWebhook(body, ['whsec_new', 'whsec_old'], now);
  expect(header.match(/v1=/g)).toHaveLength(2);
  expect(verifyWebhook(body, header, 'whsec_new', 300, now)).toBeTruthy();
  expect(verifyWebhook(body, header, 'whsec_old', 300, now)).toBeTruthy();
});

it.each([
  ['another secret', signWebhook(body, ['whsec_other'], now), body, now],
  ['a changed body', signWebhook(body, [secret], now), body.replace('stamped', 'cancelled'), now],
  ['a stale timestamp', signWebhook(body, [secret], now - 301), body, now],
  ['a timestamp from the future', signWebhook(body, [secret], now + 301), body, now],
  ['a header without v1', `t=${now}`, body, now],
  ['a missing header', undefined, body, now],
])('refuses %s', (_what, header, received, at) => {
  expect(() => verifyWebhook(received, header, secret, 300, at)).toThrow(WebhookVerificationError);
});
