import { CUSTOMER, PRODUCT, attributesOf, notFound, saved, stampedXml } from './record-fixtures';
import { keyForAnotherMerchant } from './restricted-key';
import {
  idempotencyKey,
  invoiceBody,
  RECEIVER,
  stampingAccount,
  startStack,
  type StackHarness,
} from './stack';

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

describe('/v1/customers', () => {
  it('creates with defaults, reads, updates partially, searches, pages and deletes', async () => {
    const { testKey } = await stack.api.newAccount();
    const created = await saved(stack, testKey, '/v1/customers', CUSTOMER);
    expect(created).toMatchObject({
      object: 'customer',
      livemode: false,
      ...CUSTOMER,
      locale: 'es',
      autoEmail: null,
      address: null,
    });
    expect(created.id).toMatch(/^cus_/);
    expect((await request('GET', `/v1/customers/${created.id}`, testKey)).body).toEqual(created);

    const patched = await request('PATCH', `/v1/customers/${created.id}`, testKey, {
      locale: 'en',
      autoEmail: true,
      address: { street: 'AV. SIEMPRE VIVA', exterior: '742', city: 'VILLAHERMOSA', country: 'MEX' },
      usoCfdi: null,
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ ...CUSTOMER, usoCfdi: null, locale: 'en', autoEmail: true });
    expect(patched.body.address).toEqual({
      street: 'AV. SIEMPRE VIVA',
      exterior: '742',
      city: 'VILLAHERMOSA',
      country: 'MEX',
    });

    const other = await saved(stack, testKey, '/v1/customers', {
      rfc: 'XOJI740919U48',
      legalName: 'INGRID XODAR JIMENEZ',
      regimenFiscal: '612',
      zip: '88965',
    });
    const third = await saved(stack, testKey, '/v1/customers', {
      rfc: 'IIA040805DZ4',
      legalName: 'INDISTRIA ILUMINADORA DE ALMACENES',
      regimenFiscal: '601',
      zip: '62661',
    });
    expect(ids(await request('GET', '/v1/customers?q=robotica', testKey))).toEqual([created.id]);
    expect(ids(await request('GET', '/v1/customers?q=xoji', testKey))).toEqual([other.id]);
    expect(ids(await request('GET', '/v1/customers?rfc=IIA040805DZ4', testKey))).toEqual([third.id]);
    // The search's text is matched literally: % and _ are not wildcards.
    expect(ids(await request('GET', '/v1/customers?q=%25', testKey))).toEqual([]);

    const page1 = await request('GET', '/v1/customers?limit=2', testKey);
    expect({ ids: ids(page1), more: page1.body.has_more }).toEqual({ ids: [third.id, other.id], more: true });
    expect(ids(await request('GET', `/v1/customers?limit=2&starting_after=${other.id}`, testKey))).toEqual([
      created.id,
    ]);

    const deleted = await request('DELETE', `/v1/customers/${other.id}`, testKey);
    expect(deleted.body).toEqual({ id: other.id, object: 'customer', deleted: true });
    expect((await request('GET', `/v1/customers/${other.id}`, testKey)).status).toBe(404);
    expect((await request('PATCH', `/v1/customers/${other.id}`, testKey, { locale: 'en' })).status).toBe(404);
    expect((await request('DELETE', `/v1/customers/${other.id}`, testKey)).status).toBe(404);
    expect(ids(await request('GET', '/v1/customers', testKey))).toEqual([third.id, created.id]);
    // A deleted customer still counts as a cursor, so the page after it goes on.
    expect(ids(await request('GET', `/v1/customers?starting_after=${other.id}`, testKey))).toEqual([
      created.id,
    ]);
  });

  it('checks a customer with the receiver rules, each problem on its field', async () => {
    const { testKey } = await stack.api.newAccount();
    const refused = async (body: Record<string, unknown>, method = 'POST', path = '/v1/customers') => {
      const res = await request(method, path, testKey, body);
      expect(res.status).toBe(400);
      return res.body.errors as { path: string; message: string }[];
    };
    expect((await refused({ ...CUSTOMER, rfc: 'URE18042' })).map((e) => e.path)).toEqual(['/rfc']);
    expect(await refused({ ...CUSTOMER, rfc: 'URE181329TM6' })).toEqual([
      { path: '/rfc', message: expect.stringContaining('not a valid RFC') },
    ]);
    expect(
      await refused({ ...CUSTOMER, rfc: 'XAXX010101000', legalName: 'PUBLICO EN GENERAL', usoCfdi: 'S01' }),
    ).toEqual([{ path: '/regimenFiscal', message: expect.stringContaining('616') }]);
    expect(await refused({ ...CUSTOMER, legalName: 'UNIVERSIDAD ROBOTICA ESPAÑOLA S.A. DE C.V.' })).toEqual([
      { path: '/legalName', message: expect.stringContaining('corporate-regime suffix') },
    ]);
    expect((await refused({ ...CUSTOMER, legalName: 'Universidad Robotica' })).map((e) => e.path)).toEqual([
      '/legalName',
    ]);
    expect((await refused({ ...CUSTOMER, zip: '8699' })).map((e) => e.path)).toEqual(['/zip']);
    expect(
      (await refused({ ...CUSTOMER, usoCfdi: undefined, regimenFiscal: '605' })).map((e) => e.path),
    ).toEqual(['/regimenFiscal']);
    expect((await refused({ ...CUSTOMER, usoCfdi: 'D01' })).map((e) => e.path)).toEqual(['/usoCfdi']);
    for (const email of ['no-at-sign', 'a@b', 'x\r\nBcc: all@evil.example@mail.mx', 'a b@mail.mx']) {
      expect((await refused({ ...CUSTOMER, emails: ['ok@mail.mx', email] })).map((e) => e.path)).toEqual([
        '/emails/1',
      ]);
    }
    expect(
      (await refused({ ...CUSTOMER, emails: Array.from({ length: 11 }, (_, i) => `c${i}@mail.mx`) })).map(
        (e) => e.path,
      ),
    ).toEqual(['/emails']);
    expect((await refused({ ...CUSTOMER, locale: 'fr' })).map((e) => e.path)).toEqual(['/locale']);

    // An update is checked merged with the customer it changes: a regime that does not fit its RFC is refused.
    const customer = await saved(stack, testKey, '/v1/customers', CUSTOMER);
    expect(
      (await refused({ regimenFiscal: '605' }, 'PATCH', `/v1/customers/${customer.id}`)).map((e) => e.path),
    ).toContain('/regimenFiscal');
    expect((await request('GET', `/v1/customers/${customer.id}`, testKey)).body.regimenFiscal).toBe('601');
  });

  it("answers another account's, mode's or a restricted key's customer as an unknown one", async () => {
    const account = await stampingAccount(stack);
    const customer = await saved(stack, account.testKey, '/v1/customers', CUSTOMER);
    const other = await stack.api.newAccount();
    const restricted = await keyForAnotherMerchant(stack.api, account);
    const unknown = 'cus_0000000000AAAAAAAAAAAAAAAA';
    const routes: [string, unknown][] = [
      ['GET', undefined],
      ['PATCH', { locale: 'en' }],
      ['DELETE', undefined],
    ];
    for (const [method, body] of routes) {
      const expected = notFound(
        await request(method, `/v1/customers/${unknown}`, account.testKey, body),
        unknown,
      );
      expect(expected).toMatchObject({ status: 404, code: 'not_found' });
      for (const key of [other.testKey, account.liveKey, restricted]) {
        const res = await request(method, `/v1/customers/${customer.id}`, key, body);
        expect(notFound(res, customer.id)).toEqual(expected);
      }
    }
    for (const key of [other.testKey, account.liveKey, restricted])
      expect(ids(await request('GET', '/v1/customers', key))).toEqual([]);
    expect((await request('POST', '/v1/customers', restricted, CUSTOMER)).status).toBe(403);
    expect((await request('GET', `/v1/customers/${customer.id}`, account.testKey)).body.locale).toBe('es');

    // In a create, a foreign customerId is the same 400 as an unknown one.
    const { merchantId: _ignored, ...rest } = invoiceBody(account.merchantId);
    const withCustomer = (merchantId: string, customerId: string) => {
      const { receiver: _receiver, ...body } = { ...rest, merchantId };
      return { ...body, customerId };
    };
    const otherStamping = await stampingAccount(stack);
    const restrictedMerchant = (await request('GET', '/v1/merchants', restricted)).body.data[0].id as string;
    const answers = await Promise.all([
      post(account.testKey, '/v1/invoices', withCustomer(account.merchantId, unknown)),
      post(otherStamping.testKey, '/v1/invoices', withCustomer(otherStamping.merchantId, customer.id)),
      post(restricted, '/v1/invoices', withCustomer(restrictedMerchant, customer.id)),
    ]);
    for (const res of answers) {
      expect({ status: res.status, paths: paths(res) }).toEqual({ status: 400, paths: ['/customerId'] });
    }
  }, 60_000);
});

