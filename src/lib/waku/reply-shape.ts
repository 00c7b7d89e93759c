// Owns what Folio knows of the shape of React's encoded action arguments (a "reply") before
// anything parses them: which parts React reads as JSON, and how deep they may nest. Folio's
// own calls nest a few levels (an argument list holding a form or an object of fields); React's
// decoder, and JSON.parse before it, spend time and memory on every level, so a body of
// `[[[…]]]` a million deep held the whole server for seconds before any session check
// (issue 24). This is judged in one pass over the characters, without parsing, so its cost is
// the body's length whatever its shape. Not a stable format: review with internals.ts on a
// Waku or React upgrade.

/**
 * The deepest nesting any part of a call may have. Folio's browser code sends three levels at
 * most (the list of arguments, an object of fields, a list in a field); the margin is for a
 * React upgrade that wraps a level or two more, not for anything Folio sends.
 */
export const REPLY_MAX_DEPTH = 32;

/**
 * Counts how deep JSON nests as its bytes arrive, so a call can be refused after its first
 * few dozen bytes rather than after its last. Works on UTF-8 bytes: the characters it looks at
 * are ASCII, and no byte of a multi-byte character is. Brackets inside strings do not count (a
 * Markdown link is `[text](…)`); the text need not be valid JSON: a malformed one is left to
 * the decoder, which fails on it quickly.
 */
export function nestingScanner(max: number): { feed: (bytes: Uint8Array) => boolean } {
  let depth = 0;
  let inString = false;
  let escaped = false;
  return {
    /** Reads the next bytes; true once the text has nested deeper than `max`. */
    feed(bytes) {
      for (const code of bytes) {
        if (inString) {
          if (escaped) escaped = false;
          else if (code === 0x5c /* \ */) escaped = true;
          else if (code === 0x22 /* " */) inString = false;
        } else if (code === 0x22) inString = true;
        else if (code === 0x5b /* [ */ || code === 0x7b /* { */) {
          depth += 1;
          if (depth > max) return true;
        } else if (code === 0x5d /* ] */ || code === 0x7d /* } */) depth = Math.max(0, depth - 1);
      }
      return false;
    },
  };
}

/** Whether JSON text opens more than `max` arrays or objects inside each other. */
export function nestsDeeperThan(text: string, max: number): boolean {
  return nestingScanner(max).feed(new TextEncoder().encode(text));
}

/**
 * The form fields React reads as JSON: a reply's chunks are named by their id (`0` is the
 * root), and a form posted without JavaScript carries its action's reference and bound
 * arguments under `$ACTION_<name>:` — where `<name>` is whatever follows `$ACTION_REF_`, any
 * text at all (a first version took only digits, and `$ACTION_REF_x` walked around it). So
 * every `$ACTION_` field and every field named by a hex number (React's chunk ids) is judged;
 * the values React hands over as they are (`1_body`, `title`) are not, so Markdown never is.
 */
const JSON_FIELD = /^(?:\$ACTION_|[0-9a-f]+$)/i;

/** Whether any part of a call's body that React parses as JSON nests deeper than `max`. */
export function replyNestsDeeperThan(body: string | FormData, max = REPLY_MAX_DEPTH): boolean {
  if (typeof body === 'string') return nestsDeeperThan(body, max);
  for (const [name, value] of body)
    if (typeof value === 'string' && JSON_FIELD.test(name) && nestsDeeperThan(value, max))
      return true;
  return false;
}
