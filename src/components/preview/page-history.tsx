// A page's history at /preview/<slug>?history: every publish (when, by whom) and every save
// (checkpoints: coalesced, pruned as the README says), any published version shown as
// visitors saw it, a comparison of any two (the draft included) that opens at the first
// change with unchanged paragraphs folded, and Restore as draft of any of them. Links and
// plain forms: all of it works without JavaScript.

import type { ReactNode } from 'react';
import type {
  Checkpoint,
  CheckpointSummary,
  PageView,
  Revision,
  RevisionSummary,
} from '../../lib/content/content';
import type { ReviewEvent } from '../../lib/content/review';
import { restoreCheckpoint, restoreRevision } from '../../lib/editor/actions/pages';
import { previewPath, rewriteLinksForPreview } from '../../lib/http/routes';
import { Article } from '../article';
import { LocalTime, TimeOption } from './local-time';
import { ReviewHistory } from './review-history';
import { FieldsDiff } from './word-diff';

/** What a history URL asks for: a version to show, or two to compare ('draft' is one). */
export type HistoryQuery = { show: number | null; from: string | null; to: string | null };

/** Who published a version: an editor, or a schedule on an editor's behalf. */
function publishedByWords(revision: RevisionSummary): string {
  if (revision.bySchedule)
    return revision.publishedBy
      ? ` by schedule, on behalf of ${revision.publishedBy}`
      : ' by schedule';
  return revision.publishedBy ? ` by ${revision.publishedBy}` : '';
}

export function historyQuery(params: URLSearchParams): HistoryQuery {
  const show = Number(params.get('rev'));
  return {
    show: Number.isSafeInteger(show) && show > 0 ? show : null,
    from: params.get('from'),
    to: params.get('to'),
  };
}

