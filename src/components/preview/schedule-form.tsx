'use client';
import { useActionState, useEffect, useState } from 'react';
import type { Schedule } from '../../lib/content/content';
import { cancelScheduledPublish, schedulePublish } from '../../lib/editor/actions/schedules';
import type { ScheduleState } from '../../lib/editor/forms';
import { LocalTime } from './local-time';

/** `YYYY-MM-DDTHH:MM` in the browser's zone, an hour from now: what datetime-local takes. */
function anHourFromNow(): string {
  const date = new Date(Date.now() + 3_600_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The instant a datetime-local value names in the browser's zone, or '' if none. */
function instantOf(wallClock: string): string {
  const date = new Date(wallClock);
  return wallClock && !Number.isNaN(date.getTime()) ? date.toISOString() : '';
}

/**
 * "Publish at" for a page with a draft, or the pending schedule with a way to cancel it. The
 * time is typed in the editor's own zone: in the browser the form sends the instant it names
 * (`publishAtUtc`); without JavaScript the server cannot know the zone, so the screen's zone
 * (named once, in the preview bar) says UTC and the server reads it so.
 */
export function ScheduleForm({
  slug,
  pageId,
  version,
  schedule,
}: {
  slug: string;
  pageId: number;
  /** The page's version as shown: a reviewer schedules the text they read, no later one. */
  version: number;
  schedule: Schedule | null;
}) {
  const [answer, action, pending] = useActionState<ScheduleState, FormData>(schedulePublish, {});
  const state = answer ?? {};
  const [suggested, setSuggested] = useState('');
  const [instant, setInstant] = useState('');
  useEffect(() => {
    const first = state.publishAt ?? anHourFromNow();
    setSuggested(first);
    setInstant(instantOf(first));
  }, [state.publishAt]);

  const refusal = state.error ? (
    <span className="form-error" role="alert">
      {state.error}
    </span>
  ) : null;

  if (schedule)
    return (
      <form action={cancelScheduledPublish} className="inline-form schedule">
        <input type="hidden" name="slug" value={slug} />
        <input type="hidden" name="pageId" value={pageId} />
        <span>
          Will be published <LocalTime iso={schedule.publishAt} />
          {schedule.scheduledBy ? `, on behalf of ${schedule.scheduledBy}` : ''}.
        </span>{' '}
        <button type="submit">Cancel schedule</button>
        {/* A time this tab sent after another schedule was set meanwhile: why it was not used. */}
        {refusal}
      </form>
    );

  return (
    <form action={action} className="inline-form schedule">
      <input type="hidden" name="slug" value={slug} />
      <input type="hidden" name="pageId" value={pageId} />
      <input type="hidden" name="version" value={version} />
      {/* Empty without JavaScript: then the typed time is read as UTC, as the label says. */}
      <input type="hidden" name="publishAtUtc" value={instant} />
      <label>
        {/* The zone is the screen's, named once in the preview bar (UTC without JavaScript,
            where the server reads the typed time as UTC). */}
        Publish at{' '}
        <input
          type="datetime-local"
          name="publishAt"
          required
          defaultValue={state.publishAt ?? suggested}
          key={state.publishAt ?? suggested}
          onChange={(event) => setInstant(instantOf(event.currentTarget.value))}
        />
      </label>
      <button type="submit" disabled={pending}>
        Schedule
      </button>
      {refusal}
    </form>
  );
}
