import type { Element } from '@xmldom/xmldom';
import { normalizeSpace } from './normalize-space';

/** Accumulates cadena fields with the XSLT "Requerido"/"Opcional" semantics. */
export class CadenaWriter {
  private readonly parts: string[] = [];

  /** "Requerido": always writes a field, empty when the attribute is missing. */
  req(el: Element, name: string): this {
    this.parts.push(normalizeSpace(el.getAttribute(name) ?? ''));
    return this;
  }

  /** "Opcional": writes a field only when the attribute exists (even if empty). */
  opt(el: Element, name: string): this {
    if (el.hasAttribute(name)) this.parts.push(normalizeSpace(el.getAttribute(name) ?? ''));
    return this;
  }

  /** Shorthand for a run of attributes: names ending in '?' are optional. */
  fields(el: Element, names: readonly string[]): this {
    for (const name of names) {
      if (name.endsWith('?')) this.opt(el, name.slice(0, -1));
      else this.req(el, name);
    }
    return this;
  }

  /** `||field|field|...||` as produced by the SAT stylesheets (no trailing newline). */
  toString(): string {
    return `||${this.parts.join('|')}||`;
  }
}
