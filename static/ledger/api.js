// Reads of the ledger read API (SPEC §9) and the transparency log's proofs for the explorer. The
// key travels as a Bearer token on same-origin requests only; nothing here stores it.

/** The largest page the API serves (GET /api/ledger limit 1–500). */
export const MAX_PAGE = 500;

/** A refused or failed request, carrying the HTTP status and the problem+json detail. */
export class LedgerApiError extends Error {
  constructor(status, detail, retryAfter) {
    super(detail);
    this.name = 'LedgerApiError';
    this.status = status;
    this.retryAfter = retryAfter;
  }
}

async function problemDetail(response) {
  try {
    const body = await response.json();
    return body.detail || body.title || response.statusText;
  } catch {
    return response.statusText;
  }
}

async function getJson(key, url) {
  const response = await fetch(url, {
    headers: { Authorization: `Bearer ${key}`, Accept: 'application/json' },
    credentials: 'omit',
    cache: 'no-store',
  });
  if (!response.ok) {
    throw new LedgerApiError(
      response.status,
      await problemDetail(response),
      response.headers.get('Retry-After'),
    );
  }
  return response.json();
}

/** One page: events with seq > after, at most `limit`, and the ledger head. */
export function fetchPage(key, after, limit) {
  return getJson(key, `/api/ledger?after=${encodeURIComponent(after)}&limit=${encodeURIComponent(limit)}`);
}

/** One event in full (GET /api/ledger/:seq); another organization's arrives redacted. */
export function fetchEvent(key, seq) {
  return getJson(key, `/api/ledger/${encodeURIComponent(seq)}`);
}

/** The receipt of the event `seq`: its inclusion proof under the latest signed checkpoint. */
export function fetchReceipt(key, seq) {
  return getJson(key, `/api/ledger/proof/inclusion?seq=${encodeURIComponent(seq)}`);
}

/** The consistency proof from the tree of size `from` to the tree of size `to`. */
export function fetchConsistency(key, from, to) {
  return getJson(
    key,
    `/api/ledger/proof/consistency?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
  );
}

/** A sentence for the reader, per failure kind. */
export function describeError(error) {
  if (!(error instanceof LedgerApiError)) return `The ledger could not be read: ${error.message}`;
  switch (error.status) {
    case 401:
      return `The key was refused: ${error.message}`;
    case 403:
      return `The key may not read the ledger (it needs the ledger:read scope): ${error.message}`;
    case 429:
      return `Rate limited; try again in ${error.retryAfter ?? 'a few'} seconds.`;
    default:
      return `The ledger could not be read (HTTP ${error.status}): ${error.message}`;
  }
}
