import { parseXml } from '../xml/dom';
import { fromDom, type XmlNode } from './tree';

/**
 * Small, strict XML reader for the cadena: elements, attributes and namespaces only (text,
 * comments, PIs and CDATA are skipped). About 5× faster than building an xmldom tree. Returns
 * undefined for documents with a DOCTYPE (entity declarations could change values), which the
 * caller then hands to xmldom. Attribute values get XML attribute-value normalisation: literal
 * tab/CR/LF become spaces (CRLF counting as one), then entities and character references are
 * decoded, so "&#10;" survives as a newline exactly as with libxml2.
 */
// Patterns live at module level: a regex literal inside the loops would allocate a RegExp on every evaluation
// (once per character scanned), most of what parsing a large document used to allocate.
const NAME_END = /[\s/>=]/;
const WHITESPACE = /\s/;
const NEEDS_DECODING = /[\t\n\r&]/;
const LINE_BREAK = /\r\n?/g;
const TAB_OR_NEWLINE = /[\t\n]/g;
const REFERENCE = /&([^;]*);?/g;
const CHARACTER_REFERENCE = /^#(x[0-9a-fA-F]+|[0-9]+)$/;
const NON_WHITESPACE = /[^ \t\r\n\uFEFF]/;
const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const BASE_SCOPE = new Map([['xml', XML_NS]]);
const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

class XmlSyntaxError extends Error {
  constructor(message: string, at: number) {
    super(`XML is not well-formed: ${message} at offset ${at}`);
  }
}

function decode(raw: string, at: number): string {
  if (!NEEDS_DECODING.test(raw)) return raw;
  const normalised = raw.replace(LINE_BREAK, '\n').replace(TAB_OR_NEWLINE, ' ');
  if (!normalised.includes('&')) return normalised;
  return normalised.replace(REFERENCE, (match, body: string) => {
    if (!match.endsWith(';')) throw new XmlSyntaxError('unterminated entity reference', at);
    if (body in PREDEFINED) return PREDEFINED[body]!;
    const code = body.startsWith('#x')
      ? parseInt(body.slice(2), 16)
      : body.startsWith('#')
        ? parseInt(body.slice(1), 10)
        : NaN;
    const valid =
      CHARACTER_REFERENCE.test(body) &&
      (code === 0x9 ||
        code === 0xa ||
        code === 0xd ||
        (code >= 0x20 && code <= 0xd7ff) ||
        (code >= 0xe000 && code <= 0xfffd) ||
        (code >= 0x10000 && code <= 0x10ffff));
    if (!valid) throw new XmlSyntaxError(`invalid reference &${body};`, at);
    return String.fromCodePoint(code);
  });
}

interface Open {
  qname: string;
  node: XmlNode;
  scope: Map<string, string>;
}

export function parseFast(xml: string): XmlNode | undefined {
  let pos = 0;
  let root: XmlNode | undefined;
  const stack: Open[] = [];
  const expectClose = (token: string, from: number): number => {
    const end = xml.indexOf(token, from);
    if (end < 0) throw new XmlSyntaxError(`missing "${token}"`, from);
    return end + token.length;
  };
  for (;;) {
    const lt = xml.indexOf('<', pos);
    if (stack.length === 0 && NON_WHITESPACE.test(xml.slice(pos, lt < 0 ? xml.length : lt))) {
      throw new XmlSyntaxError('text outside the root element', pos);
    }
    if (lt < 0) break;
    if (xml.startsWith('<?', lt)) pos = expectClose('?>', lt + 2);
    else if (xml.startsWith('<!--', lt)) pos = expectClose('-->', lt + 4);
    else if (xml.startsWith('<![CDATA[', lt)) {
      if (stack.length === 0) throw new XmlSyntaxError('CDATA outside the root element', lt);
      pos = expectClose(']]>', lt + 9);
    } else if (xml.startsWith('<!DOCTYPE', lt)) return undefined;
    else if (xml.startsWith('</', lt)) {
      const gt = expectClose('>', lt + 2);
      const name = xml.slice(lt + 2, gt - 1).trim();
      const open = stack.pop();
      if (!open || open.qname !== name) throw new XmlSyntaxError(`unexpected </${name}>`, lt);
      pos = gt;
    } else {
      if (root && stack.length === 0) throw new XmlSyntaxError('content after the root element', lt);
      pos = startTag(lt);
    }
  }
  if (!root || stack.length > 0)
    throw new XmlSyntaxError(
      root ? `<${stack[stack.length - 1]!.qname}> is not closed` : 'no root element',
      xml.length,
    );
  return root;

  function startTag(lt: number): number {
    let p = lt + 1;
    while (p < xml.length && !NAME_END.test(xml[p]!)) p++;
    const qname = xml.slice(lt + 1, p);
    if (!qname) throw new XmlSyntaxError('empty element name', lt);
    const raw = new Map<string, string>();
    for (;;) {
      const ws = p;
      while (p < xml.length && WHITESPACE.test(xml[p]!)) p++;
      if (xml.startsWith('/>', p) || xml[p] === '>') break;
      if (p === ws) throw new XmlSyntaxError('missing whitespace between attributes', p);
      const nameStart = p;
      while (p < xml.length && !NAME_END.test(xml[p]!)) p++;
      const name = xml.slice(nameStart, p);
      while (WHITESPACE.test(xml[p] ?? '')) p++;
      if (!name || xml[p] !== '=') throw new XmlSyntaxError('malformed attribute', p);
      p++;
      while (WHITESPACE.test(xml[p] ?? '')) p++;
      const quote = xml[p];
      if (quote !== '"' && quote !== "'") throw new XmlSyntaxError('unquoted attribute value', p);
      const close = xml.indexOf(quote, p + 1);
      if (close < 0) throw new XmlSyntaxError('unterminated attribute value', p);
      const value = xml.slice(p + 1, close);
      if (value.includes('<')) throw new XmlSyntaxError('"<" in an attribute value', p);
      if (raw.has(name)) throw new XmlSyntaxError(`duplicate attribute ${name}`, p);
      raw.set(name, decode(value, p));
      p = close + 1;
    }
    const selfClosing = xml[p] === '/';
    const parent = stack[stack.length - 1];
    let scope = parent?.scope ?? BASE_SCOPE;
    for (const [name, value] of raw) {
      if (name !== 'xmlns' && !name.startsWith('xmlns:')) continue;
      if (scope === (parent?.scope ?? BASE_SCOPE)) scope = new Map(scope); // copy on first declaration only
      scope.set(name === 'xmlns' ? '' : name.slice(6), value);
    }
    const colon = qname.indexOf(':');
    const prefix = colon < 0 ? '' : qname.slice(0, colon);
    const ns = scope.get(prefix);
    if (prefix && ns === undefined) throw new XmlSyntaxError(`undeclared prefix ${prefix}`, lt);
    const node: XmlNode = {
      namespaceURI: ns || null,
      localName: colon < 0 ? qname : qname.slice(colon + 1),
      attributes: raw,
      children: [],
    };
    if (parent) parent.node.children.push(node);
    else root = node;
    if (!selfClosing) stack.push({ qname, node, scope });
    return p + (selfClosing ? 2 : 1);
  }
}

/** Fast reader first; xmldom for what it declines (documents with a DOCTYPE). */
export function parseTree(xml: string): XmlNode {
  return parseFast(xml) ?? fromDom(parseXml(xml));
}