describe('documents made from a saved customer and product', () => {
  it('stamps an invoice carrying their data, which a later edit of the customer never changes', async () => {
    const account = await stampingAccount(stack);
    const customer = await saved(stack, account.testKey, '/v1/customers', CUSTOMER);
    const product = await saved(stack, account.testKey, '/v1/products', PRODUCT);
    const res = await post(account.testKey, '/v1/invoices', {
      merchantId: account.merchantId,
      formaPago: '03',
      customerId: customer.id,
      items: [
        { productId: product.id, quantity: 2 },
        { productId: product.id, quantity: 1, unitPrice: 580, description: 'Computadora reacondicionada' },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'stamped',
      customerId: customer.id,
      usoCfdi: 'G03',
      receiver: RECEIVER,
      total: 2900,
    });
    const xml = await stampedXml(stack, res.body.id);
    expect(attributesOf(xml, 'Receptor')).toMatchObject({
      Rfc: CUSTOMER.rfc,
      Nombre: CUSTOMER.legalName,
      DomicilioFiscalReceptor: CUSTOMER.zip,
      RegimenFiscalReceptor: CUSTOMER.regimenFiscal,
      UsoCFDI: 'G03',
    });
    expect(attributesOf(xml, 'Concepto')).toMatchObject({
      ClaveProdServ: PRODUCT.productCode,
      ClaveUnidad: PRODUCT.unitCode,
      Unidad: PRODUCT.unitName,
      NoIdentificacion: PRODUCT.sku,
      Descripcion: PRODUCT.description,
      Cantidad: '2',
      ValorUnitario: '1000.000000',
      ObjetoImp: '02',
    });
    expect(xml).toContain('Descripcion="Computadora reacondicionada"');

    const before = (await request('GET', `/v1/invoices/${res.body.id}`, account.testKey)).body;
    const edited = await request('PATCH', `/v1/customers/${customer.id}`, account.testKey, {
      zip: '86000',
      usoCfdi: 'G01',
    });
    expect(edited.status).toBe(200);
    await request('DELETE', `/v1/products/${product.id}`, account.testKey);
    const after = (await request('GET', `/v1/invoices/${res.body.id}`, account.testKey)).body;
    expect({ ...after, files: null }).toEqual({ ...before, files: null });
    expect(await stampedXml(stack, res.body.id)).toBe(xml);

    // The edit applies to the next document; a deleted customer makes none.
    const next = await post(account.testKey, '/v1/invoices', {
      ...invoiceBody(account.merchantId),
      receiver: undefined,
      usoCfdi: undefined,
      customerId: customer.id,
    });
    expect(next.body).toMatchObject({
      status: 'stamped',
      usoCfdi: 'G01',
      receiver: { ...RECEIVER, zip: '86000' },
    });
    await request('DELETE', `/v1/customers/${customer.id}`, account.testKey);
    expect((await request('GET', `/v1/invoices/${next.body.id}`, account.testKey)).body.customerId).toBe(
      customer.id,
    );
    const gone = await post(account.testKey, '/v1/invoices', {
      ...invoiceBody(account.merchantId),
      receiver: undefined,
      customerId: customer.id,
    });
    expect({ status: gone.status, paths: paths(gone) }).toEqual({ status: 400, paths: ['/customerId'] });
  }, 60_000);

  it('takes exactly one of receiver and customerId', async () => {
    const account = await stampingAccount(stack);
    const customer = await saved(stack, account.testKey, '/v1/customers', CUSTOMER);
    const both = await post(account.testKey, '/v1/invoices', {
      ...invoiceBody(account.merchantId),
      customerId: customer.id,
    });
    expect({ status: both.status, paths: paths(both) }).toEqual({ status: 400, paths: ['/customerId'] });
    const neither = await post(account.testKey, '/v1/invoices', {
      ...invoiceBody(account.merchantId),
      receiver: undefined,
    });
    expect({ status: neither.status, paths: paths(neither) }).toEqual({ status: 400, paths: ['/receiver'] });
    // No usoCfdi and a customer without a default: the document's own rule asks for it.
    const noUse = await saved(stack, account.testKey, '/v1/customers', { ...CUSTOMER, usoCfdi: null });
    const missing = await post(account.testKey, '/v1/invoices', {
      ...invoiceBody(account.merchantId),
      receiver: undefined,
      usoCfdi: undefined,
      customerId: noUse.id,
    });
    expect({ status: missing.status, paths: paths(missing) }).toEqual({ status: 400, paths: ['/usoCfdi'] });
  }, 60_000);

  it("issues a payment complement to the customer's current data under the invoice's RFC", async () => {
    const account = await stampingAccount(stack);
    const customer = await saved(stack, account.testKey, '/v1/customers', CUSTOMER);
    const invoice = await post(account.testKey, '/v1/invoices', {
      ...invoiceBody(account.merchantId, { metodoPago: 'PPD', formaPago: '99' }),
      receiver: undefined,
      customerId: customer.id,
    });
    expect(invoice.body).toMatchObject({ status: 'stamped', customerId: customer.id });

    // Without customerId the complement goes to the invoice's receiver and keeps its customer.
    const first = await post(account.testKey, `/v1/invoices/${invoice.body.id}/payments`, {
      monto: 100,
      formaPago: '03',
    });
    expect(first.body).toMatchObject({ status: 'stamped', customerId: customer.id });

    await request('PATCH', `/v1/customers/${customer.id}`, account.testKey, { zip: '86000' });
    const second = await post(account.testKey, `/v1/invoices/${invoice.body.id}/payments`, {
      monto: 100,
      formaPago: '03',
      customerId: customer.id,
    });
    expect(second.body).toMatchObject({ status: 'stamped', customerId: customer.id });
    expect(attributesOf(await stampedXml(stack, second.body.id), 'Receptor')).toMatchObject({
      Rfc: CUSTOMER.rfc,
      DomicilioFiscalReceptor: '86000',
      UsoCFDI: 'CP01',
    });

    const stranger = await saved(stack, account.testKey, '/v1/customers', {
      rfc: 'XOJI740919U48',
      legalName: 'INGRID XODAR JIMENEZ',
      regimenFiscal: '612',
      zip: '88965',
    });
    const wrong = await post(account.testKey, `/v1/invoices/${invoice.body.id}/payments`, {
      monto: 100,
      formaPago: '03',
      customerId: stranger.id,
    });
    expect({ status: wrong.status, paths: paths(wrong) }).toEqual({ status: 400, paths: ['/customerId'] });
    const other = await stack.api.newAccount();
    const foreign = await saved(stack, other.testKey, '/v1/customers', CUSTOMER);
    const refused = await post(account.testKey, `/v1/invoices/${invoice.body.id}/payments`, {
      monto: 100,
      formaPago: '03',
      customerId: foreign.id,
    });
    expect({ status: refused.status, paths: paths(refused) }).toEqual({
      status: 400,
      paths: ['/customerId'],
    });
  }, 60_000);
});
