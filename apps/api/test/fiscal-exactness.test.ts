import { idempotencyKey, invoiceBody, RECEIVER, stampingAccount, startStack, type StackHarness } from './stack';

/** Issue #22: what an accountant would reject, through the public API against the sandbox PAC. */
let stack: StackHarness;
beforeAll(async () => {
  stack = await startStack();
}, 60_000);
afterAll(async () => stack?.close(), 60_000);

type Account = Awaited<ReturnType<typeof stampingAccount>>;
const post = (key: string, url: string, body: unknown) => stack.api.request('POST', url, { key, headers: { 'idempotency-key': idempotencyKey() }, body });
const paths = (res: { body: { errors?: Array<{ path: string }> } }) => (res.body.errors ?? []).map((e) => e.path);
const stampedXml = async (id: string) => ((await stack.api.orm.em.fork().execute('select stamped_xml from documents where id = ?', [id]))[0] as { stamped_xml: string }).stamped_xml;
const OTHER_RECEIVER = { rfc: 'CACX7605101P8', name: 'XOCHILT CASAS CHAVEZ', zip: '36257', regimenFiscal: '612' };
const bonus = [{ productCode: '84111506', unitCode: 'ACT', description: 'Bonificación', quantity: 1, unitPrice: 116 }];

async function invoice(account: Account, overrides: Record<string, unknown> = {}) {
  const res = await post(account.testKey, '/v1/invoices', invoiceBody(account.merchantId, overrides));
  expect(res.status).toBe(201);
  return res.body as { id: string; uuid: string; total: number };
}

describe('credit notes keep the receiver of the invoice they correct (defect 1)', () => {
  it('refuses another receiver with relatedInvoiceId or relatedUuid, and ignores the same one', async () => {
    const account = await stampingAccount(stack);
    const inv = await invoice(account);
    const note = (relation: Record<string, unknown>, receiver?: unknown) =>
      post(account.testKey, '/v1/credit_notes', { merchantId: account.merchantId, formaPago: '03', items: bonus, ...relation, ...(receiver ? { receiver } : {}) });
    for (const relation of [{ relatedInvoiceId: inv.id }, { relatedUuid: inv.uuid }]) {
      const refused = await note(relation, OTHER_RECEIVER);
      expect(refused.status).toBe(400);
      expect(paths(refused)).toEqual(['/receiver']);
    }
    const same = await note({ relatedUuid: inv.uuid.toLowerCase() }, { ...RECEIVER, name: ` ${RECEIVER.name} ` });
    expect(same.status).toBe(201);
    expect(same.body).toMatchObject({ receiver: RECEIVER, relatedInvoiceId: inv.id });
  }, 60_000);
});

describe('payment complements add up to the invoice (defect 2)', () => {
  it('one installment of a 10.03125 net invoice carries IVA 1.61, the invoice\'s', async () => {
    const account = await stampingAccount(stack);
    const inv = await invoice(account, {
      metodoPago: 'PPD', formaPago: '99', pricesIncludeTax: false,
      items: [{ productCode: '43211503', unitCode: 'H87', description: 'Cable', quantity: 1, unitPrice: 10.03125 }],
    });
    expect(inv.total).toBe(11.64);
    expect(await stampedXml(inv.id)).toMatch(/TotalImpuestosTrasladados="1.61"/);
    const paid = await post(account.testKey, `/v1/invoices/${inv.id}/payments`, { monto: 11.64, formaPago: '03' });
    expect(paid.status).toBe(201);
    const xml = await stampedXml(paid.body.id);
    expect(xml).toContain('TotalTrasladosImpuestoIVA16="1.61"');
    expect(xml).toMatch(/<pago20:TrasladoDR BaseDR="10.03" ImpuestoDR="002" TipoFactorDR="Tasa" TasaOCuotaDR="0.160000" ImporteDR="1.61"/);
  }, 60_000);
});

describe('rules of the SAT an accountant checks', () => {
  it('refuses usoCfdi CP01 and CN01 on an income invoice (item 6)', async () => {
    const account = await stampingAccount(stack);
    for (const usoCfdi of ['CP01', 'CN01']) {
      const res = await post(account.testKey, '/v1/invoices', invoiceBody(account.merchantId, { usoCfdi }));
      expect(res.status).toBe(400);
      expect(paths(res)).toEqual(['/usoCfdi']);
    }
  }, 60_000);

  it('refuses a global invoice for a period after the issue date\'s (item 7)', async () => {
    const account = await stampingAccount(stack);
    const global = (meses: string) => invoiceBody(account.merchantId, {
      usoCfdi: 'S01', receiver: { rfc: 'XAXX010101000', name: 'PUBLICO EN GENERAL', zip: '42501', regimenFiscal: '616' },
      informacionGlobal: { periodicidad: '04', meses, anio: 2026 },
      items: [{ productCode: '01010101', unitCode: 'ACT', description: 'Venta', quantity: 1, unitPrice: 116, noIdentificacion: 'T-1' }],
    });
    const future = await post(account.testKey, '/v1/invoices', global('12'));
    expect(future.status).toBe(400);
    expect(paths(future)).toEqual(['/informacionGlobal/meses']);
    expect((await post(account.testKey, '/v1/invoices', global('11'))).status).toBe(201);
  }, 60_000);

  it('takes IVA 8 % only from a merchant registered in the border-region stimulus (item 8)', async () => {
    const account = await stampingAccount(stack);
    const border = invoiceBody(account.merchantId, { items: [{ productCode: '43211503', unitCode: 'H87', description: 'Monitor', quantity: 1, unitPrice: 1080, ivaRate: 0.08 }] });
    const refused = await post(account.testKey, '/v1/invoices', border);
    expect(refused.status).toBe(400);
    expect(paths(refused)).toEqual(['/items/0/ivaRate']);
    const merchant = await stack.api.request('PATCH', `/v1/merchants/${account.merchantId}`, { key: account.testKey, body: { borderRegionStimulus: true } });
    expect(merchant.status).toBe(200);
    expect(merchant.body.borderRegionStimulus).toBe(true);
    const stamped = await post(account.testKey, '/v1/invoices', border);
    expect(stamped.status).toBe(201);
    expect(await stampedXml(stamped.body.id)).toContain('TasaOCuota="0.080000"');
  }, 60_000);
});
