import { openSecret, sealSecret } from './secret-box';

const k1 = { id: 'k1', key: Buffer.alloc(32, 1) };
const k2 = { id: 'k2', key: Buffer.alloc(32, 2) };

it('round-trips under the key id it names, with a fresh IV every time', () => {
  const a = sealSecret(k1, Buffer.from('12345678a'), 'mch_1');
  const b = sealSecret(k1, Buffer.from('12345678a'), 'mch_1');
  expect(a).toMatch(/^v1:k1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);
  expect(a).not.toBe(b);
  expect(a).not.toContain(Buffer.from('12345678a').toString('base64'));
  expect(openSecret([k2, k1], a, 'mch_1').toString()).toBe('12345678a');
});

it('refuses another context, a tampered ciphertext, an unknown key id and garbage', () => {
  const sealed = sealSecret(k1, Buffer.from('secret'), 'mch_1');
  expect(() => openSecret([k1], sealed, 'mch_2')).toThrow('failed authentication');
  const parts = sealed.split(':');
  parts[4] = Buffer.from('SECRET').toString('base64');
  expect(() => openSecret([k1], parts.join(':'), 'mch_1')).toThrow('failed authentication');
  expect(() => openSecret([k2], sealed, 'mch_1')).toThrow('"k1", which is not configured');
  expect(() => openSecret([k1], 'nonsense', 'mch_1')).toThrow('unrecognised');
});
