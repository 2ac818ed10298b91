import { createHash, randomBytes } from 'node:crypto';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

export const REDIRECT = 'http://127.0.0.1:45999/callback';

/** A desktop-like OAuth client of the SDK: it registers itself, keeps its tokens and "opens" the browser here. */
export class TestProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata() {
    return {
      client_name: 'Test desktop agent',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/**
 * What a person does for an application in the browser, done with fetch: the application registers, the person signs
 * in on the consent page and approves `scope` for `merchantIds`; the application exchanges the code (PKCE) for tokens.
 */
export async function grantThroughConsent(input: {
  apiUrl: string;
  resource: string;
  email: string;
  password: string;
  merchantIds: string[];
  scope: string;
  clientName: string;
}): Promise<{ accessToken: string; scope: string }> {
  const json = async (response: Response) => (await response.json()) as Record<string, string>;
  const client = await json(
    await fetch(`${input.apiUrl}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: input.clientName, redirect_uris: [REDIRECT] }),
    }),
  );
  const verifier = randomBytes(48).toString('base64url');
  const authorize = new URL(`${input.apiUrl}/oauth/authorize`);
  for (const [name, value] of Object.entries({
    response_type: 'code',
    client_id: client.client_id!,
    redirect_uri: REDIRECT,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    resource: input.resource,
    scope: input.scope,
  }))
    authorize.searchParams.set(name, value);
  const { redirect } = await approveInBrowser(input.apiUrl, authorize, input);
  const code = redirect.searchParams.get('code')!;
  const tokens = await json(
    await fetch(`${input.apiUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        client_id: client.client_id!,
        code_verifier: verifier,
      }).toString(),
    }),
  );
  return { accessToken: tokens.access_token!, scope: tokens.scope! };
}

/**
 * A person in the browser: opens the authorization URL, signs in on the page and approves it for `merchantIds`.
 * Returns the redirect to the application and the consent page as it was shown.
 */
export async function approveInBrowser(
  apiUrl: string,
  authorizationUrl: URL,
  person: { email: string; password: string; merchantIds: string[] },
): Promise<{ redirect: URL; consentHtml: string }> {
  const page = await fetch(authorizationUrl);
  const csrf = page.headers.get('set-cookie')!.match(/cfdi_oauth_csrf=([^;]+)/)![1]!;
  const handle = (await page.text()).match(/name="handle" value="([^"]*)"/)![1]!;
  const post = (path: string, fields: [string, string][]) =>
    fetch(`${apiUrl}${path}`, {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `cfdi_oauth_csrf=${csrf}` },
    });
  const consent = await post('/oauth/authorize/login', [
    ['handle', handle],
    ['email', person.email],
    ['password', person.password],
  ]);
  const consentHtml = await consent.text();
  const approved = await post('/oauth/authorize/consent', [
    ['handle', handle],
    ['decision', 'approve'],
    ...person.merchantIds.map((id): [string, string] => ['merchant', id]),
  ]);
  return { redirect: new URL(approved.headers.get('location')!), consentHtml };
}
