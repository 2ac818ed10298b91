import type { Document, Element } from '@xmldom/xmldom';

/** The little of a parsed element the cadena needs: names, attributes as parsed, element children. */
export interface XmlNode {
  namespaceURI: string | null;
  localName: string;
  attributes: Map<string, string>;
  children: XmlNode[];
}

export function kids(el: XmlNode, ns: string, localName: string): XmlNode[] {
  return el.children.filter((c) => c.namespaceURI === ns && c.localName === localName);
}

/** Like XPath ./a/b/c. */
export function walk(el: XmlNode, ns: string, ...steps: string[]): XmlNode[] {
  let current = [el];
  for (const step of steps) current = current.flatMap((e) => kids(e, ns, step));
  return current;
}

/** Like XPath .//name: descendants (not self) in document order. */
export function descendantsOf(el: XmlNode, ns: string, localName: string): XmlNode[] {
  const out: XmlNode[] = [];
  const visit = (parent: XmlNode): void => {
    for (const c of parent.children) {
      if (c.namespaceURI === ns && c.localName === localName) out.push(c);
      visit(c);
    }
  };
  visit(el);
  return out;
}

/** Adapts an xmldom tree (already parsed by the caller) to XmlNode. */
export function fromDom(doc: Document): XmlNode {
  const convert = (el: Element): XmlNode => {
    const attributes = new Map<string, string>();
    for (let i = 0; i < el.attributes.length; i++) {
      const a = el.attributes.item(i)!;
      attributes.set(a.name, a.value);
    }
    const children: XmlNode[] = [];
    for (let n = el.firstChild; n; n = n.nextSibling)
      if (n.nodeType === 1) children.push(convert(n as Element));
    return {
      namespaceURI: el.namespaceURI ?? null,
      localName: el.localName ?? el.nodeName,
      attributes,
      children,
    };
  };
  if (!doc.documentElement) throw new Error('XML document has no root element');
  return convert(doc.documentElement);
}
