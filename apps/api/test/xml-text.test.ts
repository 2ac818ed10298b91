import type { Element } from '@xmldom/xmldom';
import { cadenaOriginal, loadXmldom, verifySeal } from '@cfdi/cfdi';
import { nominaBody } from './nomina-fixtures';
import {
  idempotencyKey,
  invoiceBody,
  RECEIVER,
  stampingAccount,
  startStack,
  type StackHarness,
} from './stack';

/**
 * Issue #34 item 1 through the API and the sandbox PAC: text that looks like a character reference or an entity is
 * stamped as sent. The stamped XML, read by an XML reader, gives back exactly the text the API accepted, and the
 * cadena the PAC checked holds it (no pipe out of `&#124;`).
 */
let stack: StackHarness;
beforeAll(async () => {
  stack = await startStack();
}, 60_000);
afterAll(async () => stack?.close(), 60_000);

const post = (key: string, url: string, body: unknown) =>
  stack.api.request('POST', url, { key, headers: { 'idempotency-key': idempotencyKey() }, body });
const stampedXml = async (id: string) =>
  (
    (await stack.api.orm.em.fork().execute('select stamped_xml from documents where id = ?', [id]))[0] as {
      stamped_xml: string;
    }
  ).stamped_xml;

const parse = (xml: string) => new (loadXmldom().DOMParser)().parseFromString(xml, 'text/xml');

/** The first element with that local name, as an XML reader (xmldom) gives it. */
function element(xml: string, localName: string): Element {
  const found: Element[] = [];
  const visit = (el: Element): void => {
    if (el.localName === localName) found.push(el);
    for (let n = el.firstChild; n; n = n.nextSibling) if (n.nodeType === 1) visit(n as Element);
  };
  visit(parse(xml).documentElement!);
  return found[0]!;
}

it('an invoice with F&#124;1, &lt;b&gt; and &#97; is stamped with that text, read back byte for byte', async () => {
  const account = await stampingAccount(stack);
  const receiverName = '<IMG SRC=X ONERROR=&#97;LERT(7)>';
  const body = invoiceBody(account.merchantId, {
    folio: 'F&#124;1',
    receiver: { ...RECEIVER, name: receiverName },
  });
  body.items[0]!.description = 'Equipo &lt;b&gt; tres';
  const res = await post(account.testKey, '/v1/invoices', body);
  expect(res.status).toBe(201);
  const xml = await stampedXml(res.body.id);
  expect({
    folio: element(xml, 'Comprobante').getAttribute('Folio'),
    receiver: element(xml, 'Receptor').getAttribute('Nombre'),
    description: element(xml, 'Concepto').getAttribute('Descripcion'),
  }).toEqual({ folio: 'F&#124;1', receiver: receiverName, description: 'Equipo &lt;b&gt; tres' });
  expect(res.body.receiver.name).toBe(receiverName);
  const cadena = cadenaOriginal(xml);
  expect(cadena).toContain('|F&#124;1|');
  expect(cadena).not.toContain('|F|1|');
  expect(verifySeal(xml).valid).toBe(true);
}, 60_000);

it('a payroll receipt with &amp; and &#124; in the department, position and concepts is stamped with that text', async () => {
  const account = await stampingAccount(stack);
  const body = nominaBody(account.merchantId);
  const employee = { ...body.employee, departamento: 'Almacén &#124; 2', puesto: 'Jefa &amp; líder' };
  const percepciones = [
    { ...body.percepciones[0]!, concepto: 'Sueldo &lt;quincena&gt;' },
    body.percepciones[1]!,
  ];
  const res = await post(account.testKey, '/v1/nominas', { ...body, employee, percepciones });
  expect(res.status).toBe(201);
  const xml = await stampedXml(res.body.id);
  const receptor = parse(xml).getElementsByTagNameNS('http://www.sat.gob.mx/nomina12', 'Receptor').item(0)!;
  expect({
    departamento: receptor.getAttribute('Departamento'),
    puesto: receptor.getAttribute('Puesto'),
    concepto: element(xml, 'Percepcion').getAttribute('Concepto'),
  }).toEqual({
    departamento: 'Almacén &#124; 2',
    puesto: 'Jefa &amp; líder',
    concepto: 'Sueldo &lt;quincena&gt;',
  });
  expect(verifySeal(xml).valid).toBe(true);
}, 60_000);
