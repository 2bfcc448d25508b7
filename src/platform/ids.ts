/**
 * Resource identifiers. Each is a fixed prefix plus 16 lowercase base32 characters taken from a
 * UUID (the recording event's id), so an id is stable under replay and unique with its event.
 * Prefixes per SPEC §2.11: ent_, prj_, org_, key_, DRW-, CO-, WAIV-, COI-, INSP-, TTL-, INV-,
 * BOS-, OBS-, FND-, SCN-, CMP-, CERT-, NOT-, PAY-, SIM-, ADQ-.
 */
import { v5 as uuidv5, v7 as uuidv7 } from 'uuid';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** Namespace for ids derived from names (UUIDv5). */
export const PLUMBLINE_NAMESPACE = '6f1d2c4e-8a7b-5c3d-9e0f-1a2b3c4d5e6f';

export function idFromUuid(prefix: string, uuid: string): string {
  const hex = uuid.replace(/-/g, '');
  // The last 20 hex digits (80 bits) carry the randomness in v7 and the hash in v5.
  let bits = BigInt(`0x${hex.slice(-20)}`);
  let out = '';
  for (let i = 0; i < 16; i += 1) {
    out = ALPHABET[Number(bits & 31n)]! + out;
    bits >>= 5n;
  }
  return `${prefix}${out}`;
}

/** A fresh event id (UUIDv7, time-ordered). */
export function newEventId(): string {
  return uuidv7();
}

/** A deterministic event id from a name (UUIDv5): idempotency keys, demo seeds. */
export function derivedEventId(name: string): string {
  return uuidv5(name, PLUMBLINE_NAMESPACE);
}
