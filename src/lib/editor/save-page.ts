// Owns saving what an editor's form holds, for both of its actions (Save/Publish, and the
// autosave): the schema's field errors, the version check, and the words for a page that
// changed, moved or went away meanwhile, with the editor's text kept in every case. A busy or
// unreachable database is thrown on to the action wrapper (action.ts), which says so.
import 'server-only';
import { documentDamagedHere } from '../coedit/documents';
import {
  DamagedDocument,
  type DocumentFields,
  markWrittenIfNewer,
  readHead,
  storedFields,
  takeIntoDocument,
} from '../coedit/storage';
import { contentStore, isContentError, type PageView } from '../content/content';
import { BODY_MAX } from '../content/field-limits';
import {
  conflictsKey,
  type MergeConflict,
  type MergeText,
  mergeBodiesKeepingBoth,
  mergeTexts,
} from '../content/merge';
import type { SeoFields } from '../content/seo-fields';
import { getDatabase } from '../data/db';
import { can, mayBylineOthers, refusalOf } from '../editors/permissions';
import { rewriteLinksForPreview } from '../http/routes';
import { renderMarkdown, renderMarkdownBlocks } from '../markdown/markdown';
import { mediaByHashes, mediaHashesIn } from '../media/media-refs';
import {
  type Conflict,
  type EditorFormState,
  type EditorFormValues,
  editorFormSchema,
  type LivePreview,
  type MergeAnswer,
  type MergedNote,
} from './forms';
import type { EditorSession } from './guard';

/**
 * How a stale save says what happened to the page meanwhile (PageView.lastChange): each one the
 * whole predicate of "this page …", verb and all — not every change reads after "was".
 */
export const CHANGE_WORDS: Record<PageView['lastChange'], string> = {
  saved: 'was saved again',
  published: 'was published',
  unpublished: 'was unpublished',
  discarded: 'had its draft discarded',
  renamed: 'was renamed',
  restored: 'was restored from its history',
};

/** The sentence a stale save answers with: what happened, when, by whom, and what to do. */
export function conflictMessage(change: string, who: string, conflicts = 1): string {
  return `Not saved: this page ${change} since you opened it${who}. ${
    conflicts === 0
      ? 'Save again to keep your text with their changes, or take their whole version.'
      : 'You both changed the same lines: choose below, for each, theirs, yours or both (their other changes are kept either way), or take their whole version.'
  }`;
}

function conflictOf(page: PageView, merge?: { conflicts: MergeConflict[] }): Conflict {
  return {
    title: page.title,
    summary: page.summary,
    body: page.bodyMarkdown,
    savedBy: page.updatedBy,
    savedAt: page.updatedAt,
    version: page.version,
    change: page.lastChange,
    ...(merge ? { conflicts: merge.conflicts, key: conflictsKey(merge.conflicts) } : {}),
  };
}

/** ", by you in another tab or window", ", by x@example.com", or nothing (the CLI). */
function whoWords(page: Pick<PageView, 'updatedBy'>, session: EditorSession): string {
  return page.updatedBy === null
    ? ''
    : page.updatedBy === session.editor.email
      ? ', by you in another tab or window'
      : `, by ${page.updatedBy}`;
}

/**
 * What happened to the page since the form was opened, and who did it, for conflictMessage.
 * Renamed, the last to change the page is not who renamed it when something came after (a live
 * editor's draft written since): "renamed … by you in another tab" after someone else's rename
 * (hostile pass). Nobody is named then.
 */
export function changeWords(
  current: Pick<PageView, 'slug' | 'lastChange' | 'updatedBy'>,
  renamed: boolean,
  session: EditorSession,
): [what: string, who: string] {
  if (!renamed) return [CHANGE_WORDS[current.lastChange], whoWords(current, session)];
  return [
    `was renamed to “${current.slug}”`,
    current.lastChange === 'renamed' ? whoWords(current, session) : '',
  ];
}

/** What a save merged with what another saved meanwhile (both kept) says (merged-note.tsx). */
export function mergedNote(page: PageView, session: EditorSession, published: boolean): MergedNote {
  const who =
    page.updatedBy === null
      ? ''
      : page.updatedBy === session.editor.email
        ? ' by you in another tab or window'
        : ` by ${page.updatedBy}`;
  return { at: page.updatedAt, who, publishHeld: published };
}

