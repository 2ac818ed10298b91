import { startApi, type ApiHarness } from './harness';

// Issue #34 item 4: a repeated or undeclared query parameter reached the handlers unchecked (500 from the database
// for `?invoiceId=a&invoiceId=b`). Every operation of the OpenAPI document is tried, so a new route is covered too.
let api: ApiHarness;
let key: string;
type Operation = {
  operationId: string;
  parameters?: { in: string; name: string; schema?: { type?: string } }[];
};
let operations: { path: string; operation: Operation }[];
beforeAll(async () => {
  api = await startApi();
  ({ testKey: key } = await api.newAccount({ rateLimitPerMinute: 10_000 }));
  const document = (await api.request('GET', '/v1/openapi.json')).body as {
    paths: Record<string, Record<string, Operation>>;
  };
  operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    methods.get ? [{ path: path.replace(/\{[^}]+\}/g, 'x_0'), operation: methods.get }] : [],
  );
}, 60_000);
afterAll(async () => api?.close());

const queryOf = (operation: Operation) =>
  (operation.parameters ?? []).filter((p) => p.in === 'query' && p.schema?.type !== 'array');
const get = (path: string, query: string) => api.request('GET', `${path}?${query}`, { key });
const paths = (body: { errors?: { path: string }[] }) => (body.errors ?? []).map((e) => e.path);

it('answers 400 with the path for every declared query parameter given twice, on every route', async () => {
  const tried = operations.filter(({ operation }) => queryOf(operation).length > 0);
  // The list routes, the catalog searches and the signed file download at least.
  expect(tried.length).toBeGreaterThanOrEqual(10);
  const wrong: string[] = [];
  for (const { path, operation } of tried) {
    for (const { name } of queryOf(operation)) {
      const answer = await get(path, `${name}=1&${name}=2`);
      if (answer.status !== 400 || !paths(answer.body).includes(`/${name}`))
        wrong.push(`${operation.operationId} ?${name}: ${answer.status} ${JSON.stringify(answer.body)}`);
      else expect(answer.headers.get('content-type')).toContain('application/problem+json');
    }
  }
  expect(wrong).toEqual([]);
}, 120_000);

it('answers 400 with the path for an undeclared query parameter, repeated or not, on every list route', async () => {
  // Routes without query parameters (the fixed catalogs) never read the query string; they are left out.
  const lists = operations.filter(
    ({ operation }) => /^(list|search)/.test(operation.operationId) && queryOf(operation).length > 0,
  );
  expect(lists.map((l) => l.operation.operationId)).toEqual(
    expect.arrayContaining(['listInvoices', 'listPayments', 'listNominas', 'listEvents']),
  );
  const wrong: string[] = [];
  for (const { path, operation } of lists) {
    const declared = new Set(queryOf(operation).map((p) => p.name));
    // The parameters of the report, each one undeclared somewhere (where it is declared it is the repeated case).
    for (const name of ['employeeRfc', 'paymentDateFrom', 'paymentDateTo', 'invoiceId']) {
      for (const query of [`${name}=a&${name}=b`, ...(declared.has(name) ? [] : [`${name}=a`])]) {
        const answer = await get(path, query);
        if (answer.status !== 400 || !paths(answer.body).includes(`/${name}`))
          wrong.push(`${operation.operationId} ?${query}: ${answer.status} ${JSON.stringify(answer.body)}`);
      }
    }
  }
  expect(wrong).toEqual([]);
}, 120_000);

it('says which parameter and why, and still serves a well-formed query', async () => {
  const repeated = await get('/v1/invoices', 'status=stamped&status=draft');
  expect(repeated.body.errors).toEqual([
    { path: '/status', message: 'must be given once (it was given 2 times)' },
  ]);
  const unknown = await get('/v1/invoices', 'invoiceId=a&invoiceId=b');
  expect(unknown.body.errors).toEqual([
    { path: '/invoiceId', message: 'is not an accepted query parameter' },
  ]);
  expect((await get('/v1/payments', 'invoiceId=inv_x&limit=5')).status).toBe(200);
  expect((await get('/v1/nominas', 'employeeRfc=FUNK671228PH6')).status).toBe(200);
});
