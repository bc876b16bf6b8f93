// Documents of a multi-document file: YAML's `---` separates manifests (a Service, a Deployment, an
// Ingress) that share most of their lines (`metadata:`, `namespace: shop`, `spec:`). A segment that
// shows one document and then a new one (held-out set g yaml03: the `web` Service, `---`, a new
// Ingress) is placed by the document it shows from the original: the new document's lines that
// happen to equal lines of another manifest (`metadata:` under a new `kind: Ingress`) vouch for
// nothing across the separator.

/** A line that separates documents. */
export function documentSeparator(norm: string): boolean {
  return norm === '---';
}

/** Per row of `norm`: how many separators stand at or above it; null when there is none. */
export function documentIndex(norm: readonly string[]): Int32Array | null {
  let n = 0;
  const out = new Int32Array(norm.length);
  for (let x = 0; x < norm.length; x++) {
    if (documentSeparator(norm[x]!)) n++;
    out[x] = n;
  }
  return n === 0 ? null : out;
}

/** Head rows that must all be new for a document to count as new. */
const NEW_HEAD_ROWS = 2;

/**
 * Rows of the documents a segment opens after a separator whose first lines (two, non-blank) the
 * original has nowhere (`apiVersion: networking.k8s.io/v1`, `kind: Ingress`): a new document, whose
 * other lines equal another manifest's only by coincidence and anchor nothing. Null when none.
 */
export function newDocumentRows(norm: readonly string[], blank: readonly boolean[], inOriginal: (norm: string) => boolean): Uint8Array | null {
  let out: Uint8Array | null = null;
  for (let x = 0; x < norm.length; x++) {
    if (!documentSeparator(norm[x]!)) continue;
    let end = x + 1;
    while (end < norm.length && !documentSeparator(norm[end]!)) end++;
    let heads = 0;
    let fresh = true;
    for (let y = x + 1; y < end && heads < NEW_HEAD_ROWS; y++) {
      if (blank[y]) continue;
      heads++;
      if (inOriginal(norm[y]!)) fresh = false;
    }
    if (fresh && heads === NEW_HEAD_ROWS) {
      out ??= new Uint8Array(norm.length);
      for (let y = x + 1; y < end; y++) out[y] = 1;
    }
    x = end - 1;
  }
  return out;
}

/** `rows` (a segment's strong rows) less those of new documents (`newDocumentRows`). */
export function withoutNewDocuments(rows: number[], norm: readonly string[], blank: readonly boolean[], index: ReadonlyMap<string, unknown>): number[] {
  const fresh = newDocumentRows(norm, blank, (n) => index.has(n));
  return fresh ? rows.filter((i) => !fresh[i]) : rows;
}