/** The words for a form whose hidden page id names another page than the one it was opened at. */
export function notThisPageMessage(openedAt: string): string {
  return `Not saved: this form names another page than the one opened at /${openedAt}, so nothing was changed on either. Your text is kept here: open /${openedAt} again from the dashboard to save it there.`;
}

export type SaveOutcome =
  | {
      saved: true;
      slug: string;
      pageId: number;
      version: number;
      /** Merged with a version saved meanwhile: what was saved, and the words saying so. */
      merged?: { note: MergedNote; text: MergeText };
      /**
       * A publish asked for: whether it was done. Not when there was nothing to publish, nor
       * when the page changed meanwhile in a way the form had not seen (`unseen`).
       */
      published?: boolean;
      /** Publish was asked, and withheld: the page changed meanwhile (an unpublish, say). */
      unseen?: boolean;
      /** The save cancelled a scheduled publish (the saver may not schedule this page). */
      unscheduled?: boolean;
    }
  | {
      saved: false;
      state: EditorFormState;
      /** Refused by the saver's role (a new topic from a Contributor): a 403, the text kept. */
      forbidden?: true;
    };

/**
 * Whether a change to the draft by `session` cancels the page's pending schedule (and asks for
 * review again): they may not schedule this page, so a reviewer scheduled the text they read,
 * not this one (the store does it in the change's transaction). A save and a restore alike.
 */
export async function changeCancelsSchedule(
  session: EditorSession,
  pageId: number,
): Promise<boolean> {
  const ownership = await contentStore().pageOwnership(pageId);
  return ownership !== null && !can(session.editor, 'page.schedule', ownership);
}

function sameText(a: MergeText, b: MergeText): boolean {
  return a.title === b.title && a.summary === b.summary && a.body === b.body;
}

/** Attempts at a merged save before the editor is asked (someone saving again and again). */
const MERGE_ATTEMPTS = 3;

/** A live save that came while the page's document was being made again. */
const DOCUMENT_REMADE =
  'Not saved yet: the page’s shared document is being made again. Your text is kept here; Save again in a moment.';

/**
 * Saves what an editor's form holds (and publishes it, when asked), checked against the
 * version the form showed. When that version is stale, the form's text is merged three ways
 * with the one saved meanwhile against the one the form started from (merge.ts): changes to
 * different lines are both kept and saved; where both changed the same lines, the editor is
 * asked — unless the form already saw that version (`answer.seenVersion`) and answers each
 * conflict (mine, unless it chose theirs or both). A merge never publishes: the editor has
 * not seen the merged text. Autosaves keep the page's address: a slug being typed is not a
 * rename until the editor saves.
 */
