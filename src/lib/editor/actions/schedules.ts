'use server';
// Owns the schedule actions (schedule-form.tsx, the banner): publish at a time, cancel it, and
// dismiss the notice of one that came due and did not publish.
import { unstable_redirect as redirect } from 'waku/router/server';
import { contentStore, isContentError } from '../../content/content';
import { parsePublishTime, unreadableTimeMessage } from '../../content/publish-time';
import { can } from '../../editors/permissions';
import { previewPath } from '../../http/routes';
import { editorCommand, editorForm, readForm, refuseForm } from '../action';
import {
  cancelScheduleSchema,
  dismissMissedSchema,
  type ScheduleState,
  scheduleFormSchema,
} from '../forms';
import { backToPage } from '../landing';

/**
 * "Publish at": the instant the browser computed from the editor's zone (`publishAtUtc`), or
 * without JavaScript the typed wall-clock time read as UTC (the form's label says so).
 */
export const schedulePublish = editorForm({
  read: (input) => {
    const form = readForm(scheduleFormSchema, input);
    return { ...form, at: parsePublishTime(form.publishAtUtc || form.publishAt) };
  },
  check: ({ at, publishAt }): ScheduleState | undefined => {
    if (at) return undefined;
    refuseForm(422);
    return { error: unreadableTimeMessage(), publishAt };
  },
  refused: ({ publishAt }, { message }): ScheduleState => ({ error: message, publishAt }),
  may: ({ slug, pageId }) => [{ action: 'page.schedule', page: pageId ?? slug }],
  run: async ({ slug, pageId, version, at }, editor): Promise<ScheduleState> => {
    if (!at) return {};
    try {
      await contentStore().schedulePublish(slug, at, {
        editor: editor.editor.email,
        pageId: pageId ?? -1,
        // As Publish: a form without the version it showed schedules nothing.
        version: version ?? -1,
        onlyIfUnscheduled: true,
        keepsRedirects: !can(editor.editor, 'redirect.edit'),
      });
    } catch (error) {
      // The draft changed since this tab showed it (a writer saved after a reviewer opened
      // it): refused in Publish's words, on the page as it is now, where the reviewer reads
      // the new text before choosing again.
      if (isContentError(error) && error.code === 'conflict')
        redirect(`${previewPath(slug)}?notice=stale`, 303);
      throw error;
    }
    redirect(`${previewPath(slug)}?notice=scheduled`, 303);
  },
  rejected: ({ publishAt, at }, error): ScheduleState => {
    const invalid = error.code === 'invalid' || error.code === 'missing-media';
    refuseForm(invalid ? 422 : error.code === 'redirect-source' ? 403 : 409);
    // Refused because of a schedule that stands (set meanwhile): the page shows that one, not
    // the form, so the time this editor asked for is said in the message or it is lost.
    const asked =
      !invalid && at
        ? ` You asked for ${at.toISOString().replace('T', ' ').slice(0, 16)} UTC; it was not set.`
        : '';
    return { error: `${error.message}${asked}`, publishAt };
  },
});

export const cancelScheduledPublish = editorCommand({
  read: (input) => readForm(cancelScheduleSchema, input),
  may: ({ slug, pageId }) => [{ action: 'page.schedule', page: pageId ?? slug }],
  run: async ({ slug, pageId }) => {
    const cancelled = await contentStore().cancelSchedule(slug, { pageId: pageId ?? -1 });
    // A stale tab: it was published, discarded, taken down or cancelled meanwhile.
    return cancelled ? 'unscheduled' : 'not-scheduled';
  },
  land: async ({ slug }, notice) => backToPage(slug, notice),
});

/**
 * Dismisses the notice of a schedule that came due and did not publish: the one the form was
 * shown with (`missedAt`), never a newer one the editor has not read (hostile pass).
 */
export const dismissMissedSchedule = editorCommand({
  read: (input) => readForm(dismissMissedSchema, input),
  may: ({ slug, pageId }) => [{ action: 'page.schedule', page: pageId ?? slug }],
  run: async ({ slug, pageId, missedAt }) => {
    const outcome = await contentStore().dismissMissedSchedule(slug, {
      pageId: pageId ?? -1,
      missedAt,
    });
    return { dismissed: 'missed-dismissed', newer: 'missed-newer', nothing: 'missed-gone' }[
      outcome
    ];
  },
  land: async ({ slug }, notice) => backToPage(slug, notice),
});
