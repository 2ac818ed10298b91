import {
  childElements,
  FINKOK_OPERATIONS,
  FINKOK_SERVICES,
  finkokWireName,
  parseEnvelope,
  type FinkokOperation,
  type FinkokService,
} from '@cfdi/pac';

export type SoapCall =
  { ok: true; operation: FinkokOperation; params: Record<string, string> } | { ok: false; detail: string };

/**
 * Reads a SOAP 1.1 request for one Finkok service: the operation element must be in the service's
 * namespace and, when a SOAPAction header is sent, name the same operation.
 */
export function readSoapCall(service: FinkokService, body: string, soapAction: string | undefined): SoapCall {
  const parsed = parseEnvelope(body);
  if (parsed.kind !== 'body')
    return { ok: false, detail: parsed.kind === 'fault' ? 'a Fault is not a request' : parsed.detail };
  const op = parsed.operation;
  const name = op.localName ?? '';
  if (op.namespaceURI !== FINKOK_SERVICES[service].namespace)
    return { ok: false, detail: `operation namespace must be ${FINKOK_SERVICES[service].namespace}` };
  const operation = (Object.keys(FINKOK_OPERATIONS) as FinkokOperation[]).find(
    (o) => FINKOK_OPERATIONS[o] === service && finkokWireName(o) === name,
  );
  if (!operation) return { ok: false, detail: `unknown operation ${name} for the ${service} service` };
  const action = soapAction?.replace(/^"|"$/g, '');
  if (action && action !== name)
    return { ok: false, detail: `SOAPAction "${action}" does not match operation ${name}` };
  const params: Record<string, string> = {};
  for (const child of childElements(op)) params[child.localName ?? ''] = child.textContent ?? '';
  return { ok: true, operation, params };
}

/** Finkok's `xs:base64Binary` XML parameter, decoded once; double encoding is a 705 at Finkok. */
export function decodeXmlParam(value: string | undefined): { ok: true; xml: string } | { ok: false } {
  const compact = (value ?? '').replace(/\s+/g, '');
  if (!compact || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) return { ok: false };
  const xml = Buffer.from(compact, 'base64').toString('utf8');
  return xml.trimStart().startsWith('<') ? { ok: true, xml } : { ok: false };
}
