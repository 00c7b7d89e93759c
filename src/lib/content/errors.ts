// Owns the content domain's expected failures: ContentError with its codes, the words for a
// busy or unreachable database, and isContentError, which survives module copies.
import 'server-only';
import { isDatabaseBusy, isDatabaseFull, isDatabaseUnavailable } from '../data/db-errors';

export type ContentErrorCode =
  | 'not-found'
  | 'conflict'
  | 'invalid-slug'
  | 'slug-taken'
  | 'invalid'
  /** A post's topics: too many, or a name too long (the editor's Topics field). */
  | 'invalid-topics'
  /** A topic name no topic has, from a saver who may not create topics (permissions.ts). */
  | 'topics-forbidden'
  /** A search and sharing field refused by the store (seo-fields.ts): a social image too small. */
  | 'invalid-seo'
  /** The text names an image the media library does not have: not published. */
  | 'missing-media'
  /** A post's authors: too many, or an address no author has (the editor's Authors field). */
  | 'invalid-authors'
  /** Bylines naming others and not the saver, from someone who may act only on their own pages. */
  | 'authors-forbidden'
  | 'replaced'
  /** An address an editor's redirect answers, refused to someone who may not manage them. */
  | 'redirect-source'
  /** A schedule asked for where one was set meanwhile (the banner's form): it stands. */
  | 'already-scheduled'
  | 'busy'
  | 'unavailable';

// The brand survives module copies (the CLI and a test load this module on their own), where
// `instanceof` would not: code that asks whether an error is expected uses isContentError.
const CONTENT_ERROR = Symbol.for('folio.content-error');

/** An expected failure with a message fit for an editor; never reported as a bug. */
export class ContentError extends Error {
  readonly [CONTENT_ERROR] = true;
  constructor(
    readonly code: ContentErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ContentError';
  }
}

export function isContentError(error: unknown): error is ContentError {
  return (error as { [CONTENT_ERROR]?: unknown } | null)?.[CONTENT_ERROR] === true;
}

export const BUSY_MESSAGE =
  'Folio is busy saving other changes. Nothing was saved; try again in a moment (your text is kept).';
export const UNAVAILABLE_MESSAGE =
  'Folio cannot reach its database right now. Nothing was saved; try again in a moment (your text is kept).';

/** The words for a write refused because the database's disk is full (code 'unavailable'). */
export const FULL_MESSAGE =
  'Folio cannot save right now: its database is out of space. Nothing was saved; try again later (your text is kept).';

/**
 * What an error says of the database, in the store's words: 'busy' (locked past the wait
 * allowed), 'unavailable' (out of reach), or null for anything else. For callers outside the
 * domain (the editors' actions) that must not reach into src/lib/data themselves.
 */
export function databaseTroubleOf(error: unknown): 'busy' | 'unavailable' | null {
  if (isDatabaseBusy(error)) return 'busy';
  if (isDatabaseUnavailable(error) || isDatabaseFull(error)) return 'unavailable';
  return null;
}
