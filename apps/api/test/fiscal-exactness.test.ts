import {
  idempotencyKey,
  invoiceBody,
  RECEIVER,
  stampingAccount,
  startStack,
  type StackHarness,
} from './stack';

/** Issue #22: what an accountant would reject, through the public API against the sandbox PAC. */
let stack: StackHarness;
beforeAll(async () => {
  // The sandbox with the SAT's default rules (RMF 2.7.1.35-IX on).
  stack = await startStack({}, {});
}, 60_000);
afterAll(async () => stack?.close(), 60_000);

type Account = Awaited<ReturnType<typeof stampingAccount>>;
const post = (key: string, url: string, body: unknown) =>
  stack.api.request('POST', url, { key, headers: { 'idempotency-key': idempotencyKey() }, body });
const paths = (res: { body: { errors?: Array<{ path: string }> } }) =>
  (res.body.errors ?? []).map((e) => e.path);
const stampedXml = async (id: string) =>
  (
    (await stack.api.orm.em.fork().execute('select stamped_xml from documents where id = ?', [id]))[0] as {
      stamped_xml: string;
    }
  ).stamped_xml;
const OTHER_RECEIVER = {
  rfc: 'CACX7605101P8',
  name: 'XOCHILT CASAS CHAVEZ',
  zip: '36257',
  regimenFiscal: '612',
};
const bonus = [
  { productCode: '84111506', unitCode: 'ACT', description: 'Bonificación', quantity: 1, unitPrice: 116 },
];

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
      post(account.testKey, '/v1/credit_notes', {
        merchantId: account.merchantId,
        formaPago: '03',
        items: bonus,
        ...relation,
        ...(receiver ? { receiver } : {}),
      });
    for (const relation of [{ relatedInvoiceId: inv.id }, { relatedUuid: inv.uuid }]) {
      const refused = await note(relation, OTHER_RECEIVER);
      expect(refused.status).toBe(400);
      expect(paths(refused)).toEqual(['/receiver']);
    }
    const same = await note(
      { relatedUuid: inv.uuid.toLowerCase() },
      { ...RECEIVER, name: ` ${RECEIVER.name} ` },
    );
    expect(same.status).toBe(201);
    expect(same.body).toMatchObject({ receiver: RECEIVER, relatedInvoiceId: inv.id });
  }, 60_000);
});

