import { createHash } from 'node:crypto';
import { createConsoleUser } from '@cfdi/services';
import { localeOf } from '../src/i18n/locale';
import { startApi, type ApiHarness } from './harness';
import { EKU, newMerchant } from './merchant-fixtures';
import { REDIRECT } from './oauth-client';

// The OAuth sign-in and consent pages speak the browser's language: Spanish by default, English when preferred.
let api: ApiHarness;
beforeAll(async () => {
  api = await startApi();
}, 60_000);
afterAll(async () => api?.close());

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

async function authorizationUrl(): Promise<URL> {
  const registered = await api.request('POST', '/oauth/register', {
    body: { client_name: 'Agente de prueba', redirect_uris: [REDIRECT] },
  });
  const challenge = createHash('sha256').update('v'.repeat(64)).digest('base64url');
  const url = new URL(`${api.url}/oauth/authorize`);
  for (const [k, v] of Object.entries({
    response_type: 'code',
    client_id: registered.body.client_id as string,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }))
    url.searchParams.set(k, v);
  return url;
}

const LANGUAGES = [
  {
    header: 'es-MX,es;q=0.9,en;q=0.8',
    lang: 'es-MX',
    signIn: ['Conectar Agente de prueba', 'Contraseña', 'modo test (sandbox, sin valor fiscal)'],
    wrong: 'Correo o contraseña incorrectos.',
    consent: ['Autorizar a Agente de prueba', 'Emisores', 'Rechazar'],
    expired: 'La solicitud expiró',
  },
  {
    header: 'en-US,en;q=0.9,es;q=0.5',
    lang: 'en',
    signIn: ['Connect Agente de prueba', 'Password', 'test (sandbox, no fiscal value) mode'],
    wrong: 'Wrong e-mail or password.',
    consent: ['Authorize Agente de prueba', 'Issuers', 'Deny'],
    expired: 'The request expired',
  },
];

describe.each(LANGUAGES)('with Accept-Language: $header', (language) => {
  it(`signs in and asks consent in ${language.lang}, errors included`, async () => {
    const account = await api.newAccount();
    const merchant = await newMerchant(api, account.testKey, { ...EKU, serie: 'LG' });
    const password = 'correct horse battery staple';
    const user = await createConsoleUser(api.orm.em.fork(), {
      email: `lang-${Date.now()}-${language.lang}@example.com`,
      password,
      role: 'finance',
      accountId: account.accountId,
    });
    const headers = { 'accept-language': language.header };
    const page = await fetch(await authorizationUrl(), { headers });
    expect(page.headers.get('content-language')).toBe(language.lang.slice(0, 2));
    expect(page.headers.get('vary')).toMatch(/accept-language/i);
    const signIn = await page.text();
    expect(signIn).toContain(`<html lang="${language.lang}">`);
    for (const text of language.signIn) expect(signIn).toContain(text);
    const csrf = page.headers.get('set-cookie')!.match(/cfdi_oauth_csrf=([^;]+)/)![1]!;
    const handle = signIn.match(/name="handle" value="([^"]*)"/)![1]!;
    const post = (path: string, fields: Record<string, string>, cookie = `cfdi_oauth_csrf=${csrf}`) =>
      fetch(`${api.url}${path}`, {
        method: 'POST',
        redirect: 'manual',
        body: form(fields),
        headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded', cookie },
      });

    const wrong = await post('/oauth/authorize/login', { handle, email: user.email, password: 'nope' });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain(language.wrong);
    const forged = await post('/oauth/authorize/login', { handle, email: user.email, password }, 'x=1');
    expect(await forged.text()).toContain(language.expired);

    const consent = await post('/oauth/authorize/login', { handle, email: user.email, password });
    expect(consent.status).toBe(200);
    const consentHtml = await consent.text();
    expect(consentHtml).toContain(`<html lang="${language.lang}">`);
    for (const text of language.consent) expect(consentHtml).toContain(text);
    expect(consentHtml).toContain(`value="${merchant.id}"`);
  });
});

it('reads the preferred of es and en from Accept-Language, Spanish by default', () => {
  expect(localeOf(undefined)).toBe('es');
  expect(localeOf('')).toBe('es');
  expect(localeOf('fr-FR,fr;q=0.9')).toBe('es');
  expect(localeOf('en')).toBe('en');
  expect(localeOf('fr,en-GB;q=0.8,es;q=0.7')).toBe('en');
  expect(localeOf('en;q=0.5,es-MX;q=0.9')).toBe('es');
  expect(localeOf('es;q=0,en;q=0.1')).toBe('en');
  expect(localeOf('EN-us')).toBe('en');
});
