'use server';
// Owns the share-link actions (share-link-form.tsx, the banner's list): make a read-only link
// to a page's draft, and revoke one.
import { contentStore } from '../../content/content';
import { sessionStillOpen } from '../../editors/session';
import { shareLinkPath } from '../../http/routes';
import { siteOrigin } from '../../http/site-url';
import {
  DEFAULT_SHARE_DURATION,
  SHARE_DURATIONS,
  type ShareDuration,
  ShareLinkCapError,
  ShareLinkMakerGone,
  shareLinks,
} from '../../share-links/share-links';
import { rerenderActionRoute } from '../../waku/rerender';
import { editorCommand, editorForm, readForm, refuseForm } from '../action';
import { revokeShareLinkSchema, type ShareLinkState, shareLinkFormSchema } from '../forms';
import { SIGNED_OUT_MESSAGE } from '../guard';
import { backToPage } from '../landing';

function isShareDuration(value: string): value is ShareDuration {
  return Object.hasOwn(SHARE_DURATIONS, value);
}

export const createShareLink = editorForm({
  read: (input) => {
    const { ttl, pageId, slug } = readForm(shareLinkFormSchema, input);
    return { ttl: ttl || DEFAULT_SHARE_DURATION, pageId, slug };
  },
  check: ({ ttl }): ShareLinkState | undefined => {
    if (isShareDuration(ttl)) return undefined;
    refuseForm(422);
    return {
      error: 'Choose how long the link should work: 1 hour, 24 hours or 7 days.',
      ttl: DEFAULT_SHARE_DURATION,
    };
  },
  // Signed out, or not this person's to share (the role's words, naming who can): the guard's
  // sentence; only a database that could not answer is "try again".
  refused: ({ ttl }, { reason, message }): ShareLinkState => ({
    error:
      reason === 'signed-out' || reason === 'forbidden'
        ? message
        : `No link was made: ${reason === 'unavailable' ? 'Folio cannot reach its database' : 'Folio is busy'}. Try again in a moment.`,
    ttl,
  }),
  may: ({ pageId, slug }) => [{ action: 'share-link.create', page: pageId ?? slug }],
  run: async ({ ttl, pageId, slug }, editor): Promise<ShareLinkState> => {
    const store = contentStore();
    // The form names the page it was made at twice, by id and by address: a page id that was
    // never at that address (changed by hand, or by a script) is another page's, and a link to
    // its draft is not this form's to make. (A page renamed since is still the same page.)
    const address = pageId === undefined ? null : await store.pageAddressOf(pageId, slug);
    if (address !== null && !address.wasAt) {
      refuseForm(409);
      return {
        error: `No link was made: this form names another page than the one at /${slug}. Open /${slug} again from the dashboard to share it.`,
        ttl,
      };
    }
    const page = address === null || pageId === undefined ? null : await store.getPageById(pageId);
    if (!page || !isShareDuration(ttl)) {
      refuseForm(409);
      return { error: 'This page no longer exists.', ttl };
    }
    const made = await shareLinks()
      .create({
        pageId: page.id,
        createdBy: editor.editor.email,
        ttlSeconds: SHARE_DURATIONS[ttl],
        stillSignedIn: sessionStillOpen(),
      })
      // A cap reached is the editor's to fix (revoke one), not a fault: said, nothing made;
      // a session ended meanwhile is signed out, like one ended before the call.
      .catch((error: unknown) => {
        if (error instanceof ShareLinkCapError || error instanceof ShareLinkMakerGone) return error;
        throw error;
      });
    if (made instanceof ShareLinkMakerGone) {
      refuseForm(401);
      return { error: SIGNED_OUT_MESSAGE, ttl };
    }
    if (made instanceof ShareLinkCapError) {
      refuseForm(409);
      return { error: made.message, ttl };
    }
    const { token, link } = made;
    // With JavaScript the banner's list of open links updates too.
    rerenderActionRoute();
    return {
      url: `${siteOrigin()}${shareLinkPath(page.slug, token)}`,
      expiresAt: link.expiresAt,
      ttl,
    };
  },
});

export const revokeShareLink = editorCommand({
  read: (input) => readForm(revokeShareLinkSchema, input),
  may: ({ pageId, slug }) => [{ action: 'share-link.revoke', page: pageId ?? slug }],
  run: async ({ linkId, pageId }) =>
    linkId !== undefined && pageId !== undefined && (await shareLinks().revoke(linkId, { pageId }))
      ? 'link-revoked'
      : 'link-gone',
  land: async ({ slug }, notice) => backToPage(slug, notice),
});
