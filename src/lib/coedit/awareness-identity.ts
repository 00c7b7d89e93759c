// Owns who an awareness state says it is (docs/decisions/0050, "Who is who"). A browser tells
// the others its person's name and colour in its awareness state (`user`), and
// y-codemirror.next draws that name at its caret and the colour into a style attribute. Relayed
// as sent, one editor could show their caret under another's name, take over or remove another
// person's caret by its client id, or put CSS of their choosing into everyone's page through the
// colour. So the server rewrites every state a connection sends before anyone sees it: the
// person is the one signed in on that connection, the colour a plain hex colour or none, and
// only client ids this connection may speak for are kept.
import 'server-only';
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';

/** Who the connection's person is to the others: the same fields the browser sends. */
export type AwarenessPerson = { key: string; name: string };

/** The person as the browser names them: the author profile's name, else their e-mail. */
export function awarenessPersonOf(email: string, profileName: string | null): AwarenessPerson {
  return { key: email.trim().toLowerCase(), name: profileName?.trim() || email };
}

/** A caret colour and its selection's background: #rrggbb and #rrggbbaa only. */
const COLOUR = /^#[0-9a-f]{6}$/i;
const LIGHT_COLOUR = /^#[0-9a-f]{6}([0-9a-f]{2})?$/i;

/**
 * `update` (a y-protocols awareness update) with every state's `user` made `person`'s, and the
 * entries for client ids `mayUse` refuses left out; null when nothing is left. Throws on a
 * malformed update (the caller closes that connection, as for any malformed message).
 */
export function stampAwarenessUpdate(
  update: Uint8Array,
  person: AwarenessPerson,
  mayUse: (clientId: number) => boolean,
): Uint8Array | null {
  const decoder = decoding.createDecoder(update);
  const count = decoding.readVarUint(decoder);
  const kept: { clientId: number; clock: number; state: string }[] = [];
  for (let i = 0; i < count; i += 1) {
    const clientId = decoding.readVarUint(decoder);
    const clock = decoding.readVarUint(decoder);
    const state: unknown = JSON.parse(decoding.readVarString(decoder));
    if (!mayUse(clientId)) continue;
    kept.push({ clientId, clock, state: JSON.stringify(stamped(state, person)) });
  }
  if (decoding.hasContent(decoder)) throw new Error('awareness update: bytes after its entries');
  if (kept.length === 0) return null;
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, kept.length);
  for (const entry of kept) {
    encoding.writeVarUint(encoder, entry.clientId);
    encoding.writeVarUint(encoder, entry.clock);
    encoding.writeVarString(encoder, entry.state);
  }
  return encoding.toUint8Array(encoder);
}

/** A state with its `user` made the person's; null (the client left) stays null. */
function stamped(state: unknown, person: AwarenessPerson): unknown {
  if (state === null) return null;
  if (typeof state !== 'object' || Array.isArray(state)) return { user: { ...person } };
  const sent = (state as { user?: unknown }).user;
  const colours =
    sent && typeof sent === 'object'
      ? (sent as { color?: unknown; colorLight?: unknown })
      : { color: undefined, colorLight: undefined };
  const user: Record<string, string> = { ...person };
  if (typeof colours.color === 'string' && COLOUR.test(colours.color)) user.color = colours.color;
  if (typeof colours.colorLight === 'string' && LIGHT_COLOUR.test(colours.colorLight))
    user.colorLight = colours.colorLight;
  return { ...(state as Record<string, unknown>), user };
}

/** The person a state names (its `user.key`), if any. */
export function keyOfState(state: unknown): string | null {
  const user = (state as { user?: { key?: unknown } } | null)?.user;
  return typeof user?.key === 'string' ? user.key : null;
}
