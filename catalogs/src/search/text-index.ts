import { STOPWORDS, foldAccents, stem, words } from './normalize-text';
import { alternatives } from './thesaurus';

/** What the index needs from a catalog entry; `value` is what a search returns. */
export interface IndexItem<T> {
  key: string;
  /** The description: matches here rank above matches only in `secondary`. */
  primary: string;
  /** Synonyms (SAT "palabras similares") or, for units, the symbol. */
  secondary: string;
  validFrom: string | null;
  validUntil: string | null;
  value: T;
}

export interface SearchOptions {
  limit: number;
  /** Also return entries outside their vigencia (bounds inclusive, checked against today in UTC). */
  includeExpired?: boolean;
}

const MAX_QUERY_WORDS = 8;
/** Shorter query words match whole words only: 's' as a prefix would touch half the catalog for nothing useful. */
const MIN_PREFIX = 3;
const PRIMARY = 1 << 8;
const MAX_POS = 255;
const INDEX_BITS = 17;

/**
 * In-memory inverted index over stemmed words, for prefix search of the product (52k) and unit (2.4k)
 * catalogs in well under a millisecond. Rules, in order:
 *  - a query that is a single token is also matched against key prefixes: exact key first, then keys
 *    starting with it, in key order;
 *  - otherwise (and after those) an entry matches when every query word (minus Spanish stopwords) is a
 *    prefix of some stemmed word of its description or synonyms, accent- and case-insensitive (words
 *    under three letters must match a whole word);
 *  - ranked by: at least one query word matched as typed (an entry found only through thesaurus alternatives
 *    comes after), query words that are whole words of the entry (more first), position of the query's first word in the description
 *    (earlier first), fewer description words (more specific), key. A word found in the synonyms counts like one
 *    found in the description (the SAT's "palabras similares" are how people name the product: 'laptop' finds
 *    43211508 "Computadores personales" through them); only the position prefers the description.
 */
export class TextIndex<T> {
  // Only what searches read is kept: the items' texts are dropped once their words are indexed (about half the
  // memory of the product catalog), and validity dates are day numbers rather than 100k little strings.
  private readonly values: T[];
  /** Keys folded to upper case, sorted, parallel to `values`. */
  private readonly keys: string[];
  private readonly validFrom: Int32Array;
  private readonly validUntil: Int32Array;
  private readonly wordCounts: Uint8Array;
  /** Sorted distinct stems; postings `(item << 9) | PRIMARY? | position` of stem `v` are `postings[postingStart[v] … postingStart[v + 1])`. */
  private readonly vocabulary: string[];
  private readonly postingStart: Int32Array;
  private readonly postings: Int32Array;
  // Per-query scratch, reset by bumping `generation` instead of clearing 50k-element arrays.
  private generation = 0;
  private readonly stamp: Int32Array;
  private readonly matched: Int32Array;
  private readonly literal: Int32Array;
  private readonly whole: Int32Array;
  private readonly firstPos: Uint8Array;

