import type { Element } from '@xmldom/xmldom';
import { loadXmldom } from '@cfdi/cfdi';
import { escapeXml } from './xml-escape';

export const SOAP_ENV_NS = 'http://schemas.xmlsoap.org/soap/envelope/';

/** Operation parameters in wire order; `undefined` values are omitted (optional SOAP parts). */
export type SoapParams = ReadonlyArray<readonly [name: string, value: string | undefined]>;

/** SOAP 1.1 envelope in the shape Finkok's own clients send: operation and parameters under `ns1`. */
export function buildEnvelope(namespace: string, operation: string, params: SoapParams): string {
  const parts = params
    .filter((p): p is readonly [string, string] => p[1] !== undefined)
    .map(([name, value]) => `<ns1:${name}>${escapeXml(value)}</ns1:${name}>`)
    .join('');
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    `<SOAP-ENV:Envelope xmlns:SOAP-ENV="${SOAP_ENV_NS}" xmlns:ns1="${namespace}">` +
    `<SOAP-ENV:Body><ns1:${operation}>${parts}</ns1:${operation}></SOAP-ENV:Body></SOAP-ENV:Envelope>`
  );
}

export interface SoapFault {
  faultcode: string;
  faultstring: string;
}

export type ParsedEnvelope =
  | { kind: 'body'; operation: Element }
  | { kind: 'fault'; fault: SoapFault }
  | { kind: 'invalid'; detail: string };

/** Parses a SOAP 1.1 envelope and returns the first element inside Body (or the Fault). */
export function parseEnvelope(xml: string): ParsedEnvelope {
  let root: Element | null;
  try {
    root = parseStrictXml(xml);
  } catch (err) {
    return { kind: 'invalid', detail: `not XML: ${(err as Error).message}` };
  }
  if (!root || root.localName !== 'Envelope' || root.namespaceURI !== SOAP_ENV_NS) {
    return { kind: 'invalid', detail: 'not a SOAP 1.1 envelope' };
  }
  const body = childElements(root).find((el) => el.localName === 'Body');
  const first = body ? childElements(body)[0] : undefined;
  if (!first) return { kind: 'invalid', detail: 'empty SOAP body' };
  if (first.localName === 'Fault') {
    return {
      kind: 'fault',
      fault: {
        faultcode: descendantText(first, 'faultcode') ?? '',
        faultstring: descendantText(first, 'faultstring') ?? '',
      },
    };
  }
  return { kind: 'body', operation: first };
}

/** The root element of an XML text; throws on any parse error (warnings aside) instead of guessing. */
export function parseStrictXml(xml: string): Element | null {
  const { DOMParser } = loadXmldom();
  return new DOMParser({
    onError: (level, message) => {
      if (level !== 'warning') throw new Error(message);
    },
  }).parseFromString(xml, 'text/xml').documentElement;
}

export function childElements(el: Element): Element[] {
  const out: Element[] = [];
  for (let n = el.firstChild; n; n = n.nextSibling) if (n.nodeType === 1) out.push(n as Element);
  return out;
}

/** First descendant element with this local name (Finkok mixes `tns:` and `s0:` prefixes freely). */
export function descendant(el: Element, localName: string): Element | undefined {
  for (const child of childElements(el)) {
    if (child.localName === localName) return child;
    const found = descendant(child, localName);
    if (found) return found;
  }
  return undefined;
}

export function descendants(el: Element, localName: string): Element[] {
  const out: Element[] = [];
  for (const child of childElements(el)) {
    if (child.localName === localName) out.push(child);
    out.push(...descendants(child, localName));
  }
  return out;
}

export function descendantText(el: Element, localName: string): string | undefined {
  const found = descendant(el, localName);
  return found ? (found.textContent ?? '') : undefined;
}