describe('payment complements add up to the invoice (defect 2)', () => {
  it("one installment of a 10.03125 net invoice carries IVA 1.61, the invoice's", async () => {
    const account = await stampingAccount(stack);
    const inv = await invoice(account, {
      metodoPago: 'PPD',
      formaPago: '99',
      pricesIncludeTax: false,
      items: [
        { productCode: '43211503', unitCode: 'H87', description: 'Cable', quantity: 1, unitPrice: 10.03125 },
      ],
    });
    expect(inv.total).toBe(11.64);
    expect(await stampedXml(inv.id)).toMatch(/TotalImpuestosTrasladados="1.61"/);
    const paid = await post(account.testKey, `/v1/invoices/${inv.id}/payments`, {
      monto: 11.64,
      formaPago: '03',
    });
    expect(paid.status).toBe(201);
    const xml = await stampedXml(paid.body.id);
    expect(xml).toContain('TotalTrasladosImpuestoIVA16="1.61"');
    expect(xml).toMatch(
      /<pago20:TrasladoDR BaseDR="10.03" ImpuestoDR="002" TipoFactorDR="Tasa" TasaOCuotaDR="0.160000" ImporteDR="1.61"/,
    );
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

  it("refuses a global invoice for a period after the issue date's (item 7)", async () => {
    const account = await stampingAccount(stack);
    const global = (meses: string) =>
      invoiceBody(account.merchantId, {
        usoCfdi: 'S01',
        receiver: { rfc: 'XAXX010101000', name: 'PUBLICO EN GENERAL', zip: '42501', regimenFiscal: '616' },
        informacionGlobal: { periodicidad: '04', meses, anio: 2026 },
        items: [
          {
            productCode: '01010101',
            unitCode: 'ACT',
            description: 'Venta',
            quantity: 1,
            unitPrice: 116,
            noIdentificacion: 'T-1',
          },
        ],
      });
    const future = await post(account.testKey, '/v1/invoices', global('12'));
    expect(future.status).toBe(400);
    expect(paths(future)).toEqual(['/informacionGlobal/meses']);
    expect((await post(account.testKey, '/v1/invoices', global('11'))).status).toBe(201);
  }, 60_000);

  it('takes IVA 8 % only from a merchant registered in the border-region stimulus (item 8)', async () => {
    const account = await stampingAccount(stack);
    const border = invoiceBody(account.merchantId, {
      items: [
        {
          productCode: '43211503',
          unitCode: 'H87',
          description: 'Monitor',
          quantity: 1,
          unitPrice: 1080,
          ivaRate: 0.08,
        },
      ],
    });
    const refused = await post(account.testKey, '/v1/invoices', border);
    expect(refused.status).toBe(400);
    expect(paths(refused)).toEqual(['/items/0/ivaRate']);
    const merchant = await stack.api.request('PATCH', `/v1/merchants/${account.merchantId}`, {
      key: account.testKey,
      body: { borderRegionStimulus: true },
    });
    expect(merchant.status).toBe(200);
    expect(merchant.body.borderRegionStimulus).toBe(true);
    const stamped = await post(account.testKey, '/v1/invoices', border);
    expect(stamped.status).toBe(201);
    expect(await stampedXml(stamped.body.id)).toContain('TasaOCuota="0.080000"');
  }, 60_000);
});

describe('substitution and cancellation motives (items 3 and 4)', () => {
  const small = [
    { productCode: '43211503', unitCode: 'H87', description: 'Mouse', quantity: 1, unitPrice: 580 },
  ];
  const cancel = (account: Account, id: string, body: unknown) =>
    post(account.testKey, `/v1/invoices/${id}/cancel`, body);

  it('a replacement carries CfdiRelacionados 04, and motive 01 needs one that relates the cancelled UUID', async () => {
    const account = await stampingAccount(stack);
    const original = await invoice(account, { items: small });
    const unrelated = await invoice(account, { items: small });
    const refused = await cancel(account, original.id, { motivo: '01', folioSustitucion: unrelated.uuid });
    expect(refused.status).toBe(400);
    expect(paths(refused)).toEqual(['/folioSustitucion']);

    const replacement = await invoice(account, {
      items: small,
      relatedDocuments: [{ tipoRelacion: '04', uuids: [original.uuid.toLowerCase()] }],
    });
    expect(await stampedXml(replacement.id)).toContain(
      `<cfdi:CfdiRelacionados TipoRelacion="04"><cfdi:CfdiRelacionado UUID="${original.uuid}"/></cfdi:CfdiRelacionados>`,
    );
    expect(
      (await stack.api.request('GET', `/v1/invoices/${replacement.id}`, { key: account.testKey })).body
        .relatedDocuments,
    ).toEqual([{ tipoRelacion: '04', uuids: [original.uuid] }]);
    const cancelled = await cancel(account, original.id, {
      motivo: '01',
      folioSustitucion: replacement.uuid,
    });
    expect(cancelled.status).toBe(202);
    expect(cancelled.body).toMatchObject({
      status: 'cancelled',
      cancellation: { motivo: '01', folioSustitucion: replacement.uuid },
    });
  }, 90_000);

  it('the sandbox answers 207 like the SAT for a replacement stamped elsewhere that does not relate the cancelled UUID', async () => {
    const account = await stampingAccount(stack);
    const elsewhere = await stampingAccount(stack);
    const original = await invoice(account, { items: small });
    const foreign = await invoice(elsewhere, { items: small });
    const rejected = await cancel(account, original.id, { motivo: '01', folioSustitucion: foreign.uuid });
    expect(rejected.status).toBe(422);
    expect(rejected.body).toMatchObject({ code: 'sat_rejected', satCode: '207' });
  }, 90_000);

  it('relatedDocuments: c_TipoRelacion keys of an income CFDI, and 04 never names a payment complement', async () => {
    const account = await stampingAccount(stack);
    const wrongType = await post(
      account.testKey,
      '/v1/invoices',
      invoiceBody(account.merchantId, {
        relatedDocuments: [{ tipoRelacion: '05', uuids: ['0A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D'] }],
      }),
    );
    expect(wrongType.status).toBe(400);
    expect(paths(wrongType)).toEqual(['/relatedDocuments/0/tipoRelacion']);
    const ppd = await invoice(account, { metodoPago: 'PPD', formaPago: '99', items: small });
    const payment = await post(account.testKey, `/v1/invoices/${ppd.id}/payments`, {
      monto: 100,
      formaPago: '03',
    });
    expect(payment.status).toBe(201);
    const replacingPayment = await post(
      account.testKey,
      '/v1/invoices',
      invoiceBody(account.merchantId, {
        relatedDocuments: [{ tipoRelacion: '04', uuids: [payment.body.uuid] }],
      }),
    );
    expect(replacingPayment.status).toBe(400);
    expect(paths(replacingPayment)).toEqual(['/relatedDocuments/0/uuids/0']);
    const advance = await invoice(account, {
      items: small,
      relatedDocuments: [{ tipoRelacion: '07', uuids: [ppd.uuid] }],
    });
    expect(await stampedXml(advance.id)).toContain('TipoRelacion="07"');
  }, 90_000);

  it('motive 04 only on a global invoice', async () => {
    const account = await stampingAccount(stack);
    const ordinary = await invoice(account, { items: small });
    const refused = await cancel(account, ordinary.id, { motivo: '04' });
    expect(refused.status).toBe(400);
    expect(paths(refused)).toEqual(['/motivo']);
    const global = await invoice(account, {
      usoCfdi: 'S01',
      receiver: { rfc: 'XAXX010101000', name: 'PUBLICO EN GENERAL', zip: '42501', regimenFiscal: '616' },
      informacionGlobal: { periodicidad: '04', meses: '11', anio: 2026 },
      items: [
        {
          productCode: '01010101',
          unitCode: 'ACT',
          description: 'Venta',
          quantity: 1,
          unitPrice: 2320,
          noIdentificacion: 'T-9',
        },
      ],
    });
    const accepted = await cancel(account, global.id, { motivo: '04' });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toMatchObject({ status: 'cancelled', cancellation: { motivo: '04' } });
  }, 90_000);
});

describe('credit notes and the balance payment complements carry (item 10)', () => {
  it("a credit note in force reduces saldoPendiente, the next installment's ImpSaldoAnt and its taxes; cancelling it restores the balance", async () => {
    const account = await stampingAccount(stack);
    const inv = await invoice(account, {
      metodoPago: 'PPD',
      formaPago: '99',
      items: [
        { productCode: '43211503', unitCode: 'H87', description: 'Servidor', quantity: 1, unitPrice: 1160 },
      ],
    });
    const saldo = async () =>
      (await stack.api.request('GET', `/v1/invoices/${inv.id}`, { key: account.testKey })).body
        .saldoPendiente;
    const note = () =>
      post(account.testKey, '/v1/credit_notes', {
        merchantId: account.merchantId,
        relatedInvoiceId: inv.id,
        formaPago: '15',
        items: bonus,
      });
    const first = await note();
    expect(first.status).toBe(201);
    expect(await saldo()).toBe(1044);
    const cancelled = await post(account.testKey, `/v1/invoices/${first.body.id}/cancel`, { motivo: '02' });
    expect(cancelled.body).toMatchObject({ status: 'cancelled' });
    expect(await saldo()).toBe(1160);

    expect((await note()).status).toBe(201);
    expect(await saldo()).toBe(1044);
    const paid = await post(account.testKey, `/v1/invoices/${inv.id}/payments`, {
      monto: 1044,
      formaPago: '03',
    });
    expect(paid.status).toBe(201);
    expect(paid.body).toMatchObject({ saldoAnterior: 1044, saldoInsoluto: 0 });
    expect(await saldo()).toBe(0);
    const xml = await stampedXml(paid.body.id);
    expect(xml).toContain('ImpSaldoAnt="1044.00"');
    // The payments carry the invoice's taxes net of the credited share: 1,000.00 × 0.9, 160.00 × 0.9.
    expect(xml).toMatch(
      /<pago20:TrasladoDR BaseDR="900.00" ImpuestoDR="002" TipoFactorDR="Tasa" TasaOCuotaDR="0.160000" ImporteDR="144.00"/,
    );
  }, 120_000);
});

describe('cancellation without acceptance on the day of issue, RMF 2.7.1.35 IX (item 5)', () => {
  const ppd = {
    metodoPago: 'PPD',
    formaPago: '99',
    items: [
      { productCode: '43211503', unitCode: 'H87', description: 'Servidor', quantity: 1, unitPrice: 11600 },
    ],
  };

  it('a payment complement cancelled the day it was issued is cancelled at once; the documented acceptance receiver keeps the acceptance path', async () => {
    const account = await stampingAccount(stack);
    const inv = await invoice(account, ppd);
    const paid = await post(account.testKey, `/v1/invoices/${inv.id}/payments`, {
      monto: 5000,
      formaPago: '03',
    });
    expect(paid.status).toBe(201);
    const cancelled = await post(account.testKey, `/v1/payments/${paid.body.id}/cancel`, { motivo: '02' });
    expect(cancelled.status).toBe(202);
    expect(cancelled.body).toMatchObject({
      status: 'cancelled',
      cancellation: { status: 'accepted', acuse: { estatus: 'Cancelado sin aceptación' } },
    });

    const xenon = {
      rfc: 'XIA190128J61',
      name: 'XENON INDUSTRIAL ARTICLES',
      zip: '76343',
      regimenFiscal: '601',
    };
    const asked = await invoice(account, { ...ppd, receiver: xenon });
    const payment = await post(account.testKey, `/v1/invoices/${asked.id}/payments`, {
      monto: 5000,
      formaPago: '03',
    });
    const pending = await post(account.testKey, `/v1/payments/${payment.body.id}/cancel`, { motivo: '02' });
    expect(pending.status).toBe(202);
    expect(pending.body).toMatchObject({ status: 'cancel_pending', cancellation: { status: 'pending' } });
  }, 120_000);
});
