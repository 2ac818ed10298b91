import { stem } from './normalize-text';

/**
 * Everyday words that SAT descriptions and "palabras similares" lack: a query word in a group also
 * matches the other words of its group ('computadora portátil' → 'Computadoras notebook', 43211503).
 * Whole words only; kept deliberately small because every entry widens results (and a group word must not fold
 * into another word: 'ordenador' met 'Ordeñadoras', so it is left to the SAT's own synonyms).
 */
const GROUPS: readonly (readonly string[])[] = [
  ['portatil', 'laptop', 'notebook'],
  ['celular', 'smartphone', 'movil'],
  ['coche', 'automovil', 'carro'],
  ['playera', 'camiseta'],
  ['refresco', 'gaseosa'],
  ['asesoria', 'consultoria'],
];

const ALTERNATIVES: ReadonlyMap<string, readonly string[]> = new Map(
  GROUPS.flatMap((group) => {
    const stems = group.map(stem);
    return stems.map((s) => [s, stems] as const);
  }),
);

/** The stems a query word stands for: itself plus its thesaurus group. */
export function alternatives(wordStem: string): readonly string[] {
  return ALTERNATIVES.get(wordStem) ?? [wordStem];
}
