import type { Element } from '@xmldom/xmldom';
import { loadXmldom, NS } from './dom';

const XMLNS = 'http://www.w3.org/2000/xmlns/';
const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

export type XmlAttributes = Readonly<Record<string, string>>;

/**
 * The CFDI's XML is built as an xmldom tree and written by xmldom's XMLSerializer, which escapes every attribute
 * value itself (`&`, `<`, `>`, `"` as entities; tab, CR and LF as character references): an XML reader gets back
 * exactly the text that was set, whatever it looks like (`F&#124;1` stays `F&#124;1`, never `F|1`). Nothing here
 * escapes by hand. xmlbuilder2 is not used for this: see docs/decisions.md (2026-11-28).
 */
export class XmlElement {
  constructor(readonly node: Element) {}

  /** Appends a child element in namespace `ns` with the attributes in the given order; returns the child. */
  ele(ns: string, qname: string, attrs: XmlAttributes = {}): XmlElement {
    const child = this.node.ownerDocument!.createElementNS(ns, qname);
    setAttributes(child, attrs);
    this.node.appendChild(child);
    return new XmlElement(child);
  }
}

function setAttributes(el: Element, attrs: XmlAttributes): void {
  for (const name in attrs) {
    const value = attrs[name]!;
    if (name.startsWith('xmlns:')) el.setAttributeNS(XMLNS, name, value);
    else if (name.startsWith('xsi:')) el.setAttributeNS(NS.xsi, name, value);
    else el.setAttribute(name, value);
  }
}

/**
 * A new document whose root is `qname` in `ns`. The root's own namespace declaration is written first, then `attrs`
 * in their order (the layout the SAT's examples use).
 */
export function createRoot(ns: string, qname: string, attrs: XmlAttributes = {}): XmlElement {
  const { DOMImplementation } = loadXmldom();
  const doc = new DOMImplementation().createDocument(null, '', null);
  const root = doc.createElementNS(ns, qname);
  const colon = qname.indexOf(':');
  root.setAttributeNS(XMLNS, colon < 0 ? 'xmlns' : `xmlns:${qname.slice(0, colon)}`, ns);
  setAttributes(root, attrs);
  doc.appendChild(root);
  return new XmlElement(root);
}

/**
 * NEL and LINE SEPARATOR are line ends to XML 1.1 readers, and xmldom also takes PARAGRAPH SEPARATOR for one (as
 * JavaScript does): such a reader turns them into a space, while an XML 1.0 reader keeps them. Written as character
 * references they read back as themselves everywhere. They occur only in values, never in markup, so replacing them
 * in the written text touches nothing else.
 */
const XML11_LINE_ENDS = /[\u0085\u2028\u2029]/g;
const asReference = (c: string) => `&#x${c.codePointAt(0)!.toString(16).toUpperCase()};`;

/** The element and its descendants as XML text, without a declaration (e.g. a TFD to insert into a CFDI). */
export function serializeElement(el: XmlElement): string {
  return new (loadXmldom().XMLSerializer)().serializeToString(el.node).replace(XML11_LINE_ENDS, asReference);
}

/** A whole document: the UTF-8 declaration, then the root element. */
export function serializeDocument(root: XmlElement): string {
  return DECLARATION + serializeElement(root);
}

/**
 * Attributes as they appear inside a start tag (` A="…" B="…"`), escaped by the same serializer, for the few places
 * that edit a sealed document's text instead of re-serialising it (see root-attributes.ts).
 */
export function serializeAttributes(attrs: XmlAttributes): string {
  const { DOMImplementation } = loadXmldom();
  const holder = new DOMImplementation().createDocument(null, '', null).createElement('x');
  setAttributes(holder, attrs);
  const written = new (loadXmldom().XMLSerializer)()
    .serializeToString(holder)
    .replace(XML11_LINE_ENDS, asReference); // `<x A="…" B="…"/>`
  return written.slice(2, -2);
}
