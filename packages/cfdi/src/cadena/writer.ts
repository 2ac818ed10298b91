import type { XmlNode } from './tree';
import { normalizeSpace } from './normalize-space';

/** Accumulates cadena fields with the XSLT "Requerido"/"Opcional" semantics. */
export class CadenaWriter {
  private readonly parts: string[] = [];

  /** "Requerido": always writes a field, empty when the attribute is missing. */
  req(el: XmlNode, name: string): this {
    this.parts.push(normalizeSpace(el.attributes.get(name) ?? ''));
    return this;
  }

  /** "Opcional": writes a field only when the attribute exists (even if empty). */
  opt(el: XmlNode, name: string): this {
    const value = el.attributes.get(name);
    if (value !== undefined) this.parts.push(normalizeSpace(value));
    return this;
  }

  /** Shorthand for a run of attributes: names ending in '?' are optional. */
  fields(el: XmlNode, names: readonly string[]): this {
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
