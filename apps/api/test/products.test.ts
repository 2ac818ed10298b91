import { callTool, connectMcp } from './mcp-client';
import { CUSTOMER, PRODUCT, attributesOf, notFound, saved, stampedXml } from './record-fixtures';
import { keyForAnotherMerchant } from './restricted-key';
import { idempotencyKey, invoiceBody, stampingAccount, startStack, type StackHarness } from './stack';

let stack: StackHarness;
beforeAll(async () => {
  stack = await startStack();
}, 60_000);
afterAll(async () => stack?.close(), 60_000);

const request = (method: string, path: string, key: string, body?: unknown) =>
  stack.api.request(method, path, { key, ...(body === undefined ? {} : { body }) });
const post = (key: string, url: string, body: unknown) =>
  stack.api.request('POST', url, { key, headers: { 'idempotency-key': idempotencyKey() }, body });
const paths = (res: { body: { errors?: { path: string }[] } }) => (res.body.errors ?? []).map((e) => e.path);
const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((c) => c.id);

describe('/v1/products', () => {
  it('creates with defaults, reads, updates partially, searches by SKU and text, pages and deletes', async () => {
    const { testKey } = await stack.api.newAccount();
    const laptop = await saved(stack, testKey, '/v1/products', PRODUCT);
    expect(laptop).toMatchObject({
      object: 'product',
      livemode: false,
      ...PRODUCT,
      pricesIncludeTax: true,
      taxable: true,
      ivaRate: 0.16,
      iepsRate: null,
    });
    expect(laptop.id).toMatch(/^prod_/);
    expect((await request('GET', `/v1/products/${laptop.id}`, testKey)).body).toEqual(laptop);
    const course = await saved(stack, testKey, '/v1/products', {
      description: 'Colegiatura mensual',
      productCode: '86121503',
      unitCode: 'E48',
      price: 3500,
      taxable: false,
    });
    const soda = await saved(stack, testKey, '/v1/products', {
      description: 'Refresco 600 ml',
      productCode: '50202306',
      unitCode: 'H87',
      price: 15.5,
      pricesIncludeTax: false,
      iepsRate: 0.08,
      sku: 'REF_600',
    });

    const patched = await request('PATCH', `/v1/products/${laptop.id}`, testKey, {
      price: 1276,
      unitName: null,
    });
    expect(patched.body).toMatchObject({ ...PRODUCT, price: 1276, unitName: null });

    expect(ids(await request('GET', '/v1/products?sku=LAP-001', testKey))).toEqual([laptop.id]);
    expect(ids(await request('GET', '/v1/products?q=colegiatura', testKey))).toEqual([course.id]);
    expect(ids(await request('GET', '/v1/products?q=ref_', testKey))).toEqual([soda.id]);
    // `_` is a character here, not a wildcard.
    expect(ids(await request('GET', '/v1/products?q=LAP_', testKey))).toEqual([]);
    const page1 = await request('GET', '/v1/products?limit=2', testKey);
    expect({ ids: ids(page1), more: page1.body.has_more }).toEqual({ ids: [soda.id, course.id], more: true });
    expect(ids(await request('GET', `/v1/products?limit=2&starting_after=${course.id}`, testKey))).toEqual([
      laptop.id,
    ]);

    expect((await request('DELETE', `/v1/products/${course.id}`, testKey)).body).toEqual({
      id: course.id,
      object: 'product',
      deleted: true,
    });
    expect((await request('GET', `/v1/products/${course.id}`, testKey)).status).toBe(404);
    expect(ids(await request('GET', '/v1/products', testKey))).toEqual([soda.id, laptop.id]);
  });

  it('checks a product with the item rules and keeps SKUs unique among live products', async () => {
    const { testKey } = await stack.api.newAccount();
    const refused = async (body: Record<string, unknown>) => {
      const res = await request('POST', '/v1/products', testKey, body);
      expect(res.status).toBe(400);
      return paths(res);
    };
    expect(await refused({ ...PRODUCT, productCode: '99999999', unitCode: 'ZZZ' })).toEqual([
      '/productCode',
      '/unitCode',
    ]);
    expect(await refused({ ...PRODUCT, productCode: '4321150' })).toEqual(['/productCode']);
    expect(await refused({ ...PRODUCT, ivaRate: 0.15 })).toEqual(['/ivaRate']);
    expect(await refused({ ...PRODUCT, iepsRate: 0.1 })).toEqual(['/iepsRate']);
    expect(await refused({ ...PRODUCT, price: 0 })).toEqual(['/price']);
    expect(await refused({ ...PRODUCT, description: 'A | B' })).toEqual(['/description']);

    const first = await saved(stack, testKey, '/v1/products', PRODUCT);
    const duplicate = await request('POST', '/v1/products', testKey, { ...PRODUCT, description: 'Otra' });
    expect({ status: duplicate.status, code: duplicate.body.code, paths: paths(duplicate) }).toEqual({
      status: 409,
      code: 'sku_already_exists',
      paths: ['/sku'],
    });
    const second = await saved(stack, testKey, '/v1/products', { ...PRODUCT, sku: 'LAP-002' });
    const renamed = await request('PATCH', `/v1/products/${second.id}`, testKey, { sku: 'LAP-001' });
    expect({ status: renamed.status, paths: paths(renamed) }).toEqual({ status: 409, paths: ['/sku'] });
    // Two saves racing for one SKU: the unique index lets exactly one through.
    const race = await Promise.all(
      [1, 2, 3].map((n) =>
        request('POST', '/v1/products', testKey, { ...PRODUCT, sku: 'RACE', description: `R${n}` }),
      ),
    );
    expect(race.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    // A deleted product frees its SKU; another account or mode has SKUs of its own.
    await request('DELETE', `/v1/products/${first.id}`, testKey);
    expect((await request('POST', '/v1/products', testKey, PRODUCT)).status).toBe(201);
    const other = await stack.api.newAccount();
    expect((await request('POST', '/v1/products', other.testKey, PRODUCT)).status).toBe(201);
  });

  it("answers another account's, mode's or a restricted key's product as an unknown one", async () => {
    const account = await stampingAccount(stack);
    const product = await saved(stack, account.testKey, '/v1/products', PRODUCT);
    const other = await stack.api.newAccount();
    const restricted = await keyForAnotherMerchant(stack.api, account);
    const unknown = 'prod_0000000000AAAAAAAAAAAAAAAA';
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { price: 1 }],
      ['DELETE', undefined],
    ] as const) {
      const expected = notFound(
        await request(method, `/v1/products/${unknown}`, account.testKey, body),
        unknown,
      );
      for (const key of [other.testKey, account.liveKey, restricted])
        expect(notFound(await request(method, `/v1/products/${product.id}`, key, body), product.id)).toEqual(
          expected,
        );
    }
    for (const key of [other.testKey, account.liveKey, restricted])
      expect(ids(await request('GET', '/v1/products', key))).toEqual([]);
    expect((await request('POST', '/v1/products', restricted, PRODUCT)).status).toBe(403);
    expect((await request('GET', `/v1/products/${product.id}`, account.testKey)).body.price).toBe(1160);

    const otherStamping = await stampingAccount(stack);
    const withProduct = (merchantId: string, productId: string) =>
      invoiceBody(merchantId, {
        items: [invoiceBody(merchantId).items[0], { productId, quantity: 1 }],
      });
    const restrictedMerchant = (await request('GET', '/v1/merchants', restricted)).body.data[0].id as string;
    for (const res of [
      await post(account.testKey, '/v1/invoices', withProduct(account.merchantId, unknown)),
      await post(otherStamping.testKey, '/v1/invoices', withProduct(otherStamping.merchantId, product.id)),
      await post(restricted, '/v1/invoices', withProduct(restrictedMerchant, product.id)),
    ])
      expect({ status: res.status, paths: paths(res) }).toEqual({
        status: 400,
        paths: ['/items/1/productId'],
      });
  }, 60_000);
});

