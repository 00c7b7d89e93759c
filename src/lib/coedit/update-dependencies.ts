// Owns whether an update would apply whole to a document (docs/decisions/0050, "Updates that
// build on nothing"). Yjs takes an update that builds on text the document does not have — a
// piece inserted after one it never received, a deletion of text nobody has typed yet — and
// keeps it waiting ("pending") until what it builds on arrives, applying everything at once
// then. Stored and acknowledged as it came, such an update is shown nowhere and counted by no
// limit: the hostile pass sent a body of 2.7 million characters in waiting pieces and let them
// in with one last character, after which no draft of that page could be written; another
// deleted text a person had not typed yet, so that what they typed next was stored and never
// shown. So an update is taken only when everything it builds on is in the document or in the
// update itself.
import 'server-only';
import * as Y from 'yjs';

type Decoded = ReturnType<typeof Y.decodeUpdate>;

/**
 * Why `update` would not apply whole to `doc` (a phrase for the log), or null when it would.
 * Checks, without applying it: each client's pieces follow on from what the document has of
 * that client, with no gap; every piece's neighbours and parent are in the document or the
 * update; every deletion covers only text that is in one of them.
 */
export function unresolvedIn(doc: Y.Doc, update: Decoded): string | null {
  const has = Y.decodeStateVector(Y.encodeStateVector(doc));
  // Per client, the clocks the update itself brings: [start, end).
  const brings = new Map<number, { start: number; end: number }>();
  for (const struct of update.structs) {
    if (struct instanceof Y.Skip) return 'a gap in its own pieces';
    const { client, clock } = struct.id;
    const range = brings.get(client);
    if (!range) brings.set(client, { start: clock, end: clock + struct.length });
    else if (clock !== range.end) return 'a gap in its own pieces';
    else range.end = clock + struct.length;
  }
  for (const [client, range] of brings)
    if (range.start > (has.get(client) ?? 0)) return 'pieces that follow ones it never sent';
  const known = (id: Y.ID | null | undefined): boolean => {
    if (!id) return true;
    if (id.clock < (has.get(id.client) ?? 0)) return true;
    const range = brings.get(id.client);
    return range !== undefined && id.clock >= range.start && id.clock < range.end;
  };
  for (const struct of update.structs) {
    if (!(struct instanceof Y.Item)) continue;
    const parent = struct.parent instanceof Y.ID ? struct.parent : null;
    if (!known(struct.origin) || !known(struct.rightOrigin) || !known(parent))
      return 'pieces placed beside text the page does not have';
  }
  for (const [client, deletions] of update.ds.clients) {
    const end = Math.max(has.get(client) ?? 0, brings.get(client)?.end ?? 0);
    for (const deletion of deletions)
      if (deletion.clock + deletion.len > end) return 'a deletion of text nobody has typed';
  }
  return null;
}
