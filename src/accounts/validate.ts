/**
 * Bank account identifiers (docs/duties.md): US ABA routing numbers (9 digits, checksum
 * 3·d1 + 7·d2 + d3 + 3·d4 + 7·d5 + d6 + 3·d7 + 7·d8 + d9 ≡ 0 mod 10), IBANs (ISO 13616: country,
 * check digits, BBAN; mod-97 of the rearranged digits is 1) and BICs (ISO 9362: 8 or 11 characters).
 */

export function abaValid(routing: string): boolean {
  if (!/^\d{9}$/.test(routing)) return false;
  const d = [...routing].map(Number);
  const sum = 3 * (d[0]! + d[3]! + d[6]!) + 7 * (d[1]! + d[4]! + d[7]!) + (d[2]! + d[5]! + d[8]!);
  return sum % 10 === 0;
}

/** The IBAN without spaces, upper case. */
export const normalizeIban = (iban: string): string => iban.replace(/\s+/g, '').toUpperCase();

export function ibanValid(input: string): boolean {
  const iban = normalizeIban(input);
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const ch of rearranged) {
    const value = ch >= 'A' && ch <= 'Z' ? String(ch.charCodeAt(0) - 55) : ch;
    for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

export const bicValid = (bic: string): boolean => /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(bic);

/** US account numbers: 4–17 digits (NACHA DFI account number field). */
export const usAccountValid = (number: string): boolean => /^\d{4,17}$/.test(number);

/** Only the last four characters shown. */
export function maskAccount(number: string): string {
  return `****${number.slice(-4)}`;
}