export async function saveEditorValues(
  values: EditorFormValues,
  session: EditorSession,
  {
    publish = false,
    keepAddress = false,
    answer,
    live = false,
  }: {
    publish?: boolean;
    keepAddress?: boolean;
    answer?: MergeAnswer;
    /** The form's text is the page's shared document (decision record 0051): see liveFieldsOf. */
    live?: boolean;
  } = {},
): Promise<SaveOutcome> {
  const liveText = live ? await liveFieldsOf(values.pageId) : null;
  // Sent from a tab bound to the page's document, which is not there now: it is being made
  // again (its rows deleted; the tab opens the new one in a moment). Its form text merged
  // against the last draft the tab saw would ask about lines the others typed (hostile pass).
  if (
    live &&
    liveText === null &&
    values.pageId !== '' &&
    (await contentStore().getPageById(Number(values.pageId))) !== null
  )
    return { saved: false, state: { values, message: DOCUMENT_REMADE } };
  // Title, summary and body alike: a field taken from the form would be saved, then written
  // over by the document's next draft (issue 30: a title typed live was lost that way).
  const own = liveText === null ? values : { ...values, ...liveText };
  const submitted =
    keepAddress && values.pageId !== '' ? { ...own, slug: values.originalSlug } : own;
  const parsed = editorFormSchema.safeParse(submitted);
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues) fieldErrors[String(issue.path[0])] ??= issue.message;
    return {
      saved: false,
      state: { values, fieldErrors, message: 'Check the highlighted fields.' },
    };
  }
  const input = parsed.data;
  const seo = seoOf(input);
  const store = contentStore();
  if (input.pageId !== null) {
    // The form names a page that was never at the address it was opened at (a hidden page id
    // changed by hand, or by a script): not this page. Saying "renamed" would send the editor
    // to another page's text; saving would write over it. Neither: nothing is written.
    const named = await store.pageAddressOf(input.pageId, input.originalSlug);
    if (named !== null && !named.wasAt)
      return { saved: false, state: { values, message: notThisPageMessage(input.originalSlug) } };
  }
  const cancelsSchedule =
    input.pageId !== null && (await changeCancelsSchedule(session, input.pageId));
  const mine: MergeText = { title: input.title, summary: input.summary, body: input.body };
  let text = mine;
  let slug = input.slug;
  let expectedVersion = input.pageId === null ? null : input.version;
  let mergedWith: PageView | null = null;
  // A version the form has not seen (merged with it on its own): its change may be one no text
  // shows (an unpublish), and a publish over it would undo that without a word.
  let unseen = false;
  try {
    for (let attempt = 0; ; attempt += 1) {
      // Nothing of theirs taken (mine chosen wherever both changed, and nothing else of
      // theirs): a plain save, knowingly over theirs — published too, when asked and the
      // editor saw their version (answered its conflicts).
      const merged = mergedWith !== null && !sameText(text, mine);
      const withheld = publish && (merged || unseen);
      const result = await store.saveDraft(
        {
          slug,
          pageId: input.pageId ?? undefined,
          ...text,
          expectedVersion,
          editor: session.editor.email,
          checkpoint: merged ? 'merge' : keepAddress ? 'autosave' : 'save',
          cancelsSchedule,
          keepsRedirects: !can(session.editor, 'redirect.edit'),
          ownBylines: !mayBylineOthers(session.editor),
          // An autosave keeps them: a topic is made when its name is saved, not half typed.
          // Except the autosave that makes a new page: the editor then opens the page it
          // made, from what was saved, so what it left out would be lost (walk-through: the
          // topics typed before the first autosave vanished, and Publish sent none).
          ...((keepAddress && input.pageId !== null) || input.kind === null
            ? {}
            : {
                post: {
                  kind: input.kind,
                  topics: input.topics,
                  ...(can(session.editor, 'topic.create')
                    ? {}
                    : { topicCreationRefused: refusalOf(session.editor, 'topic.create') }),
                  ...(input.authors === undefined ? {} : { authors: input.authors }),
                },
              }),
          // Like the post's fields: an autosave (no such fields sent) keeps them.
          ...(seo === undefined ? {} : { seo }),
        },
        { publish: publish && !withheld },
      );
      if (result.ok && liveText !== null && input.pageId !== null) {
        // The draft is now the document's text: the document's next write goes on from it
        // rather than merging it back in as another editor's save.
        if (!merged) await markWrittenIfNewer(await getDatabase(), input.pageId, result.version);
        // It holds another path's save merged in (a form without the socket, the CLI): the
        // document takes what was saved, as one edit, so that its next write keeps it — and
        // merging this version again later would double lines the live editors changed too.
        else
          await takeIntoDocument(
            await getDatabase(),
            input.pageId,
            liveText,
            { title: text.title, summary: text.summary, body: text.body },
            result.version,
            session.editor.email,
            new Date().toISOString(),
          );
      }
      if (result.ok)
        return {
          saved: true,
          slug: result.slug,
          pageId: result.pageId,
          version: result.version,
          ...(publish ? { published: result.published === true, unseen: withheld } : {}),
          ...(result.unscheduled ? { unscheduled: true } : {}),
          ...(merged && mergedWith
            ? { merged: { note: mergedNote(mergedWith, session, publish), text } }
            : {}),
        };
      const current = result.current;
      if (!current)
        return {
          saved: false,
          state: { values, message: 'This page was deleted meanwhile; nothing was saved.' },
        };
      // Someone renamed it: the form now names its current address, unless this editor was
      // renaming it too. Their text stays in every field.
      const renamed = current.slug !== input.originalSlug;
      const keepsTheirAddress = renamed && input.slug === input.originalSlug;
      const stored = await store.textAtVersion(current.id, input.version);
      // Live, the text is the document's. A draft the document wrote itself is no conflict for
      // any field (merged against it, lines typed since would be doubled, or the editor asked
      // about their own words); only another path's save not yet in the document (a form
      // without the socket) has a title and summary to merge. The body is the document's always.
      const head =
        liveText === null ? null : await readHead((await getDatabase()).query, current.id);
      const ownDraft = liveText !== null && head?.writtenVersion === current.version;
      const theirs = ownDraft
        ? mine
        : {
            title: current.title,
            summary: current.summary,
            body:
              liveText === null
                ? current.bodyMarkdown
                : await bodyWithForeignSave(mine.body, current, head?.writtenVersion ?? null),
          };
      const base = stored && liveText !== null ? { ...stored, body: mine.body } : stored;
      const asked = mergeTexts(mine, base, theirs);
      const seen = answer?.seenVersion === current.version;
      // Choices made for other conflicts (the text changed since they were shown) ask again.
      const answered = seen && (answer.key === '' || answer.key === conflictsKey(asked.conflicts));
      // A page renamed meanwhile asks even when the texts merge: the editor learns its new
      // address before saving there.
      if ((asked.conflicts.length === 0 && !renamed) || answered) {
        if (attempt < MERGE_ATTEMPTS) {
          text = answered ? mergeTexts(mine, base, theirs, answer?.choices).text : asked.text;
          slug = keepsTheirAddress ? current.slug : input.slug;
          expectedVersion = current.version;
          mergedWith = current;
          // The document's own draft writes are not news to a live editor: they are the text
          // on screen. Anything else (an unpublish, a rename, a restore) still is.
          unseen = !answered && !(liveText !== null && current.lastChange === 'saved');
          continue;
        }
      }
      return {
        saved: false,
        state: {
          values: {
            ...values,
            originalSlug: current.slug,
            slug:
              keepsTheirAddress && values.slug === values.originalSlug ? current.slug : values.slug,
          },
          // Live, their body is the document's too: only the other fields are theirs to show.
          conflict: conflictOf(
            liveText === null ? current : { ...current, bodyMarkdown: mine.body },
            asked,
          ),
          message: `${conflictMessage(
            ...changeWords(current, renamed, session),
            asked.conflicts.length,
          )}${seen ? ' Your text changed since you chose: choose again.' : ''}`,
        },
      };
    }
  } catch (error) {
    // Busy or out of reach: the action wrapper says so, the text kept.
    if (!isContentError(error) || error.code === 'busy' || error.code === 'unavailable')
      throw error;
    if (error.code === 'not-found' && input.pageId !== null) {
      // Deleted meanwhile: the form becomes a new page's, the typed text kept in it.
      return {
        saved: false,
        state: {
          values: { ...values, pageId: '', originalSlug: '', version: '0' },
          message:
            'Not saved: this page was deleted meanwhile. Your text is kept below; “Create draft” saves it as a new page.',
        },
      };
    }
    const field =
      error.code === 'invalid-slug' ||
      error.code === 'slug-taken' ||
      error.code === 'redirect-source'
        ? 'slug'
        : error.code === 'missing-media'
          ? 'body'
          : error.code === 'invalid-topics' || error.code === 'topics-forbidden'
            ? 'topics'
            : // A field's refusal, so a 422 (hostile pass 27, 14: an unknown author was a 409).
              error.code === 'invalid-authors' || error.code === 'authors-forbidden'
              ? 'authors'
              : error.code === 'invalid-seo'
                ? 'seoImage'
                : undefined;
    return {
      saved: false,
      // Refused by role (a Contributor's topic name, an address a redirect answers): a 403.
      ...(error.code === 'topics-forbidden' ||
      error.code === 'redirect-source' ||
      error.code === 'authors-forbidden'
        ? { forbidden: true as const }
        : {}),
      state: {
        values,
        // "Publish" saves and publishes in one transaction: neither happened.
        message:
          error.code === 'missing-media'
            ? `${error.message} Nothing was saved either: Save keeps this text as a draft.`
            : error.message,
        fieldErrors: field ? { [field]: error.message } : undefined,
      },
    };
  }
}

