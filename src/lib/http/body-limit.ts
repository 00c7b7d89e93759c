// Owns how large a request body the server reads at all, per action: a sign-in is a few short
// fields, an editor's form carries a page's Markdown (REQUEST_BODY_MAX_BYTES), and only an
// upload with a file in it gets room for an image of MEDIA_MAX_MB. HTTP policy on Waku's
// action addresses, so it lives at the edge: the content domain keeps only the numbers
// (content/field-limits.ts). Judged twice: on the declared length before anything is read
// (errors middleware), and on the bytes actually read, with the action the form names, before
// anything is decoded (actions middleware) — a body sent without a length is counted as it comes.
import { REQUEST_BODY_MAX_BYTES, UPLOAD_ACTION_NAME } from '../content/field-limits';
import { actionNameOf } from '../waku/internals';

/**
 * Actions whose forms are a few short fields (an email and a password of at most 1 024
 * characters; a sign-out's one checkbox; the error-reporting check's none): a sign-in weighs
 * under 4 KB with its multipart framing. The room above that is for a browser's framing, not
 * for anything these forms carry.
 */
const SMALL_FORM_ACTIONS: ReadonlySet<string> = new Set([
  'signIn',
  'signOut',
  'sendServerTestError',
  // Signing in's other steps (issue 28), answered before anyone is signed in: a code, "start
  // over", a passkey's options and its answer (under 2 KB: a signature and a few hashes).
  'submitSecondStep',
  'startSignInOver',
  'passkeySignInOptions',
  'passkeySignIn',
]);
export const SMALL_FORM_MAX_BYTES = 16 * 1024;

/** An image of `mediaMaxMb` with room for the form around it. */
export function uploadBodyLimit(mediaMaxMb: number): number {
  return Math.max(REQUEST_BODY_MAX_BYTES, (mediaMaxMb + 1) * 1024 * 1024);
}

/** The largest body the action named `name` takes (an upload's only with a file part in it). */
export function actionBodyLimit(name: string | null, mediaMaxMb: number): number {
  if (name === UPLOAD_ACTION_NAME) return uploadBodyLimit(mediaMaxMb);
  if (name !== null && SMALL_FORM_ACTIONS.has(name)) return SMALL_FORM_MAX_BYTES;
  return REQUEST_BODY_MAX_BYTES;
}

/**
 * The largest body read for a request to `url` calling `action` (the action address a
 * browser names, null for none), before the body says more: a JavaScript call names its
 * action; a form posted without JavaScript names it inside the body, so only the media
 * library's form is given room for an image up front, and the form's own action is judged
 * once it is read (`bodyWithinLimits`). An upload's room is for a signed-in editor only
 * (`signedIn`, asked only then): anyone else's upload is held to a form's size, unread.
 */
export async function requestBodyLimit(
  url: URL,
  action: string | null,
  mediaMaxMb: number,
  signedIn: () => Promise<boolean>,
): Promise<number> {
  const limit = bodyLimitOfAddress(url, action, mediaMaxMb);
  return limit > REQUEST_BODY_MAX_BYTES && !(await signedIn()) ? REQUEST_BODY_MAX_BYTES : limit;
}

/** The limit the address and the action it names give, whoever asks. */
export function bodyLimitOfAddress(url: URL, action: string | null, mediaMaxMb: number): number {
  const name = action !== null ? actionNameOf(action) : actionNameOf(url.pathname);
  if (action !== null || name !== null) return actionBodyLimit(name, mediaMaxMb);
  return url.pathname === '/preview' && url.searchParams.has('media')
    ? uploadBodyLimit(mediaMaxMb)
    : REQUEST_BODY_MAX_BYTES;
}

/**
 * Whether a body of `bytes`, read whole, is within what its actions take: every action it
 * names (a form posted without JavaScript may name several; React calls the last), and
 * megabytes only with a file in it — a body over REQUEST_BODY_MAX_BYTES without one is not an
 * image upload, whatever action it names.
 */
export function bodyWithinLimits(
  bytes: number,
  {
    actionNames,
    hasFile,
    mediaMaxMb,
  }: { actionNames: readonly (string | null)[]; hasFile: boolean; mediaMaxMb: number },
): boolean {
  if (bytes > REQUEST_BODY_MAX_BYTES && !hasFile) return false;
  return actionNames.every((name) => bytes <= actionBodyLimit(name, mediaMaxMb));
}
