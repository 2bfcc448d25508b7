/**
 * Name and identifier normalization (SPEC §4): how an entity reference is matched. Names compare
 * after folding case, accents, punctuation and whitespace and dropping trailing corporate
 * designators; EINs compare in their `NN-NNNNNNN` form.
 */

/**
 * Corporate designators SPEC §4 says a name match ignores (Inc, Incorporated, LLC, L.L.C., Corp,
 * Corporation, Co, Company, Ltd, Limited, LP, LLP, PLLC, P.C.), in the punctuation-free form they
 * take after folding (`L.L.C.` → `llc`). Incorporated, Limited and P.C. were missing: SAM spells
 * designators out, so an excluded firm listed as "… INCORPORATED" (no UEI or CAGE to match it by)
 * did not match the same firm registered as "…, Inc." and its registry check read clear.
 */
export const CORPORATE_SUFFIXES: readonly string[] = [
  'inc',
  'incorporated',
  'llc',
  'corp',
  'corporation',
  'co',
  'company',
  'ltd',
  'limited',
  'lp',
  'llp',
  'pllc',
  'pc',
];
const SUFFIXES = new Set(CORPORATE_SUFFIXES);

/** Periods and apostrophes join what they separate (`L.L.C.` → `llc`, `O'Brien` → `obrien`). */
const JOINING_PUNCTUATION = /[.'’`]/g;
/**
 * Characters that show nothing (zero-width space and joiners, soft hyphen, word joiner, BOM…):
 * removed, so an invisible one inside a word cannot split it into two.
 */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;
/** Any other run of non-letters/non-digits separates words. */
const SEPARATORS = /[^\p{L}\p{N}]+/gu;
const COMBINING_MARKS = /\p{M}+/gu;

/**
 * Cyrillic and Greek letters that pass for Latin ones in a name (after lower-casing; a letter
 * whose capital looks Latin maps to that capital's letter: Cyrillic н is H, Greek ν is N): the
 * skeleton Unicode TR39 would give them. "Аpex" with a Cyrillic А is Apex.
 */
// prettier-ignore
const LOOK_ALIKES: Readonly<Record<string, string>> = {
  а: 'a', в: 'b', е: 'e', ѕ: 's', і: 'i', ј: 'j', к: 'k', м: 'm', н: 'h', о: 'o', р: 'p', с: 'c',
  т: 't', у: 'y', х: 'x', һ: 'h', ԁ: 'd', ԛ: 'q', ԝ: 'w', ӏ: 'l', ү: 'y',
  α: 'a', β: 'b', ε: 'e', ζ: 'z', η: 'h', ι: 'i', κ: 'k', μ: 'm', ν: 'n', ο: 'o', ρ: 'p', τ: 't',
  υ: 'y', χ: 'x', ı: 'i',
};
const LOOK_ALIKE = new RegExp(`[${Object.keys(LOOK_ALIKES).join('')}]`, 'gu');

/**
 * The form names are compared in: lower case, accents folded, look-alike letters read as the
 * Latin ones they imitate, invisible characters removed, `&` read as "and", punctuation removed,
 * single spaces, trailing corporate designators dropped (repeatedly: "Acme Co., Inc." → "acme"),
 * but never the last remaining word ("Company" stays "company"). Designators are only dropped at
 * the end, where they are designators; "Co Op Builders" keeps its "co".
 */
export function normalizeName(name: string): string {
  const folded = name
    .normalize('NFKD')
    .replace(COMBINING_MARKS, '')
    .replace(INVISIBLE, '')
    .toLowerCase()
    .replace(LOOK_ALIKE, (c) => LOOK_ALIKES[c] ?? c)
    .replaceAll('&', ' and ');
  const words = folded.replace(JOINING_PUNCTUATION, '').replace(SEPARATORS, ' ').trim().split(' ');
  while (words.length > 1 && SUFFIXES.has(words[words.length - 1]!)) words.pop();
  return words.join(' ');
}

/**
 * The key two names are equal under (SPEC §4: case, punctuation and whitespace ignored): the
 * normalized name without its spaces, so "Black-Water Paving" and "BLACKWATER PAVING CO." are one
 * name. Entity lookups and the exclusion match by name compare these keys.
 */
export function nameKey(name: string): string {
  return keyOfNormalized(normalizeName(name));
}

/** `nameKey` of a name already normalized (`normalizeName`), for callers that need both forms. */
export function keyOfNormalized(normalized: string): string {
  return normalized.replaceAll(' ', '');
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
