import { deflateSync } from 'node:zlib';
import { NOMINA_RECEIPT } from '@cfdi/api';
import type { FuzzRequest, KnownIds } from './requests';

export interface PermanentCase {
  name: string;
  request: FuzzRequest;
  /** The status the platform must answer (besides the fuzzer's general rules). */
  status: number;
  /** A path the problem's `errors` must name: the refusal is for that field, not another problem of the body. */
  path?: string;
}

const RECEIVER = {
  rfc: 'URE180429TM6',
  name: 'UNIVERSIDAD ROBOTICA ESPAÑOLA',
  zip: '86991',
  regimenFiscal: '601',
};
const item = (overrides: Record<string, unknown>) => ({
  productCode: '43211503',
  unitCode: 'H87',
  description: 'Equipo',
  quantity: 1,
  unitPrice: 1,
  ...overrides,
});
const post = (route: string, path: string, body: unknown): FuzzRequest => ({
  method: 'POST',
  route,
  path,
  query: {},
  body,
  auth: 'key',
  idempotencyKey: `perm-${Math.random()}`,
});
const patch = (route: string, path: string, body: unknown): FuzzRequest => ({
  ...post(route, path, body),
  method: 'PATCH',
});
const get = (route: string, path: string, query: Record<string, string> = {}): FuzzRequest => ({
  method: 'GET',
  route,
  path,
  query,
  auth: 'key',
});

/** A PNG header claiming 11,000 × 11,000 RGBA pixels (the 470 KB bomb of defect 4 decodes to 484 MB). */
function bombPng(): string {
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const b of bytes) {
      c ^= b;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    }
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const typed = Buffer.concat([Buffer.from(type), data]);
    const out = Buffer.alloc(data.length + 12);
    out.writeUInt32BE(data.length, 0);
    typed.copy(out, 4);
    out.writeUInt32BE(crc(typed), data.length + 8);
    return out;
  };
  const ihdr = Buffer.from([0, 0, 0x2a, 0xf8, 0, 0, 0x2a, 0xf8, 8, 6, 0, 0, 0]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(200_000))),
    chunk('IEND', Buffer.alloc(0)),
  ]).toString('base64');
}

const EKU = { rfc: 'EKU9003173C9', legalName: 'ESCUELA KEMPER URGATE', regimenFiscal: '601', zip: '42501' };

/** A valid POST /v1/nominas body for the EKU9003173C9 test employer, with `employee` fields replaced. */
const nomina = (merchantId: string, employee: Record<string, unknown>) => ({
  ...NOMINA_RECEIPT,
  merchantId,
  employee: { ...NOMINA_RECEIPT.employee, ...employee },
});

/** Issue #34: text no CFDI can carry, accepted before and then never stampable (a retryable 503 after ~4 s). */
function issue34Cases(known: KnownIds): PermanentCase[] {
  const merchantId = known.merchant![0]!;
  const invoice = (overrides: Record<string, unknown>) => ({
    merchantId,
    formaPago: '03',
    usoCfdi: 'G03',
    receiver: RECEIVER,
    items: [item({})],
    ...overrides,
  });
  const refused = (name: string, request: FuzzRequest, path: string): PermanentCase => ({
    name: `issue #34: ${name}`,
    status: 400,
    path,
    request,
  });
  return [
    refused(
      'U+001F in a merchant legalName',
      post('/v1/merchants', '/v1/merchants', { ...EKU, legalName: 'ESCUELA\u001fKEMPER' }),
      '/legalName',
    ),
    refused(
      'U+FFFE in a merchant legalName',
      post('/v1/merchants', '/v1/merchants', { ...EKU, legalName: 'ESCUELA\ufffe' }),
      '/legalName',
    ),
    refused(
      'U+FFFF in a merchant legalName (PATCH)',
      patch('/v1/merchants/{id}', `/v1/merchants/${merchantId}`, { legalName: 'ESCUELA\uffff' }),
      '/legalName',
    ),
    refused(
      'U+001F in a payroll employee.name',
      post('/v1/nominas', '/v1/nominas', nomina(merchantId, { name: 'INGRID\u001f' })),
      '/employee/name',
    ),
    refused(
      'U+FFFE in a payroll departamento',
      post('/v1/nominas', '/v1/nominas', nomina(merchantId, { departamento: 'Ventas\ufffe' })),
      '/employee/departamento',
    ),
    refused(
      'a C1 control in an invoice receiver name',
      post('/v1/invoices', '/v1/invoices', invoice({ receiver: { ...RECEIVER, name: 'UNIVERSIDAD\u0085' } })),
      '/receiver/name',
    ),
    refused(
      'U+FDD0 in an invoice item description',
      post('/v1/invoices', '/v1/invoices', invoice({ items: [item({ description: 'Equipo\ufdd0' })] })),
      '/items/0/description',
    ),
    refused(
      'U+FFFF in a webhook endpoint url',
      post('/v1/webhook_endpoints', '/v1/webhook_endpoints', {
        url: 'https://example.com/\uffff',
        enabledEvents: ['*'],
      }),
      '/url',
    ),
    refused('U+0085 in a query parameter', get('/v1/invoices', '/v1/invoices', { uuid: '\u0085' }), '/uuid'),
    ...['/v1/invoices', '/v1/nominas', '/v1/merchants'].map((route) =>
      refused(
        `invalid UTF-8 bytes in a ${route} body`,
        {
          ...post(route, route, undefined),
          rawBody: 'invalid UTF-8 in a field (an encoded surrogate (CESU-8))',
        },
        '/',
      ),
    ),
  ];
}

