import type { StackHarness } from './stack';

/** A customer the SAT test data knows (the receiver of the invoice fixtures), saved in full. */
export const CUSTOMER = {
  rfc: 'URE180429TM6',
  legalName: 'UNIVERSIDAD ROBOTICA ESPAÑOLA',
  regimenFiscal: '601',
  zip: '86991',
  usoCfdi: 'G03',
  emails: ['cuentas@robotica.example.mx'],
};

/** A product sold tax-included at 1,160 (1,000 + IVA 16 %). */
export const PRODUCT = {
  description: 'Computadora portátil',
  productCode: '43211503',
  unitCode: 'H87',
  unitName: 'Pieza',
  price: 1160,
  sku: 'LAP-001',
};

/** The 404 of an id nobody has, with the id taken out: what every foreign id must answer too. */
export const notFound = (res: { status: number; body: { code: string; detail: string } }, id: string) => ({
  status: res.status,
  code: res.body.code,
  detail: res.body.detail.replace(id, '<id>'),
});

export async function saved(
  stack: StackHarness,
  key: string,
  path: '/v1/customers' | '/v1/products',
  body: Record<string, unknown>,
) {
  const res = await stack.api.request('POST', path, { key, body });
  if (res.status !== 201) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The attributes of the first `<cfdi:tag …>` of a CFDI. */
export function attributesOf(xml: string, tag: string): Record<string, string> {
  const element = new RegExp(`<cfdi:${tag}\\b([^>]*)>`).exec(xml)?.[1] ?? '';
  return Object.fromEntries([...element.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
}

export async function stampedXml(stack: StackHarness, id: string): Promise<string> {
  const rows: { stamped_xml: string }[] = await stack.api.orm.em
    .fork()
    .execute('select stamped_xml from documents where id = ?', [id]);
  return rows[0]!.stamped_xml;
}
