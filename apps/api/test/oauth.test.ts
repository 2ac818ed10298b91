import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { freePort } from '@cfdi/devstack';
import { createConsoleUser, SIGN_IN_LOCKOUT } from '@cfdi/services';
import { startApi, type ApiHarness } from './harness';
import { EKU, newMerchant } from './merchant-fixtures';
import { callTool } from './mcp-client';
import { REDIRECT, TestProvider } from './oauth-client';
import { runCli } from './cli';

let api: ApiHarness;
let port: number;
beforeAll(async () => {
  // The metadata names PUBLIC_BASE_URL, and the SDK client checks it against the server it talks to. Left to its
  // default, as with `npm run up`: the URL the README and `npm run up` print must work as it is (issue #34).
  port = await freePort();
  api = await startApi({ API_PORT: String(port), PUBLIC_BASE_URL: '' }, { port });
}, 60_000);
afterAll(async () => api?.close());

const form = (fields: Record<string, string | string[]>) => {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) params.append(name, v);
  return params.toString();
};
const hidden = (html: string, name: string) => html.match(new RegExp(`name="${name}" value="([^"]*)"`))?.[1];

/** What a person does in the browser: sign in on the page, tick merchants, approve. Returns the redirect. */
async function signInAndApprove(authorizationUrl: URL, email: string, password: string, merchants: string[]) {
  const page = await fetch(authorizationUrl);
  expect(page.status).toBe(200);
  expect(page.headers.get('x-frame-options')).toBe('DENY');
  const csrf = page.headers.get('set-cookie')!.match(/cfdi_oauth_csrf=([^;]+)/)![1]!;
  const handle = hidden(await page.text(), 'handle')!;
  const post = (
    path: string,
    fields: Record<string, string | string[]>,
    cookie = `cfdi_oauth_csrf=${csrf}`,
  ) =>
    fetch(`${api.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      body: form(fields),
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    });
  // Without this browser's cookie the form is refused (another site cannot post it).
  expect(
    (await post('/oauth/authorize/login', { handle, email, password }, 'cfdi_oauth_csrf=forged')).status,
  ).toBe(400);
  const consent = await post('/oauth/authorize/login', { handle, email, password });
  expect(consent.status).toBe(200);
  const consentHtml = await consent.text();
  for (const id of merchants) expect(consentHtml).toContain(`value="${id}"`);
  const approved = await post('/oauth/authorize/consent', {
    handle,
    decision: 'approve',
    merchant: merchants,
  });
  expect(approved.status).toBe(302);
  return new URL(approved.headers.get('location')!);
}

describe('OAuth 2.1 for the tool server', () => {
  it('publishes the protected resource and authorization server metadata', async () => {
    const base = api.config.api.publicBaseUrl;
    expect((await api.request('GET', '/.well-known/oauth-protected-resource/mcp/test')).body).toMatchObject({
      resource: `${base}/mcp/test`,
      authorization_servers: [base],
    });
    expect((await api.request('GET', '/.well-known/oauth-protected-resource/mcp')).body).toMatchObject({
      resource: `${base}/mcp`,
    });
    expect((await api.request('GET', '/.well-known/oauth-protected-resource')).body).toMatchObject({
      resource: base,
    });
    expect((await api.request('GET', '/.well-known/oauth-authorization-server')).body).toMatchObject({
      issuer: base,
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      registration_endpoint: `${base}/oauth/register`,
      revocation_endpoint: `${base}/oauth/revoke`,
    });
  });

  it('registers a client, completes code + PKCE through the consent page, calls a tool with the token, rotates it, and is refused after revocation', async () => {
    const account = await api.newAccount();
    const granted = await newMerchant(api, account.testKey, { ...EKU, serie: 'OA' });
    const notGranted = await newMerchant(api, account.testKey, { ...EKU, serie: 'OB' });
    const password = 'correct horse battery staple';
    const user = await createConsoleUser(api.orm.em.fork(), {
      email: `finance-${Date.now()}@example.com`,
      password,
      role: 'finance',
      accountId: account.accountId,
    });

    const provider = new TestProvider();
    // The sandbox MCP URL as printed: http://127.0.0.1:<API_PORT>/mcp/test.
    const serverUrl = new URL(`http://127.0.0.1:${port}/mcp/test`);
    const first = new StreamableHTTPClientTransport(serverUrl, { authProvider: provider });
    await expect(new Client({ name: 'agent', version: '1' }).connect(first)).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    expect(provider.client?.client_id).toMatch(/^ocl_/);
    const authorizationUrl = provider.authorizationUrl!;
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizationUrl.searchParams.get('resource')).toBe(`${api.config.api.publicBaseUrl}/mcp/test`);

    const redirect = await signInAndApprove(authorizationUrl, user.email, password, [granted.id]);
    expect(`${redirect.origin}${redirect.pathname}`).toBe(REDIRECT);
    expect(redirect.searchParams.get('state')).toBe(authorizationUrl.searchParams.get('state'));
    await first.finishAuth(redirect.searchParams.get('code')!);
    expect(provider.saved?.access_token).toMatch(/^cfdi_at_/);

    const client = new Client({ name: 'agent', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(serverUrl, { authProvider: provider }));
    const merchants = await callTool(client, 'list_merchants');
    // The token is bound to the account, the test mode and the one merchant approved.
    expect(merchants.data.data.map((m: { id: string }) => m.id)).toEqual([granted.id]);
    expect((await callTool(client, 'get_balance')).data).toMatchObject({
      livemode: false,
      balanceCentavos: 100000,
    });
    expect(merchants.text).not.toContain(notGranted.id);

    const access = provider.saved!.access_token;
    const onLive = await fetch(`${api.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${access}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(onLive.status).toBe(401);
    expect(((await onLive.json()) as { detail: string }).detail).toContain('/mcp/test');

    // Refresh tokens rotate: the new pair works, the old refresh token does not, and replaying it revokes the grant.
    const token = (fields: Record<string, string>) =>
      api.request('POST', '/oauth/token', {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        rawBody: form(fields),
      });
    const clientId = provider.client!.client_id;
    const rotated = await token({
      grant_type: 'refresh_token',
      refresh_token: provider.saved!.refresh_token!,
      client_id: clientId,
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body.refresh_token).not.toBe(provider.saved!.refresh_token);
    const mcpCall = (bearer: string) =>
      fetch(`${api.url}/mcp/test`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${bearer}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'get_balance', arguments: {} },
        }),
      });
    expect((await mcpCall(rotated.body.access_token)).status).toBe(200);

    const revoked = await api.request('POST', '/oauth/revoke', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      rawBody: form({ token: rotated.body.refresh_token, client_id: clientId }),
    });
    expect(revoked.status).toBe(200);
    for (const bearer of [rotated.body.access_token, access]) {
      const refused = await mcpCall(bearer);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
    }
    expect(
      (
        await token({
          grant_type: 'refresh_token',
          refresh_token: rotated.body.refresh_token,
          client_id: clientId,
        })
      ).body.error,
    ).toBe('invalid_grant');
    await client.close();
    expect(api.config.api.publicBaseUrl).toBe(`http://127.0.0.1:${port}`);
  }, 60_000);

  it('refuses a code without the right PKCE verifier, and a code used twice', async () => {
    const account = await api.newAccount();
    const merchant = await newMerchant(api, account.testKey, { ...EKU, serie: 'OC' });
    const password = 'another long password';
    const user = await createConsoleUser(api.orm.em.fork(), {
      email: `ops-${Date.now()}@example.com`,
      password,
      role: 'finance',
      accountId: account.accountId,
    });
    const registered = await api.request('POST', '/oauth/register', {
      body: { client_name: 'pkce test', redirect_uris: [REDIRECT] },
    });
    expect(registered.status).toBe(201);
    const verifier = 'v'.repeat(64);
    const { createHash } = await import('node:crypto');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const url = new URL(`${api.url}/oauth/authorize`);
    for (const [k, v] of Object.entries({
      response_type: 'code',
      client_id: registered.body.client_id,
      redirect_uri: REDIRECT,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 's1',
    }))
      url.searchParams.set(k, v);
    const redirect = await signInAndApprove(url, user.email, password, [merchant.id]);
    const code = redirect.searchParams.get('code')!;
    const exchange = (codeVerifier: string) =>
      api.request('POST', '/oauth/token', {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        rawBody: form({
          grant_type: 'authorization_code',
          code,
          redirect_uri: REDIRECT,
          client_id: registered.body.client_id,
          code_verifier: codeVerifier,
        }),
      });
    expect((await exchange('w'.repeat(64))).body).toMatchObject({ error: 'invalid_grant' });
    // The failed attempt used the code up: even the right verifier cannot redeem it now.
    expect((await exchange(verifier)).body).toMatchObject({ error: 'invalid_grant' });

    const plain = new URL(url);
    plain.searchParams.set('code_challenge_method', 'plain');
    const refused = await fetch(plain, { redirect: 'manual' });
    expect(refused.status).toBe(302);
    expect(new URL(refused.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
  }, 60_000);

  it('refuses redirect URIs with user information or any fragment, even empty (invalid_redirect_uri)', async () => {
    for (const uri of [
      'https://user:pw@example.com/cb',
      'https://user@example.com/cb',
      'https://@example.com/cb',
      'http://user:pw@127.0.0.1:45999/cb',
      'https://example.com/cb#',
      'https://example.com/cb#x',
      'http://127.0.0.1:45999/cb#',
    ]) {
      const registered = await api.request('POST', '/oauth/register', { body: { redirect_uris: [uri] } });
      expect([uri, registered.status, registered.body.error]).toEqual([uri, 400, 'invalid_redirect_uri']);
    }
    const plain = await api.request('POST', '/oauth/register', {
      body: { redirect_uris: ['https://example.com/cb?x=1'] },
    });
    expect(plain.status).toBe(201);
  });

  it('revokes every access and refresh token issued from a code when the code is presented again', async () => {
    const account = await api.newAccount();
    const merchant = await newMerchant(api, account.testKey, { ...EKU, serie: 'OR' });
    const password = 'replayed code password';
    const user = await createConsoleUser(api.orm.em.fork(), {
      email: `replay-${Date.now()}@example.com`,
      password,
      role: 'finance',
      accountId: account.accountId,
    });
    const registered = await api.request('POST', '/oauth/register', { body: { redirect_uris: [REDIRECT] } });
    const clientId = registered.body.client_id as string;
    const verifier = 'r'.repeat(64);
    const { createHash } = await import('node:crypto');
    const url = new URL(`${api.url}/oauth/authorize`);
    for (const [k, v] of Object.entries({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    }))
      url.searchParams.set(k, v);
    const code = (await signInAndApprove(url, user.email, password, [merchant.id])).searchParams.get('code')!;
    const token = (fields: Record<string, string>) =>
      api.request('POST', '/oauth/token', {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        rawBody: form({ client_id: clientId, ...fields }),
      });
    const byCode = () =>
      token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier });
    const first = await byCode();
    expect(first.status).toBe(200);
    // The grant's tokens go on after a rotation: they were all issued from this code.
    const rotated = await token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token });
    expect(rotated.status).toBe(200);
    const balance = (bearer: string) =>
      fetch(`${api.url}/mcp/test`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${bearer}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'get_balance' },
        }),
      });
    expect((await balance(first.body.access_token)).status).toBe(200);
    expect((await balance(rotated.body.access_token)).status).toBe(200);

    expect((await byCode()).body).toMatchObject({ error: 'invalid_grant' });
    for (const access of [first.body.access_token, rotated.body.access_token])
      expect((await balance(access)).status).toBe(401);
    expect(
      (await token({ grant_type: 'refresh_token', refresh_token: rotated.body.refresh_token })).body,
    ).toMatchObject({ error: 'invalid_grant' });
  }, 60_000);

  it("signs in under the console's policy: every attempt audited with the channel, the throttle after repeated wrong passwords, 403 for a user without an account", async () => {
    const account = await api.newAccount();
    const password = 'yet another long password';
    const user = await createConsoleUser(api.orm.em.fork(), {
      email: `lock-${Date.now()}@example.com`,
      password,
      role: 'finance',
      accountId: account.accountId,
    });
    const platformUser = await createConsoleUser(api.orm.em.fork(), {
      email: `platform-${Date.now()}@example.com`,
      password,
      role: 'operator',
    });
    const registered = await api.request('POST', '/oauth/register', { body: { redirect_uris: [REDIRECT] } });
    const url = new URL(`${api.url}/oauth/authorize`);
    for (const [k, v] of Object.entries({
      response_type: 'code',
      client_id: registered.body.client_id,
      redirect_uri: REDIRECT,
      code_challenge: 'x'.repeat(43),
      code_challenge_method: 'S256',
    }))
      url.searchParams.set(k, v);
    const page = await fetch(url);
    const cookie = `cfdi_oauth_csrf=${page.headers.get('set-cookie')!.match(/cfdi_oauth_csrf=([^;]+)/)![1]}`;
    const handle = hidden(await page.text(), 'handle')!;
    const attempt = (pw: string, email = user.email) =>
      fetch(`${api.url}/oauth/authorize/login`, {
        method: 'POST',
        body: form({ handle, email, password: pw }),
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
      });
    const pending = (
      (await api.orm.em
        .fork()
        .execute('select id from oauth_authorizations where client_id = ?', [registered.body.client_id])) as {
        id: string;
      }[]
    )[0]!;

    expect((await attempt(password)).status).toBe(200);
    // This address's failures of earlier runs (Redis outlives them) must not throttle this one before its time.
    const testIp = (
      (await api.orm.em
        .fork()
        .execute('select ip from console_audit where actor_email = ?', [user.email])) as { ip: string }[]
    )[0]!.ip;
    await api.redis.del(`console-login:ip:${testIp}`);
    const noAccount = await attempt(password, platformUser.email);
    expect(noAccount.status).toBe(403);
    expect(await noAccount.text()).toContain('no pertenece a ninguna cuenta');
    for (let i = 0; i < SIGN_IN_LOCKOUT.failures; i += 1) {
      const wrong = await attempt('wrong password!');
      expect(wrong.status).toBe(401);
      expect(await wrong.text()).toContain('Correo o contraseña incorrectos');
    }
    // The console's throttle (per e-mail, shared with the console's sign-in) refuses before the password is checked.
    const throttled = await attempt(password);
    expect(throttled.status).toBe(429);
    expect(await throttled.text()).toMatch(/Demasiados intentos\. Espera \d+ segundos/);

    const audit = await api.orm.em
      .fork()
      .execute(
        'select actor_email, action, target, detail, ip from console_audit where actor_email in (?, ?) order by id',
        [user.email, platformUser.email],
      );
    const ip = audit[0]?.ip;
    expect(ip).toMatch(/127\.0\.0\.1/);
    expect(audit).toEqual([
      {
        actor_email: user.email,
        action: 'session.sign_in',
        target: pending.id,
        detail: { channel: 'oauth_consent' },
        ip,
      },
      {
        actor_email: platformUser.email,
        action: 'session.sign_in_failed',
        target: null,
        detail: {
          channel: 'oauth_consent',
          reason: 'forbidden',
          message: 'Este usuario no pertenece a ninguna cuenta.',
        },
        ip,
      },
      ...Array(SIGN_IN_LOCKOUT.failures).fill({
        actor_email: user.email,
        action: 'session.sign_in_failed',
        target: null,
        detail: { channel: 'oauth_consent', reason: 'invalid' },
        ip,
      }),
    ]);
  }, 60_000);

  it('`cfdi console-users` creates a user with a generated password shown once, lists, resets and disables it', async () => {
    const account = await api.newAccount();
    const email = `cli-${Date.now()}@example.com`;
    const created = await runCli(api.config, [
      'console-users',
      'create',
      email,
      '--role',
      'finance',
      '--account',
      account.accountId,
      '--mode',
      'test',
      '--json',
    ]);
    expect(created.code).toBe(0);
    const user = JSON.parse(created.stdout);
    expect(user).toMatchObject({
      email,
      role: 'finance',
      accountId: account.accountId,
      livemode: false,
      merchantIds: null,
    });
    expect(user.password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    const stored: { password_hash: string }[] = await api.orm.em
      .fork()
      .execute('select password_hash from console_users where id = ?', [user.id]);
    expect(stored[0]!.password_hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(stored[0]!.password_hash).not.toContain(user.password);

    const listed = await runCli(api.config, ['console-users', 'list', '--account', account.accountId]);
    expect(listed.stdout).toContain(
      `${email}  finance  ${account.accountId}  test only  all merchants  active`,
    );

    const reset = await runCli(api.config, ['console-users', 'reset-password', email]);
    const newPassword = reset.stdout.match(/Password: (\S+)/)![1]!;
    expect(newPassword).not.toBe(user.password);
    const registered = await api.request('POST', '/oauth/register', { body: { redirect_uris: [REDIRECT] } });
    const url = new URL(`${api.url}/oauth/authorize`);
    for (const [k, v] of Object.entries({
      response_type: 'code',
      client_id: registered.body.client_id,
      redirect_uri: REDIRECT,
      code_challenge: 'y'.repeat(43),
      code_challenge_method: 'S256',
    }))
      url.searchParams.set(k, v);
    const page = await fetch(url);
    const cookie = `cfdi_oauth_csrf=${page.headers.get('set-cookie')!.match(/cfdi_oauth_csrf=([^;]+)/)![1]}`;
    const handle = hidden(await page.text(), 'handle')!;
    const signIn = (password: string) =>
      fetch(`${api.url}/oauth/authorize/login`, {
        method: 'POST',
        body: form({ handle, email, password }),
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
      });
    expect((await signIn(user.password)).status).toBe(401);
    expect((await runCli(api.config, ['console-users', 'disable', email])).code).toBe(0);
    expect((await signIn(newPassword)).status).toBe(401);
  }, 300_000); // four CLI processes: ~20 s each on a loaded 2-core machine
});
