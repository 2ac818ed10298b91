/** Documents both PAC benches send: invoices from @cfdi/cfdi's builder, sealed with the SAT test CSD. */
import fs from 'node:fs';
import path from 'node:path';
import { buildInvoiceXml, openPrivateKey, sealXml, type InvoiceInput } from '../../packages/cfdi/src';
import { FinkokPac } from '../../packages/pac/src';

export const SAT_DIR = process.env.SAT_DIR ?? path.resolve(__dirname, '../..', '../shared/sat');
const certs = path.join(SAT_DIR, 'test-certs');
const csd = {
  certificateDer: fs.readFileSync(path.join(certs, 'EKU9003173C9-csd.cer')),
  privateKey: openPrivateKey(fs.readFileSync(path.join(certs, 'EKU9003173C9-csd.key')), '12345678a'),
};

function invoice(folio: number, items: number, serie: string): InvoiceInput {
  return {
    issuer: { rfc: 'EKU9003173C9', legalName: 'ESCUELA KEMPER URGATE', regimenFiscal: '601', zip: '42501' },
    receiver: {
      rfc: 'URE180429TM6',
      name: 'UNIVERSIDAD ROBOTICA ESPAÑOLA',
      zip: '86991',
      regimenFiscal: '601',
    },
    items: Array.from({ length: items }, (_, i) => ({
      productCode: '43211503',
      unitCode: 'H87',
      description: `Artículo ${folio}-${i}`,
      quantity: (i % 3) + 1,
      unitPrice: 100 + i,
    })),
    formaPago: '03',
    usoCfdi: 'G03',
    serie,
    folio,
  } as InvoiceInput;
}

/** `count` sealed invoices with consecutive folios from `from`, sealed at `sealedAt`. */
export function sealedInvoices(options: {
  from: number;
  count: number;
  items?: number;
  serie: string;
  sealedAt: Date;
}): string[] {
  const { from, count, items = 3, serie, sealedAt } = options;
  return Array.from(
    { length: count },
    (_, i) => sealXml(buildInvoiceXml(invoice(from + i, items, serie), { now: sealedAt }).xml, csd).xml,
  );
}

/** The client both benches stamp with: generous timeout and enough sockets for every concurrent request. */
export function benchPacClient(url: string): FinkokPac {
  return new FinkokPac({ url, username: 'bench', password: 'bench', timeoutMs: 60_000, maxSockets: 64 });
}