  constructor(items: readonly IndexItem<T>[]) {
    if (items.length >= 1 << INDEX_BITS)
      throw new Error(`TextIndex holds at most ${(1 << INDEX_BITS) - 1} items`);
    const keyed = items.map((item) => ({ item, key: foldKey(item.key) }));
    keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const sorted = keyed.map((k) => k.item);
    const n = sorted.length;
    // A key that folding leaves unchanged (every product key: digits) keeps the item's string rather than a copy.
    this.keys = keyed.map((k) => (k.key === k.item.key ? k.item.key : k.key));
    this.values = sorted.map((item) => item.value);
    this.validFrom = Int32Array.from(sorted, (item) => dayNumber(item.validFrom, 0));
    this.validUntil = Int32Array.from(sorted, (item) => dayNumber(item.validUntil, FOREVER));
    this.wordCounts = new Uint8Array(n);
    const lists = new Map<string, number[]>();
    const add = (w: string, posting: number) => {
      const list = lists.get(w);
      if (list) list.push(posting);
      else lists.set(w, [posting]);
    };
    sorted.forEach((item, i) => {
      const seen = new Set<string>();
      const primary = words(item.primary)
        .filter((w) => !STOPWORDS.has(w))
        .map(stem);
      this.wordCounts[i] = Math.min(primary.length, 255);
      primary.forEach((w, pos) => {
        if (seen.has(w)) return;
        seen.add(w);
        add(w, (i << 9) | PRIMARY | Math.min(pos, MAX_POS));
      });
      for (const w of words(item.secondary).map(stem)) {
        if (seen.has(w)) continue;
        seen.add(w);
        add(w, (i << 9) | MAX_POS);
      }
    });
    this.vocabulary = [...lists.keys()].sort();
    this.postingStart = new Int32Array(this.vocabulary.length + 1);
    let total = 0;
    this.vocabulary.forEach((w, v) => {
      this.postingStart[v] = total;
      total += lists.get(w)!.length;
    });
    this.postingStart[this.vocabulary.length] = total;
    this.postings = new Int32Array(total);
    this.vocabulary.forEach((w, v) => this.postings.set(lists.get(w)!, this.postingStart[v]!));
    this.stamp = new Int32Array(n);
    this.matched = new Int32Array(n);
    this.literal = new Int32Array(n);
    this.whole = new Int32Array(n);
    this.firstPos = new Uint8Array(n);
  }

  get size(): number {
    return this.values.length;
  }

  has(key: string): boolean {
    const folded = foldKey(key);
    const i = lowerBound(this.keys, folded);
    return this.keys[i] === folded && this.isValid(i, todayNumber());
  }

  search(keyword: string | undefined, options: SearchOptions): T[] {
    const validOn = todayNumber();
    const ok = (i: number) => options.includeExpired === true || this.isValid(i, validOn);
    const trimmed = keyword?.trim() ?? '';
    const results: number[] = [];
    const taken = new Set<number>();
    const take = (i: number) => {
      if (results.length < options.limit && !taken.has(i) && ok(i)) {
        results.push(i);
        taken.add(i);
      }
    };
    if (trimmed === '') {
      for (let i = 0; i < this.values.length && results.length < options.limit; i++) take(i);
      return results.map((i) => this.values[i]!);
    }
    if (/^[\p{L}\p{N}]+$/u.test(trimmed)) {
      const key = foldKey(trimmed);
      for (
        let i = lowerBound(this.keys, key);
        i < this.keys.length && this.keys[i]!.startsWith(key) && results.length < options.limit;
        i++
      )
        take(i);
    }
    if (results.length < options.limit) {
      for (const i of this.textMatches(trimmed, options.limit + taken.size, ok)) take(i);
    }
    return results.map((i) => this.values[i]!);
  }

  /** Validity bounds are inclusive. */
  private isValid(i: number, on: number): boolean {
    return this.validFrom[i]! <= on && this.validUntil[i]! >= on;
  }