/** A version key of a history URL ('draft', or a revision id in digits) as a revision id. */
function revisionIdOf(key: string | null): number | null {
  const id = Number(key);
  return key !== null && /^\d+$/.test(key) && Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** A checkpoint key of a history URL ('c' and its id in digits) as a checkpoint id. */
function checkpointIdOf(key: string | null): number | null {
  return key?.startsWith('c') ? revisionIdOf(key.slice(1)) : null;
}

/**
 * The revisions whose text a history view needs (the one shown, the two compared): the only
 * ones read whole; the list itself carries none.
 */
export function versionsAsked(query: HistoryQuery): number[] {
  const ids = [query.show, revisionIdOf(query.from), revisionIdOf(query.to)];
  return [...new Set(ids.filter((id): id is number => id !== null))];
}

/** The checkpoints whose text a comparison needs (`c<id>` keys). */
export function checkpointsAsked(query: HistoryQuery): number[] {
  const ids = [checkpointIdOf(query.from), checkpointIdOf(query.to)];
  return [...new Set(ids.filter((id): id is number => id !== null))];
}

/** The id the first change of a comparison carries: Compare links open there. */
const FIRST_CHANGE = 'first-change';

type Comparable = { label: ReactNode; title: string; summary: string; body: string };

const KIND_WORDS: Record<CheckpointSummary['kind'], string> = {
  autosave: 'Autosaved',
  save: 'Saved',
  merge: 'Saved, merged',
  restore: 'Restored',
};

/** "Autosaved", "Saved"…: what made a checkpoint, the first word of its name. */
const kindWords = (checkpoint: CheckpointSummary) => KIND_WORDS[checkpoint.kind] ?? 'Saved';

/** "Saved Nov 23, 2026, 02:50 AM" (the editor's zone): how a compared checkpoint is named. */
function checkpointLabel(checkpoint: CheckpointSummary): ReactNode {
  return (
    <>
      {kindWords(checkpoint)} <LocalTime iso={checkpoint.savedAt} />
    </>
  );
}

function comparable(
  key: string | null,
  page: PageView,
  revisions: readonly RevisionSummary[],
  texts: ReadonlyMap<number, Revision>,
  checkpointTexts: ReadonlyMap<number, Checkpoint>,
): Comparable | null {
  if (key === 'draft')
    return page.showingDraft
      ? { label: 'the draft', title: page.title, summary: page.summary, body: page.bodyMarkdown }
      : null;
  const checkpointId = checkpointIdOf(key);
  if (checkpointId !== null) {
    const checkpoint = checkpointTexts.get(checkpointId);
    return checkpoint ? { label: checkpointLabel(checkpoint), ...checkpoint } : null;
  }
  const id = revisionIdOf(key);
  const revision = id === null ? undefined : texts.get(id);
  const index = revisions.findIndex((each) => each.id === id);
  return revision && index >= 0
    ? {
        label: versionLabel(revisions.length - index, revision),
        title: revision.title,
        summary: revision.summary,
        body: revision.bodyMarkdown,
      }
    : null;
}

/** "version 3 (Nov 23, 2026, 02:50 AM)": versions count up from the first publish. */
function versionLabel(number: number, revision: RevisionSummary): ReactNode {
  return (
    <>
      version {number} (<LocalTime iso={revision.publishedAt} />)
    </>
  );
}

function VersionOptions({
  revisions,
  checkpoints,
}: {
  revisions: readonly RevisionSummary[];
  checkpoints: readonly CheckpointSummary[];
}) {
  return (
    <>
      {checkpoints.length > 0 ? (
        <optgroup label="Saves">
          {checkpoints.map((checkpoint) => (
            <TimeOption
              key={`c${checkpoint.id}`}
              value={`c${checkpoint.id}`}
              before={`${kindWords(checkpoint)} `}
              iso={checkpoint.savedAt}
            />
          ))}
        </optgroup>
      ) : null}
      <optgroup label="Publishes">
        {revisions.map((revision, index) => (
          <TimeOption
            key={revision.id}
            value={String(revision.id)}
            before={`version ${revisions.length - index} (`}
            iso={revision.publishedAt}
            after=")"
          />
        ))}
      </optgroup>
    </>
  );
}

function RestoreCheckpointForm({
  page,
  checkpoint,
}: {
  page: PageView;
  checkpoint: CheckpointSummary;
}) {
  return (
    <form action={restoreCheckpoint} className="inline-form">
      <input type="hidden" name="slug" value={page.slug} />
      <input type="hidden" name="pageId" value={page.id} />
      <input type="hidden" name="checkpointId" value={checkpoint.id} />
      <input type="hidden" name="version" value={page.version} />
      <button type="submit">Restore as draft</button>
    </form>
  );
}

/** " (12 saves since Nov 23, 2026, 10:02 AM)" for a coalesced checkpoint; nothing for one save. */
function savesWords(checkpoint: CheckpointSummary): ReactNode {
  return checkpoint.saves > 1 ? (
    <>
      {' '}
      ({checkpoint.saves} saves since <LocalTime iso={checkpoint.firstSavedAt} />)
    </>
  ) : null;
}

/** The saves list: newest first, each comparable with the one before and restorable. */
function CheckpointList({
  page,
  checkpoints,
  mayRestore,
}: {
  page: PageView;
  checkpoints: readonly CheckpointSummary[];
  mayRestore: boolean;
}) {
  const base = `${previewPath(page.slug)}?history`;
  return (
    <section aria-labelledby="saves-title">
      <h2 id="saves-title">Saves</h2>
      <p>
        {checkpoints.length === 0
          ? 'No saves kept yet.'
          : 'Every save, newest first; saves by one editor a few minutes apart are one entry.'}
      </p>
      <ol className="history-list checkpoint-list" reversed>
        {checkpoints.map((checkpoint, index) => {
          const previous = checkpoints[index + 1];
          const current = index === 0 && checkpoint.version === page.version;
          return (
            <li key={checkpoint.id}>
              <span>
                <strong>{kindWords(checkpoint)}</strong> <LocalTime iso={checkpoint.savedAt} />
                {checkpoint.savedBy ? ` by ${checkpoint.savedBy}` : ''}
                {savesWords(checkpoint)}
                {current ? ' · the draft now' : ''}
              </span>{' '}
              {previous ? (
                <a href={`${base}&from=c${previous.id}&to=c${checkpoint.id}#${FIRST_CHANGE}`}>
                  Changes
                </a>
              ) : null}{' '}
              {current || !mayRestore ? null : (
                <RestoreCheckpointForm page={page} checkpoint={checkpoint} />
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}

function RestoreForm({ page, revision }: { page: PageView; revision: RevisionSummary }) {
  return (
    <form action={restoreRevision} className="inline-form">
      <input type="hidden" name="slug" value={page.slug} />
      <input type="hidden" name="pageId" value={page.id} />
      <input type="hidden" name="revisionId" value={revision.id} />
      <input type="hidden" name="version" value={page.version} />
      <button type="submit">Restore as draft</button>
    </form>
  );
}

export function PageHistory({
  page,
  revisions,
  texts,
  checkpoints,
  checkpointTexts,
  reviews = [],
  query,
  mayRestore,
}: {
  page: PageView;
  /** Every version, newest first, without text. */
  revisions: readonly RevisionSummary[];
  /** The versions this view shows or compares (versionsAsked), with their text, by id. */
  texts: ReadonlyMap<number, Revision>;
  /** Every kept save, newest first, without text. */
  checkpoints: readonly CheckpointSummary[];
  /** The saves this view compares (checkpointsAsked), with their text, by id. */
  checkpointTexts: ReadonlyMap<number, Checkpoint>;
  /** Its review steps, oldest first (decision 0040). */
  reviews?: readonly ReviewEvent[];
  query: HistoryQuery;
  /** The reader may edit this page (page.edit, what a restore asks): Restore is offered. */
  mayRestore: boolean;
}) {
  const base = `${previewPath(page.slug)}?history`;
  const shown = query.show === null ? null : (texts.get(query.show) ?? null);
  const from = comparable(query.from, page, revisions, texts, checkpointTexts);
  const to = comparable(query.to, page, revisions, texts, checkpointTexts);
  return (
    <section className="history" aria-labelledby="history-title">
      <h1 id="history-title">History of “{page.title}”</h1>
      <p>
        {revisions.length === 0
          ? 'This page was never published.'
          : `Published ${revisions.length} ${revisions.length === 1 ? 'time' : 'times'}, newest first.`}{' '}
        <a href={previewPath(page.slug)}>Back to the page</a>
      </p>
      {from && to ? (
        <section className="history-diff" aria-label="Compared">
          <h2>
            {from.label} → {to.label}
          </h2>
          <FieldsDiff
            before={from}
            after={to}
            beforeLabel={from.label}
            afterLabel={to.label}
            firstId={FIRST_CHANGE}
          />
        </section>
      ) : query.from || query.to ? (
        <p role="alert">Those versions are not in this page’s history.</p>
      ) : null}
      {shown ? (
        <section className="history-version" aria-label="Version shown">
          <h2>
            As published <LocalTime iso={shown.publishedAt} />
            {publishedByWords(shown)}
          </h2>
          {shown.current && !page.showingDraft ? (
            <p>This is the version visitors see now.</p>
          ) : mayRestore ? (
            <RestoreForm page={page} revision={shown} />
          ) : null}
          <div className="history-frame">
            <Article page={{ ...shown, bodyHtml: rewriteLinksForPreview(shown.bodyHtml) }} />
          </div>
        </section>
      ) : null}
      {revisions.length + checkpoints.length > 1 ||
      (page.showingDraft && revisions.length + checkpoints.length > 0) ? (
        <form
          method="get"
          action={`${previewPath(page.slug)}#${FIRST_CHANGE}`}
          className="history-compare"
        >
          <input type="hidden" name="history" value="" />
          <label>
            Compare
            <select
              name="from"
              defaultValue={
                query.from ??
                (checkpoints[1]
                  ? `c${checkpoints[1].id}`
                  : String(revisions[1]?.id ?? revisions[0]?.id ?? `c${checkpoints[0]?.id}`))
              }
            >
              <VersionOptions revisions={revisions} checkpoints={checkpoints} />
            </select>
          </label>
          <label>
            with
            <select
              name="to"
              defaultValue={query.to ?? (page.showingDraft ? 'draft' : String(revisions[0]?.id))}
            >
              {page.showingDraft ? <option value="draft">the draft</option> : null}
              <VersionOptions revisions={revisions} checkpoints={checkpoints} />
            </select>
          </label>
          <button type="submit">Compare</button>
        </form>
      ) : null}
      <CheckpointList page={page} checkpoints={checkpoints} mayRestore={mayRestore} />
      <ReviewHistory events={reviews} />
      <h2>Publishes</h2>
      <ol className="history-list" reversed>
        {revisions.map((revision, index) => {
          const previous = revisions[index + 1];
          return (
            <li key={revision.id}>
              <span>
                <strong>Version {revisions.length - index}</strong>: published{' '}
                <LocalTime iso={revision.publishedAt} />
                {publishedByWords(revision)}
                {revision.current ? ' · what visitors see now' : ''}
              </span>{' '}
              <a href={`${base}&rev=${revision.id}`}>Show</a>
              {previous ? (
                <>
                  {' '}
                  <a href={`${base}&from=${previous.id}&to=${revision.id}#${FIRST_CHANGE}`}>
                    Changes
                  </a>
                </>
              ) : null}{' '}
              {/* The version visitors see, with no draft over it, is already what a restore
                  would make: nothing to offer. */}
              {(revision.current && !page.showingDraft) || !mayRestore ? null : (
                <RestoreForm page={page} revision={revision} />
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
