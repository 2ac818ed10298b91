import { serializeAttributes } from './builder';

/**
 * Sealing only touches three attributes of the root start tag; editing the text keeps every
 * other byte of the document as the caller built it (no re-serialisation surprises).
 */
interface StartTag {
  start: number;
  /** Index just past the tag name. */
  nameEnd: number;
  /** Index of the closing '>' or of '/' in '/>'. */
  end: number;
}

function skipProlog(xml: string): number {
  let i = 0;
  for (;;) {
    i = xml.indexOf('<', i);
    if (i < 0) throw new Error('XML has no root element');
    if (xml.startsWith('<?', i)) i = xml.indexOf('?>', i) + 2;
    else if (xml.startsWith('<!--', i)) i = xml.indexOf('-->', i) + 3;
    else if (xml.startsWith('<!', i)) i = xml.indexOf('>', i) + 1;
    else return i;
  }
}

export function rootStartTag(xml: string): StartTag {
  const start = skipProlog(xml);
  let nameEnd = start + 1;
  while (nameEnd < xml.length && !/[\s/>]/.test(xml[nameEnd]!)) nameEnd++;
  let quote = '';
  for (let i = nameEnd; i < xml.length; i++) {
    const c = xml[i]!;
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return { start, nameEnd, end: xml[i - 1] === '/' ? i - 1 : i };
  }
  throw new Error('XML root start tag is not closed');
}

const ATTRIBUTE = /\s+([^\s=]+)\s*=\s*("[^"]*"|'[^']*')/g;

/** The attributes of the root element as written (entities are not decoded: for amounts, dates and keys). */
export function rootAttributes(xml: string): Record<string, string> {
  const tag = rootStartTag(xml);
  return Object.fromEntries(
    [...xml.slice(tag.nameEnd, tag.end).matchAll(ATTRIBUTE)].map((m) => [m[1]!, m[2]!.slice(1, -1)]),
  );
}

/** Replaces (or adds at the end) the given attributes of the root element. */
export function setRootAttributes(xml: string, values: Record<string, string>): string {
  const tag = rootStartTag(xml);
  const inner = xml.slice(tag.nameEnd, tag.end);
  const kept = [...inner.matchAll(ATTRIBUTE)]
    .filter((m) => !(m[1]! in values))
    .map((m) => ` ${m[1]}=${m[2]}`);
  return xml.slice(0, tag.nameEnd) + kept.join('') + serializeAttributes(values) + xml.slice(tag.end);
}
