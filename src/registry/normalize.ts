/**
 * Name and identifier normalization (SPEC §4): how an entity reference is matched. Names compare
 * after folding case, accents, punctuation and whitespace and dropping trailing corporate
 * designators; EINs compare in their `NN-NNNNNNN` form.
 */

/**
 * Corporate designators SPEC §4 says a name match ignores (Inc, LLC, L.L.C., Corp, Corporation,
 * Co, Company, Ltd, LP, LLP, PLLC), in the punctuation-free form they take after folding
 * (`L.L.C.` → `llc`).
 */
export const CORPORATE_SUFFIXES: readonly string[] = [
  'inc',
  'llc',
  'corp',
  'corporation',
  'co',
  'company',
  'ltd',
  'lp',
  'llp',
  'pllc',
];
const SUFFIXES = new Set(CORPORATE_SUFFIXES);

/** Periods and apostrophes join what they separate (`L.L.C.` → `llc`, `O'Brien` → `obrien`). */
const JOINING_PUNCTUATION = /[.'’`]/g;
/** Any other run of non-letters/non-digits separates words. */
const SEPARATORS = /[^\p{L}\p{N}]+/gu;
const COMBINING_MARKS = /\p{M}+/gu;

/**
 * The form names are compared in: lower case, accents folded, punctuation removed, single spaces,
 * trailing corporate designators dropped (repeatedly: "Acme Co., Inc." → "acme"), but never the
 * last remaining word ("Company" stays "company"). Designators are only dropped at the end,
 * where they are designators; "Co Op Builders" keeps its "co".
 */
export function normalizeName(name: string): string {
  const folded = name.normalize('NFKD').replace(COMBINING_MARKS, '').toLowerCase();
  const words = folded.replace(JOINING_PUNCTUATION, '').replace(SEPARATORS, ' ').trim().split(' ');
  while (words.length > 1 && SUFFIXES.has(words[words.length - 1]!)) words.pop();
  return words.join(' ');
}

const EIN_DASHED = /^(\d{2})-(\d{7})$/;
const EIN_DIGITS = /^(\d{2})(\d{7})$/;

/** `NN-NNNNNNN` for an EIN written either way (SPEC §4), else undefined. */
export function canonicalEin(text: string): string | undefined {
  const match = EIN_DASHED.exec(text.trim()) ?? EIN_DIGITS.exec(text.trim());
  return match ? `${match[1]}-${match[2]}` : undefined;
}

/** Upper-cased, trimmed identifier (UEI, CAGE, DUNS, SAM Number), or null when blank. */
export function canonicalCode(text: string | null | undefined): string | null {
  const trimmed = (text ?? '').trim().toUpperCase();
  return trimmed === '' ? null : trimmed;
}

/**
 * Character trigrams of a normalized name, each word padded the way pg_trgm pads it (two spaces
 * before, one after), so short names and word starts still produce trigrams.
 */
export function trigrams(normalized: string): Set<string> {
  const out = new Set<string>();
  for (const word of normalized.split(' ')) {
    if (word === '') continue;
    const padded = `  ${word} `;
    for (let i = 0; i + 3 <= padded.length; i += 1) out.add(padded.slice(i, i + 3));
  }
  return out;
}

/**
 * Similarity of two normalized names: the Jaccard index of their trigram sets, |A∩B| / |A∪B|,
 * in [0, 1]. Chosen because it is small, explainable, tolerant of typos and word order, and
 * needs no tuning beyond one threshold.
 */
export function nameSimilarity(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const gram of a) if (b.has(gram)) shared += 1;
  return shared / (a.size + b.size - shared);
}