describe('items made from products', () => {
  it("uses the product's tax-included or tax-excluded price, and refuses a document that says otherwise", async () => {
    const account = await stampingAccount(stack);
    const soda = await saved(stack, account.testKey, '/v1/products', {
      description: 'Refresco 600 ml',
      productCode: '50202306',
      unitCode: 'H87',
      price: 100,
      pricesIncludeTax: false,
    });
    const laptop = await saved(stack, account.testKey, '/v1/products', PRODUCT);
    const body = (items: unknown[], extra: Record<string, unknown> = {}) =>
      invoiceBody(account.merchantId, { items, ...extra });

    // Left out, pricesIncludeTax is the products'.
    const excluded = await post(account.testKey, '/v1/invoices', body([{ productId: soda.id, quantity: 3 }]));
    expect(excluded.body).toMatchObject({ status: 'stamped', subtotal: 300, total: 348 });

    const mixed = await post(
      account.testKey,
      '/v1/invoices',
      body([
        { productId: soda.id, quantity: 1 },
        { productId: laptop.id, quantity: 1 },
      ]),
    );
    expect({ status: mixed.status, paths: paths(mixed) }).toEqual({
      status: 400,
      paths: ['/pricesIncludeTax'],
    });
    const contrary = await post(
      account.testKey,
      '/v1/invoices',
      body(
        [
          { productId: soda.id, quantity: 1 },
          { productId: laptop.id, quantity: 1 },
        ],
        { pricesIncludeTax: true },
      ),
    );
    expect({ status: contrary.status, paths: paths(contrary) }).toEqual({
      status: 400,
      paths: ['/items/0/productId'],
    });
    // An item's own unitPrice is read in the document's sense.
    const overridden = await post(
      account.testKey,
      '/v1/invoices',
      body(
        [
          { productId: soda.id, quantity: 1, unitPrice: 116 },
          { productId: laptop.id, quantity: 1 },
        ],
        {
          pricesIncludeTax: true,
        },
      ),
    );
    expect(overridden.body).toMatchObject({ status: 'stamped', total: 1276 });

    // A full item and a product item side by side; a product item takes only its own fields.
    const strange = await post(
      account.testKey,
      '/v1/invoices',
      body([{ productId: laptop.id, quantity: 1, taxable: false }]),
    );
    expect({ status: strange.status, paths: paths(strange) }).toEqual({
      status: 400,
      paths: ['/items/0/taxable'],
    });
    const half = await post(
      account.testKey,
      '/v1/invoices',
      body([{ productCode: '43211503', quantity: 1 }]),
    );
    expect(paths(half)).toEqual(['/items/0/unitCode', '/items/0/description', '/items/0/unitPrice']);
  }, 60_000);

  it("converts a product's MXN price at a foreign-currency document's tipoCambio, never taking pesos for dollars", async () => {
    const account = await stampingAccount(stack);
    const laptop = await saved(stack, account.testKey, '/v1/products', PRODUCT);
    const usd = (items: unknown[]) =>
      post(
        account.testKey,
        '/v1/invoices',
        invoiceBody(account.merchantId, { items, moneda: 'USD', tipoCambio: 17.25 }),
      );

    // 1,160 MXN at 17.25 MXN per dollar: 67.246377 USD (ValorUnitario's 6 decimals), tax included as saved.
    const converted = await usd([{ productId: laptop.id, quantity: 1 }]);
    expect(converted.body).toMatchObject({ status: 'stamped', currency: 'USD', total: 67.25 });
    const xml = await stampedXml(stack, converted.body.id);
    expect(attributesOf(xml, 'Comprobante')).toMatchObject({
      Moneda: 'USD',
      TipoCambio: '17.25',
      Total: '67.25',
    });
    // The concept's ValorUnitario is that price without its IVA: 67.246377 / 1.16.
    expect(Number(attributesOf(xml, 'Concepto').ValorUnitario)).toBeCloseTo(67.246377 / 1.16, 6);

    // An item's own unitPrice is in the document's currency, as sent.
    const own = await usd([{ productId: laptop.id, quantity: 1, unitPrice: 116 }]);
    expect(own.body).toMatchObject({ status: 'stamped', currency: 'USD', total: 116 });
  }, 60_000);

  it("stamps a credit note from the customer's current data and a product", async () => {
    const account = await stampingAccount(stack);
    const customer = await saved(stack, account.testKey, '/v1/customers', CUSTOMER);
    const product = await saved(stack, account.testKey, '/v1/products', PRODUCT);
    const invoice = await post(account.testKey, '/v1/invoices', {
      ...invoiceBody(account.merchantId),
      receiver: undefined,
      customerId: customer.id,
    });
    // The customer moved since the invoice: the credit note names it as it is now, under the invoice's RFC.
    await request('PATCH', `/v1/customers/${customer.id}`, account.testKey, { zip: '86000' });
    const noteBody = (customerId: string) => ({
      merchantId: account.merchantId,
      relatedInvoiceId: invoice.body.id,
      formaPago: '03',
      customerId,
      items: [{ productId: product.id, quantity: 1, description: 'Devolución de computadora' }],
    });
    const note = await post(account.testKey, '/v1/credit_notes', noteBody(customer.id));
    expect(note.body).toMatchObject({
      status: 'stamped',
      kind: 'credit_note',
      customerId: customer.id,
      total: 1160,
      receiver: { rfc: CUSTOMER.rfc, zip: '86000' },
    });
    const xml = await stampedXml(stack, note.body.id);
    expect(attributesOf(xml, 'Receptor')).toMatchObject({
      Rfc: CUSTOMER.rfc,
      DomicilioFiscalReceptor: '86000',
    });
    expect(attributesOf(xml, 'Concepto')).toMatchObject({
      NoIdentificacion: PRODUCT.sku,
      Descripcion: 'Devolución de computadora',
    });
    const stranger = await saved(stack, account.testKey, '/v1/customers', {
      rfc: 'XOJI740919U48',
      legalName: 'INGRID XODAR JIMENEZ',
      regimenFiscal: '612',
      zip: '88965',
    });
    const wrong = await post(account.testKey, '/v1/credit_notes', noteBody(stranger.id));
    expect({ status: wrong.status, paths: paths(wrong) }).toEqual({ status: 400, paths: ['/customerId'] });
  }, 60_000);
});

