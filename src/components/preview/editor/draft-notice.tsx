'use client';
// What a live editor is told when the page's text changed under them from outside the shared
// document (lib/coedit/notice.ts): who, how, when, and where the text from before it is — the
// page's history, where every written draft is kept. Without it a Discard draft by someone
// else took the words off the screen with "Saved" still showing (hostile pass, issue 30).
import type { DraftNotice } from '../../../lib/coedit/notice';
import { previewPath } from '../../../lib/http/routes';
import { LocalTime } from '../local-time';

export function DraftNoticeBox({
  notice,
  me,
  slug,
  onDismiss,
}: {
  notice: DraftNotice;
  /** This person's key (live-presence.ts liveUserOf): their own change elsewhere is "you". */
  me: string | null;
  slug: string;
  onDismiss: () => void;
}) {
  const who =
    notice.byKey !== null && notice.byKey === me
      ? 'You'
      : notice.by === null
        ? 'The folio command'
        : notice.by;
  const history = <a href={`${previewPath(slug)}?history`}>the page’s history</a>;
  return (
    <div className="notice-box" role="alert" data-notice={notice.change}>
      {notice.change === 'discarded' ? (
        <>
          {who} discarded the draft (<LocalTime iso={notice.at} />
          ):{' '}
          {notice.kept
            ? 'the text here is what visitors see, with what was being typed at that moment kept in it: check it.'
            : 'the text here is back to what visitors see.'}{' '}
          The draft as it was is kept in {history}.
        </>
      ) : notice.change === 'restored' ? (
        <>
          {who} restored an earlier version as the draft (<LocalTime iso={notice.at} />
          ):{' '}
          {notice.kept
            ? 'the text here is that version, with what was being typed at that moment kept in it: check it.'
            : 'the text here is that version now.'}{' '}
          The text from before is in {history}.
        </>
      ) : (
        <>
          {who} {notice.change === 'published' ? 'published' : 'saved'} this page outside live
          editing (<LocalTime iso={notice.at} />
          ): the text here has their changes now, and where you both changed the same lines, both
          are kept. The text from before is in {history}.
        </>
      )}{' '}
      <button type="button" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}
