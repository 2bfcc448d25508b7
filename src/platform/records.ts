/**
 * Records used as maps (read models, parsed files): a key is looked up among the record's own
 * members only, so an id never resolves to an `Object.prototype` member (`__proto__`,
 * `constructor`). One definition for every capability.
 */
export function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
