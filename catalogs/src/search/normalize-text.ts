/** Lower case without diacritics, compatibility forms unfolded: 'Camión' → 'camion', 'PEÑA' → 'pena', 'm²' → 'm2'. */
export function foldAccents(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/** Accent-folded words of a text; anything that is not a letter or digit separates words. */
export function words(text: string): string[] {
  return foldAccents(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/**
 * Light Spanish number/gender folding so that 'computadora', 'computadoras', 'computador' and
 * 'computadores' meet: a plural '-es' after a consonant goes ('meses' → 'mes', 'flores' → 'flor'), else a
 * final 's', then a final 'a', 'e' or 'o' while the word keeps at least four letters (short words such as
 * 'gas', 'mes' or 'pais' stay whole), and a final 'z' is written 'c' so that 'luz' meets 'luces' and
 * 'lapiz' meets 'lapices'. The same function runs over the index and the query, so the two always agree.
 */
export function stem(word: string): string {
  let w = word;
  if (w.length >= 5 && /[^aeiou]es$/.test(w)) w = w.slice(0, -2);
  else if (w.length >= 5 && w.endsWith('s')) w = w.slice(0, -1);
  if (w.length >= 5 && /[aeo]$/.test(w)) w = w.slice(0, -1);
  return w.endsWith('z') ? `${w.slice(0, -1)}c` : w;
}

/** Words that carry no meaning in a catalog query ('servicios de facturación'). */
export const STOPWORDS: ReadonlySet<string> = new Set([
  'a',
  'al',
  'con',
  'de',
  'del',
  'e',
  'el',
  'en',
  'la',
  'las',
  'lo',
  'los',
  'o',
  'para',
  'por',
  'sin',
  'u',
  'un',
  'una',
  'y',
]);
