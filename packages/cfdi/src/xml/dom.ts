import type * as Xmldom from '@xmldom/xmldom';
import type { Document, Element } from '@xmldom/xmldom';

// The XML libraries (@xmldom/xmldom here, also building the CFDI in builder.ts; xml-crypto in @cfdi/pac: ~5 MB of heap)
// are required on first use, so an API process that never parses or builds XML does not hold them.
let xmldom: typeof Xmldom | undefined;
export const loadXmldom = () => (xmldom ??= require('@xmldom/xmldom') as typeof Xmldom);

export const NS = {
  cfdi: 'http://www.sat.gob.mx/cfd/4',
  xsi: 'http://www.w3.org/2001/XMLSchema-instance',
  pago20: 'http://www.sat.gob.mx/Pagos20',
  nomina12: 'http://www.sat.gob.mx/nomina12',
  tfd: 'http://www.sat.gob.mx/TimbreFiscalDigital',
  cce20: 'http://www.sat.gob.mx/ComercioExterior20',
  cartaporte31: 'http://www.sat.gob.mx/CartaPorte31',
  retenciones: 'http://www.sat.gob.mx/esquemas/retencionpago/2',
} as const;

/** Parses XML and refuses anything the parser had to guess about (errors stop parsing). */
export function parseXml(xml: string): Document {
  const { DOMParser, onErrorStopParsing } = loadXmldom();
  return new DOMParser({ onError: onErrorStopParsing }).parseFromString(xml, 'text/xml');
}

export function rootElement(doc: Document): Element {
  const root = doc.documentElement;
  if (!root) throw new Error('XML document has no root element');
  return root;
}

/** Element children with the given namespace and local name, in document order. */
export function children(el: Element, ns: string, localName: string): Element[] {
  const out: Element[] = [];
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1) {
      const child = n as Element;
      if (child.namespaceURI === ns && child.localName === localName) out.push(child);
    }
  }
  return out;
}

/** Follows a path of cfdi-like steps, e.g. path(el, ns, 'Impuestos', 'Traslados', 'Traslado'). */
export function path(el: Element, ns: string, ...steps: string[]): Element[] {
  let current = [el];
  for (const step of steps) current = current.flatMap((e) => children(e, ns, step));
  return current;
}

export function attr(el: Element, name: string): string | undefined {
  return el.hasAttribute(name) ? (el.getAttribute(name) ?? '') : undefined;
}