/** Every defect issues #23 and #34 found, replayed on every run so none comes back. */
export function PERMANENT_CASES(known: KnownIds): PermanentCase[] {
  const merchantId = known.merchant![0]!;
  const invoice = (items: unknown[]) => ({
    merchantId,
    formaPago: '03',
    usoCfdi: 'G03',
    receiver: RECEIVER,
    items,
  });
  return [
    {
      name: 'defect 1: quantity 1e18 froze the API',
      status: 400,
      request: post('/v1/invoices', '/v1/invoices', invoice([item({ quantity: 1e18 })])),
    },
    {
      name: 'defect 1: quantity 1.4e17',
      status: 400,
      request: post('/v1/invoices', '/v1/invoices', invoice([item({ quantity: 1.4e17 })])),
    },
    {
      name: 'defect 1: unitPrice 1e308',
      status: 400,
      request: post('/v1/invoices', '/v1/invoices', invoice([item({ unitPrice: 1e308 })])),
    },
    {
      name: 'defect 1: quantity × unitPrice past the limit',
      status: 400,
      request: post('/v1/invoices', '/v1/invoices', invoice([item({ quantity: 1e12, unitPrice: 1e13 })])),
    },
    {
      name: 'defect 3: NUL in a merchant legalName',
      status: 400,
      request: post('/v1/merchants', '/v1/merchants', {
        rfc: 'EKU9003173C9',
        legalName: 'A\u0000',
        regimenFiscal: '601',
        zip: '42501',
      }),
    },
    {
      name: 'defect 3: lone surrogate in serie',
      status: 400,
      request: post('/v1/merchants', '/v1/merchants', {
        rfc: 'EKU9003173C9',
        legalName: 'A',
        regimenFiscal: '601',
        zip: '42501',
        serie: '\ud800',
      }),
    },
    {
      name: 'defect 3: NUL in an invoice usoCfdi',
      status: 400,
      request: post('/v1/invoices', '/v1/invoices', { ...invoice([item({})]), usoCfdi: 'G0\u0000' }),
    },
    {
      name: 'defect 3: NUL in a credit note relatedInvoiceId',
      status: 400,
      request: post('/v1/credit_notes', '/v1/credit_notes', {
        merchantId,
        relatedInvoiceId: '\u0000',
        formaPago: '03',
        items: [item({})],
      }),
    },
    {
      name: 'defect 3: ?uuid=%00',
      status: 400,
      request: get('/v1/invoices', '/v1/invoices', { uuid: '\u0000' }),
    },
    {
      name: 'defect 3: ?starting_after=%00',
      status: 400,
      request: get('/v1/invoices', '/v1/invoices', { starting_after: '\u0000' }),
    },
    {
      name: 'defect 4: logo decompression bomb',
      status: 400,
      request: {
        ...post('/v1/merchants/{id}/logo', `/v1/merchants/${merchantId}/logo`, { logo: bombPng() }),
        method: 'PUT',
      },
    },
    {
      name: 'defect 5: invalid percent-encoding in the path',
      status: 400,
      request: get('/v1/invoices/{id}', '/v1/invoices/%c0%ae'),
    },
    // Found by this fuzzer: the NUL check walked JSON recursively and overflowed the stack (500).
    {
      name: 'fuzzer: 15,000 items where 500 are allowed held the loop 677 ms',
      status: 400,
      request: post('/v1/invoices', '/v1/invoices', {
        ...invoice([]),
        items: Array.from({ length: 15_000 }, () => ({ bogus: 1 })),
      }),
    },
    {
      name: 'fuzzer: a body nested 100,000 levels deep',
      status: 400,
      request: {
        ...post('/v1/payments/{id}/cancel', '/v1/payments/pay_x/cancel', undefined),
        rawBody: 'deep array (100,000 levels)',
      },
    },
    ...issue34Cases(known),
  ];
}