describe('customer and product tools', () => {
  it('create, list, get and update customers and products, and create_invoice takes their ids', async () => {
    const account = await stampingAccount(stack);
    const client = await connectMcp(stack.api.url, '/mcp/test', account.testKey);
    try {
      const customer = await callTool(client, 'create_customer', CUSTOMER);
      expect(customer.data).toMatchObject({ object: 'customer', ...CUSTOMER });
      expect(customer.text).toContain(customer.data.id);
      const product = await callTool(client, 'create_product', PRODUCT);
      expect(product.data).toMatchObject({ object: 'product', ...PRODUCT });

      const customers = await callTool(client, 'list_customers', { q: 'robotica' });
      expect(customers.data.data.map((c: { id: string }) => c.id)).toEqual([customer.data.id]);
      expect(customers.text).toContain(CUSTOMER.rfc);
      const products = await callTool(client, 'list_products', { sku: PRODUCT.sku });
      expect(products.data.data.map((p: { id: string }) => p.id)).toEqual([product.data.id]);
      expect((await callTool(client, 'get_customer', { id: customer.data.id })).data).toEqual(
        (await request('GET', `/v1/customers/${customer.data.id}`, account.testKey)).body,
      );
      const updated = await callTool(client, 'update_product', { id: product.data.id, price: 2320 });
      expect(updated.data.price).toBe(2320);
      expect((await callTool(client, 'get_product', { id: product.data.id })).data.price).toBe(2320);
      const bad = await callTool(client, 'create_customer', { ...CUSTOMER, legalName: 'ROBOTICA SA DE CV' });
      expect(bad.problem.errors.map((e: { path: string }) => e.path)).toEqual(['/legalName']);

      const invoice = await callTool(client, 'create_invoice', {
        merchantId: account.merchantId,
        formaPago: '03',
        customerId: customer.data.id,
        items: [{ productId: product.data.id, quantity: 1 }],
        idempotency_key: idempotencyKey(),
      });
      expect(invoice.data).toMatchObject({ status: 'stamped', customerId: customer.data.id, total: 2320 });
    } finally {
      await client.close();
    }
  }, 60_000);
});