  /** Best `limit` word matches, best first. */
  private textMatches(keyword: string, limit: number, ok: (i: number) => boolean): number[] {
    const queryWords = queryStems(keyword);
    if (queryWords.length === 0) return [];
    const gen = ++this.generation;
    const touched: number[] = [];
    queryWords.forEach((alts, bit) => {
      const flag = 1 << bit;
      // alts[0] is the query's own word; the others come from the thesaurus.
      alts.forEach((alt, altIndex) => {
        const start = lowerBound(this.vocabulary, alt);
        const end =
          alt.length < MIN_PREFIX
            ? wholeWordEnd(this.vocabulary, start, alt)
            : prefixEnd(this.vocabulary, start, alt);
        for (let v = start; v < end; v++) {
          const isWhole = this.vocabulary[v] === alt;
          for (let p = this.postingStart[v]!; p < this.postingStart[v + 1]!; p++) {
            const posting = this.postings[p]!;
            const i = posting >>> 9;
            if (this.stamp[i] !== gen) {
              // An item not matched by the first word can never match all of them.
              if (bit > 0) continue;
              this.stamp[i] = gen;
              this.matched[i] = this.literal[i] = this.whole[i] = 0;
              this.firstPos[i] = MAX_POS;
              touched.push(i);
            }
            this.matched[i]! |= flag;
            if (altIndex === 0) this.literal[i]! |= flag;
            if (isWhole) this.whole[i]! |= flag;
            if (posting & PRIMARY) {
              // Where the query's first word sits: 'tornillo madera' prefers 'Tornillos … madera' to 'Madera de tornillo'.
              if (bit === 0) this.firstPos[i] = Math.min(this.firstPos[i]!, posting & MAX_POS);
            }
          }
        }
      });
    });
    const all = (1 << queryWords.length) - 1;
    const best = new TopK(limit);
    for (const i of touched) {
      if (this.matched[i] !== all || !ok(i)) continue;
      best.offer(i, this.score(i));
    }
    return best.sorted();
  }

  /** One number, higher is better, unique per item; the order documented on the class. */
  private score(i: number): number {
    const asTyped = this.literal[i] ? 1 : 0;
    const wholeHits = popcount(this.whole[i]!);
    const early = MAX_POS - this.firstPos[i]!;
    const specific = 255 - this.wordCounts[i]!;
    const keyOrder = (1 << INDEX_BITS) - 1 - i;
    return (((asTyped * 16 + wholeHits) * 256 + early) * 256 + specific) * (1 << INDEX_BITS) + keyOrder;
  }
}

/** Query words → stems with their thesaurus alternatives; stopwords dropped unless nothing else is left. */
function queryStems(keyword: string): string[][] {
  const all = [...new Set(words(keyword))];
  const meaningful = all.filter((w) => !STOPWORDS.has(w));
  return (meaningful.length ? meaningful : all).slice(0, MAX_QUERY_WORDS).map((w) => {
    const own = stem(w);
    return [own, ...alternatives(own).filter((alt) => alt !== own)];
  });
}

/** Keeps the `k` highest scores seen, in a sorted array: k ≤ 100, so insertion beats a heap here. */
class TopK {
  private readonly scores: number[] = [];
  private readonly ids: number[] = [];
  constructor(private readonly k: number) {}

  offer(id: number, score: number): void {
    if (this.scores.length === this.k && score <= this.scores[this.k - 1]!) return;
    let at = this.scores.length;
    while (at > 0 && this.scores[at - 1]! < score) at--;
    this.scores.splice(at, 0, score);
    this.ids.splice(at, 0, id);
    if (this.scores.length > this.k) {
      this.scores.pop();
      this.ids.pop();
    }
  }

  sorted(): number[] {
    return this.ids;
  }
}

const foldKey = (key: string) => foldAccents(key).toUpperCase();

const FOREVER = 99_999_999;

/** 'YYYY-MM-DD' → YYYYMMDD, which compares like the date; `none` when there is no bound. */
function dayNumber(date: string | null, none: number): number {
  return date ? Number(date.slice(0, 4) + date.slice(5, 7) + date.slice(8, 10)) : none;
}

function todayNumber(): number {
  return dayNumber(today(), 0);
}

function lowerBound(sorted: readonly string[], value: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function prefixEnd(sorted: readonly string[], start: number, prefix: string): number {
  let end = start;
  while (end < sorted.length && sorted[end]!.startsWith(prefix)) end++;
  return end;
}

function wholeWordEnd(sorted: readonly string[], start: number, word: string): number {
  return sorted[start] === word ? start + 1 : start;
}

function popcount(n: number): number {
  let count = 0;
  for (let x = n; x; x &= x - 1) count++;
  return count;
}

export function today(): string {
  return new Date().toISOString().slice(0, 10);
}