/**
 * The document's body with another path's save in it (a form without the socket, the CLI, a
 * session that ended and saved by the form) that the document has not merged yet: three ways,
 * from the text the document last wrote as the draft to that save's, onto the document's; where
 * both changed the same lines, both are kept (the document's, then the save's), as the
 * document's own merge of such a save keeps them (0050). Taking the document's body alone threw
 * that save away, and marked its version the document's own so nothing brought it back (the
 * fault run: words typed while a session was ended, saved by the form, gone on the next save).
 */
async function bodyWithForeignSave(
  documentBody: string,
  current: PageView,
  writtenVersion: number | null,
): Promise<string> {
  const base =
    writtenVersion === null ? null : await contentStore().textAtVersion(current.id, writtenVersion);
  return mergeBodiesKeepingBoth(documentBody, base?.body ?? null, current.bodyMarkdown);
}

/**
 * The title, summary and body of the page's shared document as stored now (merged from the
 * database, so every update any instance acknowledged is in them), for a save sent by an editor
 * bound to it: the client waits until its own updates are acknowledged before it sends
 * (page-editor.tsx). Null for a new page or a page without a document: the form's text then.
 */
async function liveFieldsOf(pageId: string): Promise<DocumentFields | null> {
  const id = Number(pageId);
  if (pageId === '' || !Number.isSafeInteger(id)) return null;
  const db = await getDatabase();
  try {
    // Null when there is none, or it was deleted or made again as it was read: the save waits
    // for the new one.
    return await storedFields(db.query, id);
  } catch (error) {
    if (!(error instanceof DamagedDocument) || error.createdAt === null) throw error;
    // Missing updates (rows deleted by hand): made again now; the save is said to wait for it,
    // as while any document is being made again.
    await documentDamagedHere(id, error.createdAt);
    return null;
  }
}

