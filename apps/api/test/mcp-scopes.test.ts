import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { freePort } from '@cfdi/devstack';
import { createConsoleUser, listConnectedClients, revokeConnectedClient } from '@cfdi/services';
import { startApi, type ApiHarness } from './harness';
import { EKU, newMerchant } from './merchant-fixtures';
import { callTool, hints } from './mcp-client';
import { approveInBrowser, grantThroughConsent, TestProvider } from './oauth-client';

// OAuth scopes of the tool server, through the MCP SDK client: a `read` grant lists and calls the read-only tools
// only, and a write tool called with it is refused with a problem naming the scope; `read write` reaches them all.
let api: ApiHarness;
let port: number;
beforeAll(async () => {
  port = await freePort();
  api = await startApi({ API_PORT: String(port), PUBLIC_BASE_URL: '' }, { port });
}, 60_000);
afterAll(async () => api?.close());

/** Connects an SDK client through OAuth asking for `scope`, as a person approving the consent page would. */
async function connectWithScope(scope: string) {
  const account = await api.newAccount();
  const merchant = await newMerchant(api, account.testKey, { ...EKU, serie: 'SC' });
  const password = 'correct horse battery staple';
  const user = await createConsoleUser(api.orm.em.fork(), {
    email: `scope-${scope.replace(' ', '-')}-${Date.now()}@example.com`,
    password,
    role: 'finance',
    accountId: account.accountId,
  });
  const provider = new TestProvider();
  const serverUrl = new URL(`http://127.0.0.1:${port}/mcp/test`);
  const first = new StreamableHTTPClientTransport(serverUrl, { authProvider: provider });
  await expect(new Client({ name: 'agent', version: '1' }).connect(first)).rejects.toBeInstanceOf(
    UnauthorizedError,
  );
  const url = provider.authorizationUrl!;
  url.searchParams.set('scope', scope);
  const { redirect, consentHtml } = await approveInBrowser(api.url, url, {
    email: user.email,
    password,
    merchantIds: [merchant.id],
  });
  const code = redirect.searchParams.get('code')!;
  await first.finishAuth(code);
  const client = new Client({ name: 'agent', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(serverUrl, { authProvider: provider }));
  return { client, merchant, consentHtml, granted: provider.saved!.scope };
}

it('a read grant lists and calls only the read-only tools; a write tool is refused with a clear 403', async () => {
  const { client, merchant, consentHtml, granted } = await connectWithScope('read');
  expect(granted).toBe('read');
  expect(consentHtml).toContain('pide solo lectura');
  const { tools } = await client.listTools();
  expect(tools.length).toBeGreaterThanOrEqual(12);
  expect(tools.filter((tool) => !hints(tool).readOnlyHint).map((tool) => tool.name)).toEqual([]);
  expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['get_invoice', 'list_merchants']));
  expect(tools.map((tool) => tool.name)).not.toContain('create_invoice');
  // A shared sub-schema points to a tool this listing has.
  const names = new Set(tools.map((tool) => tool.name));
  const pointers = JSON.stringify(tools).match(/"As [a-z_]+\./g) ?? [];
  for (const pointer of pointers) expect(names).toContain(pointer.slice(4, -1));

  const merchants = await callTool(client, 'list_merchants');
  expect(merchants.data.data.map((m: { id: string }) => m.id)).toEqual([merchant.id]);
  const refused = await callTool(client, 'create_invoice', { merchantId: merchant.id });
  expect(refused.result.isError).toBe(true);
  expect(refused.problem).toMatchObject({ status: 403, code: 'forbidden' });
  expect(refused.problem.detail).toContain('create_invoice needs the write scope');
});

it('a read write grant reaches every tool', async () => {
  const { client, consentHtml, granted } = await connectWithScope('read write');
  expect(granted).toBe('read write');
  expect(consentHtml).not.toContain('pide solo lectura');
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name)).toEqual(
    expect.arrayContaining(['create_invoice', 'cancel_invoice']),
  );
  // Every tool: the spec's 18, drafts', withholding certificates', e-mail's, the saved records' and receipts' (their
  // invoices, the global one).
  expect(tools).toHaveLength(39);
});

it('refuses an unknown scope with invalid_scope at the redirect URI', async () => {
  const registered = await api.request('POST', '/oauth/register', {
    body: { redirect_uris: ['http://127.0.0.1:45999/callback'] },
  });
  const url = new URL(`${api.url}/oauth/authorize`);
  for (const [k, v] of Object.entries({
    response_type: 'code',
    client_id: registered.body.client_id as string,
    redirect_uri: 'http://127.0.0.1:45999/callback',
    code_challenge: 'a'.repeat(43),
    code_challenge_method: 'S256',
    scope: 'read admin',
  }))
    url.searchParams.set(k, v);
  const answer = await fetch(url, { redirect: 'manual' });
  expect(answer.status).toBe(302);
  expect(new URL(answer.headers.get('location')!).searchParams.get('error')).toBe('invalid_scope');
});

it("lists a user's connected applications and disconnects one: its token is refused at once; another user's is a 404", async () => {
  const account = await api.newAccount();
  const merchant = await newMerchant(api, account.testKey, { ...EKU, serie: 'CN' });
  const password = 'correct horse battery staple';
  const em = () => api.orm.em.fork();
  const [owner, other] = await Promise.all(
    ['owner', 'other'].map((who) =>
      createConsoleUser(em(), {
        email: `${who}-${Date.now()}@example.com`,
        password,
        role: 'finance',
        accountId: account.accountId,
      }),
    ),
  );
  const grant = (scope: string, clientName: string) =>
    grantThroughConsent({
      apiUrl: api.url,
      resource: `${api.config.api.publicBaseUrl}/mcp/test`,
      email: owner!.email,
      password,
      merchantIds: [merchant.id],
      scope,
      clientName,
    });
  const reader = await grant('read', 'Lector');
  await grant('read write', 'Escritor');
  const listed = await listConnectedClients(em(), owner!.id);
  expect(listed.map((c) => [c.clientName, c.canWrite, c.merchantIds])).toEqual([
    ['Escritor', true, [merchant.id]],
    ['Lector', false, [merchant.id]],
  ]);
  expect(await listConnectedClients(em(), other!.id)).toEqual([]);

  const initialize = (token: string) =>
    fetch(`${api.url}/mcp/test`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    });
  expect((await initialize(reader.accessToken)).status).toBe(200);
  const lector = listed.find((c) => c.clientName === 'Lector')!;
  await expect(revokeConnectedClient(em(), other!.id, lector.grantId)).rejects.toMatchObject({ status: 404 });
  await revokeConnectedClient(em(), owner!.id, lector.grantId);
  expect((await initialize(reader.accessToken)).status).toBe(401);
  expect((await listConnectedClients(em(), owner!.id)).map((c) => c.clientName)).toEqual(['Escritor']);
  await expect(revokeConnectedClient(em(), owner!.id, lector.grantId)).rejects.toMatchObject({ status: 404 });
});
