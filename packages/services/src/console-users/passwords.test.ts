import { generatePassword, hashPassword, verifyPassword } from './passwords';

describe('console user passwords', () => {
  it('verifies the password it hashed and nothing else; the hash is salted and carries its scrypt parameters', async () => {
    const password = generatePassword();
    const [first, second] = await Promise.all([hashPassword(password), hashPassword(password)]);
    expect(first).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
    expect(first).not.toBe(second);
    expect(await verifyPassword(password, first)).toBe(true);
    expect(await verifyPassword(password, second)).toBe(true);
    expect(await verifyPassword(`${password}x`, first)).toBe(false);
    expect(await verifyPassword(password, first.replace(/^scrypt/, 'bcrypt'))).toBe(false);
  }, 30_000); // scrypt is slow on purpose, and the machine is shared

  it('treats the same text in another Unicode normalization as the same password', async () => {
    const hash = await hashPassword('contraseña segura');
    expect(await verifyPassword('contrasen\u0303a segura', hash)).toBe(true);
  }, 30_000);
});