/**
 * The search and sharing fields a form sent, or undefined when it had none of them (an
 * autosave, a form from before them): the page's are kept then.
 */
function seoOf(input: {
  seoTitle?: string | undefined;
  seoDescription?: string | undefined;
  seoImage?: string | null | undefined;
  seoCanonical?: string | undefined;
  seoNoindex?: boolean | undefined;
}): SeoFields | undefined {
  if (input.seoTitle === undefined) return undefined;
  return {
    title: input.seoTitle,
    description: input.seoDescription ?? '',
    image: input.seoImage ?? null,
    canonical: input.seoCanonical ?? '',
    noindex: input.seoNoindex === true,
  };
}

/** What the editor's form holds for a page (its draft's text, kind, topics and authors). */
export async function editorValuesOf(page: PageView): Promise<EditorFormValues> {
  const [topics, authors] = await Promise.all([
    contentStore().topicsByIds(page.topicIds),
    contentStore().bylinesByIds(page.authorIds),
  ]);
  return {
    slug: page.slug,
    originalSlug: page.slug,
    pageId: String(page.id),
    title: page.title,
    summary: page.summary,
    body: page.bodyMarkdown,
    version: String(page.version),
    kind: page.kind,
    topics: topics.map((topic) => topic.name).join(', '),
    authors: authors.map((author) => author.slug).join(' '),
    seoTitle: page.seo.title,
    seoDescription: page.seo.description,
    seoImage: page.seo.image ?? '',
    seoCanonical: page.seo.canonical,
    seoNoindex: page.seo.noindex ? 'on' : '',
  };
}

/** The page as visitors would see these fields (rendered by the site's own Markdown code). */
export async function previewHtmlOf(body: string): Promise<string> {
  const text = body.slice(0, BODY_MAX);
  const media = await mediaByHashes((await getDatabase()).query, mediaHashesIn(text));
  return rewriteLinksForPreview(await renderMarkdown(text, { media }));
}

/**
 * The live preview of these fields as its blocks (issue 25): every block's id, in order, and
 * the HTML of those the editor's page does not already show (`have`, ids from an earlier
 * answer). A keystroke in a 5 000-line page sends back one paragraph, not 400 KB.
 */
export async function livePreviewOf(body: string, have: readonly string[]): Promise<LivePreview> {
  const text = body.slice(0, BODY_MAX);
  const media = await mediaByHashes((await getDatabase()).query, mediaHashesIn(text));
  const blocks = (await renderMarkdownBlocks(text, { media })).map(rewriteLinksForPreview);
  const shown = new Set(have);
  const ids: string[] = [];
  const html: Record<string, string> = {};
  for (const block of blocks) {
    const id = Bun.hash(block).toString(36);
    ids.push(id);
    if (!shown.has(id)) html[id] = block;
  }
  return { ids, html };
}
