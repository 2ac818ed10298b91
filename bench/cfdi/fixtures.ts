/** Shared inputs of the CFDI benchmarks: the SAT test CSD and generated income invoices. */
import fs from 'node:fs';
import path from 'node:path';
// Deep imports: the package index would load the PDF code, and files.ts may be comparing another copy of it.
import type { InvoiceInput, InvoiceItem } from '../../packages/cfdi/src/types';
import { buildInvoiceXml } from '../../packages/cfdi/src/xml/invoice';
import { openPrivateKey } from '../../packages/cfdi/src/seal/private-key';
import { sealXml } from '../../packages/cfdi/src/seal/seal';
import { appendTfd, buildTfd } from '../../packages/cfdi/src/tfd/tfd';

export const SAT_DIR = process.env.SAT_DIR ?? path.resolve(__dirname, '../..', '../shared/sat');
const certs = path.join(SAT_DIR, 'test-certs');
export const csd = {
  certificateDer: fs.readFileSync(path.join(certs, 'EKU9003173C9-csd.cer')),
  privateKey: openPrivateKey(fs.readFileSync(path.join(certs, 'EKU9003173C9-csd.key')), '12345678a'),
};
export const NOW = new Date('2026-11-21T18:30:00Z');
const issuer = {
  rfc: 'EKU9003173C9',
  legalName: 'ESCUELA KEMPER URGATE',
  regimenFiscal: '601',
  zip: '42501',
};
const receiver = {
  rfc: 'URE180429TM6',
  name: 'UNIVERSIDAD ROBOTICA ESPAÑOLA',
  zip: '86991',
  regimenFiscal: '601',
};

/** Tax-inclusive prices, cart discount, shipping, IEPS, exempt lines and pedimentos mixed in. */
export function invoice(items: number, seed: number): InvoiceInput {
  const list: InvoiceItem[] = Array.from({ length: items }, (_, i) => ({
    productCode: '43211503',
    unitCode: 'H87',
    description: `Artículo ${seed}-${i} con descripción`,
    quantity: (i % 4) + 1,
    unitPrice: (1000 + ((seed * 7 + i * 13) % 5000)) / 100,
    noIdentificacion: `SKU-${i}`,
    ...(i % 5 === 0 ? { taxable: false } : {}),
    ...(i % 7 === 0 ? { iepsRate: 0.08 } : {}),
    ...(i % 11 === 0 ? { pedimentos: ['234738073000123'] } : {}),
  }));
  return {
    issuer,
    receiver,
    items: list,
    shipping: { amount: 99 },
    cartDiscount: items,
    formaPago: '03',
    usoCfdi: 'G03',
    serie: 'B',
    folio: seed,
  };
}

/** A sealed invoice with a sandbox TFD (signed with the test CSD), as the worker gets it from the PAC. */
export function stampedInvoice(items: number, uuid = '5E2D6A2B-8C1F-4B7A-9E3D-1A2B3C4D5E6F'): string {
  const sealed = sealXml(buildInvoiceXml(invoice(items, 1), { now: NOW }).xml, csd);
  const tfd = buildTfd({
    uuid,
    fechaTimbrado: '2026-11-21T12:31:00',
    rfcProvCertif: 'AAA010101AAA',
    selloCFD: sealed.sello,
    sat: csd,
  });
  return appendTfd(sealed.xml, tfd.xml);
}
