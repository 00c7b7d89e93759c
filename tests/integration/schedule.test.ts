// Scheduled publishing against servers started as the README starts them: a page goes public
// on time and once, with two instances and the CLI all asking at once; anything that fell due
// while no server ran is out when one starts; the editor's form (without JavaScript) refuses
// what it should with the typed time kept; the history says the schedule published it.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createContentStore } from '../../src/lib/content/content';
import { addEditor } from '../../src/lib/editors/accounts';
import { createThrowAwayDatabase, TEST_ENGINE, type ThrowAwayDatabase } from '../databases';
import { formWithButton, signInWithForm, submitForm } from '../forms';
import {
  type RunningFolio,
  runFolioCli,
  startFolio,
  startTwoFolios,
  waitFor,
  withStore,
} from '../harness';

const EDITOR = { email: 'timer@example.com', password: 'the timer passphrase' };
const CHECK_SECONDS = '0.2';

let database: ThrowAwayDatabase;
let a: RunningFolio;
let b: RunningFolio;
let cookie = '';

beforeAll(async () => {
  database = await createThrowAwayDatabase();
  [a, b] = await startTwoFolios(database, { env: { SCHEDULE_CHECK_SECONDS: CHECK_SECONDS } });
  await addEditor(await a.database(), EDITOR.email, EDITOR.password);
  cookie = (await signInWithForm(a.url, EDITOR.email, EDITOR.password)).cookie;
}, 90_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await database?.drop();
});

const status = async (instance: RunningFolio, pathname: string) => {
  const response = await fetch(`${instance.url}${pathname}`);
  await response.arrayBuffer();
  return response.status;
};

const scheduledLines = (instance: RunningFolio, slug: string) =>
  instance.logLines().filter((line) => line.msg === 'published by schedule' && line.slug === slug);

describe(`scheduled publishing on ${TEST_ENGINE}`, () => {
  test('goes public on time and once, with two instances and the CLI asking at once', async () => {
    const slugs = ['timed-one', 'timed-two', 'timed-three'];
    const due = new Date(Date.now() + 2_000);
    await withStore(a, async (store) => {
      for (const slug of slugs) {
        await store.putPage({ slug, title: slug, summary: '', body: `TIMED-TEXT ${slug}` });
        await store.schedulePublish(slug, due, { editor: EDITOR.email });
      }
    });
    for (const instance of [a, b]) expect(await status(instance, '/timed-one')).toBe(404);

    // The CLI asks too, over and over, until well after the time. Each run is a check, timed
    // from the test's side: what the first check begun after the due time left public says
    // whether the pages were late by more than one check, however slow the machine.
    const cliOutputs: string[] = [];
    let publicAfterFirstLateCheck: string[] | undefined;
    const racing = (async () => {
      while (Date.now() < due.getTime() + 1_500 || publicAfterFirstLateCheck === undefined) {
        const begun = Date.now();
        const run = await runFolioCli(['page', 'publish-due'], { databaseUrl: database.url });
        expect(run.stderr).toBe('');
        cliOutputs.push(run.stdout);
        if (begun > due.getTime() && publicAfterFirstLateCheck === undefined) {
          const store = createContentStore(await a.database());
          publicAfterFirstLateCheck = [];
          for (const slug of slugs)
            if (await store.getPage(slug, { draft: false })) publicAfterFirstLateCheck.push(slug);
        }
      }
    })();

    const seenAt = new Map<string, number>();
    await waitFor(
      async () => {
        for (const slug of slugs)
          if (!seenAt.has(slug) && (await status(a, `/${slug}`)) === 200)
            seenAt.set(slug, Date.now());
        return seenAt.size === slugs.length ? true : undefined;
      },
      { timeoutMs: 15_000, what: 'the scheduled pages to be public' },
    );
    await racing;
    for (const slug of slugs) {
      expect(await status(b, `/${slug}`)).toBe(200);
      const late = (seenAt.get(slug) ?? 0) - due.getTime();
      // Never early.
      expect(late).toBeGreaterThanOrEqual(0);
    }
    // Late by at most one check: the first one begun after the due time found them all public
    // (published by it or by an instance), on a quiet machine or a busy one.
    expect(publicAfterFirstLateCheck).toEqual(slugs);

    // Once: one revision each, made by the schedule on the editor's behalf, and one process
    // (A, B or a CLI run) that says it published it.
    const db = await a.database();
    for (const slug of slugs) {
      const revisions = await db.query<{ published_by: string; published_via: string }>`
        SELECT r.published_by, r.published_via FROM revisions r JOIN pages p ON p.id = r.page_id
        WHERE p.slug = ${slug}`;
      expect(revisions).toEqual([{ published_by: EDITOR.email, published_via: 'schedule' }]);
      const byCli = cliOutputs.filter((out) => out.includes(`${slug}: published`)).length;
      expect(scheduledLines(a, slug).length + scheduledLines(b, slug).length + byCli).toBe(1);
    }
    console.log(
      'scheduled publish lateness (ms):',
      Object.fromEntries(slugs.map((slug) => [slug, (seenAt.get(slug) ?? 0) - due.getTime()])),
    );
    for (const instance of [a, b]) expect(instance.unexpectedErrors()).toEqual([]);
  }, 30_000);

  test('the history says the schedule published it, on whose behalf', async () => {
    const html = await (
      await fetch(`${b.url}/preview/timed-one?history`, { headers: { cookie } })
    ).text();
    expect(html).toContain(`by schedule, on behalf of ${EDITOR.email}`);
  });
});

describe('the editor’s schedule form, without JavaScript', () => {
  const openForm = async (slug: string) => {
    const page = await fetch(`${a.url}/preview/${slug}`, { headers: { cookie } });
    return formWithButton(await page.text(), 'Schedule');
  };
  const post = async (slug: string, set: Record<string, string>, withCookie = cookie) => {
    const form = await openForm(slug);
    return submitForm(`${a.url}/preview/${slug}`, form, {
      cookie: withCookie,
      set,
      button: 'Schedule',
    });
  };

  beforeAll(async () => {
    await withStore(a, (store) =>
      store.putPage({ slug: 'form-timed', title: 'Form timed', summary: '', body: 'SOON' }),
    );
  });

  test('the label says UTC, and a time ahead is scheduled and shown; cancel takes it back', async () => {
    const page = await (await fetch(`${a.url}/preview/form-timed`, { headers: { cookie } })).text();
    // Without JavaScript the screen's one time zone is UTC, named once in the preview bar.
    expect(page).toContain('Times in <!-- -->UTC');
    expect(page).toContain('Publish at');
    expect(page).not.toContain('(UTC)');
    const response = await post('form-timed', { publishAt: '2031-01-02T03:04' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/preview/form-timed?notice=scheduled');
    const after = await (
      await fetch(`${a.url}/preview/form-timed`, { headers: { cookie } })
    ).text();
    expect(after).toContain('Will be published <time dateTime="2031-01-02T03:04:00.000Z">');
    expect(after).toContain('1/2/2031, 3:04:00 AM</time>');
    // Visitors learn nothing of it.
    expect(await status(a, '/form-timed')).toBe(404);
    const dashboard = await (
      await fetch(`${a.url}/preview?state=scheduled`, { headers: { cookie } })
    ).text();
    expect(dashboard).toContain('/preview/form-timed');
    expect(dashboard).toContain('To be published');

    const cancel = await submitForm(
      `${a.url}/preview/form-timed`,
      await formWithButton(after, 'Cancel schedule'),
      { cookie },
    );
    expect(cancel.status).toBe(303);
    expect(cancel.headers.get('location')).toBe('/preview/form-timed?notice=unscheduled');
    expect(await withStore(a, (store) => store.listAll())).toContainEqual(
      expect.objectContaining({ slug: 'form-timed', publishAt: null }),
    );
  });

  test('a time in the past, an unreadable time, no session, a deleted page: refused, nothing scheduled', async () => {
    const past = await post('form-timed', { publishAt: '2020-01-01T10:00' });
    expect(past.status).toBe(422);
    const pastHtml = await past.text();
    expect(pastHtml).toContain('That time has passed: choose a time in the future.');
    expect(pastHtml).toContain('value="2020-01-01T10:00"');

    const garbled = await post('form-timed', { publishAt: 'next tuesday', publishAtUtc: '' });
    expect(garbled.status).toBe(422);
    expect(await garbled.text()).toContain('is not a date and time Folio can read');

    const signedOut = await post('form-timed', { publishAt: '2031-01-02T03:04' }, '');
    expect(signedOut.status).toBe(401);
    // The page asks them to sign in, and brings them back to it after.
    expect(await signedOut.text()).toContain('Sign in · Folio preview');

    const form = await openForm('form-timed');
    await withStore(a, (store) => store.discardDraft('form-timed'));
    const gone = await submitForm(`${a.url}/preview/form-timed`, form, {
      cookie,
      set: { publishAt: '2031-01-02T03:04' },
      button: 'Schedule',
    });
    // The page is gone: its address answers 404 in preview too, and nothing is scheduled.
    expect(gone.status).toBe(404);
    await gone.arrayBuffer();
    expect(
      (await withStore(a, (store) => store.listAll())).filter((page) => page.publishAt),
    ).toEqual([]);
    for (const instance of [a, b]) expect(instance.unexpectedErrors()).toEqual([]);
  });
});

describe('a schedule never outlives the draft it was for (hostile pass)', () => {
  const scheduledSlugs = async () =>
    (await withStore(a, (store) => store.listAll()))
      .filter((page) => page.publishAt !== null)
      .map((page) => page.slug);

  test('unpublishing takes the schedule down too: the page does not come back by itself', async () => {
    const slug = 'taken-down';
    const due = new Date(Date.now() + 800);
    await withStore(a, async (store) => {
      await store.putPage({ slug, title: slug, summary: '', body: 'OUT' }, { publish: true });
      await store.putPage({ slug, title: slug, summary: '', body: 'NEWER' });
      await store.schedulePublish(slug, due, { editor: EDITOR.email });
      await store.unpublish(slug, { editor: EDITOR.email });
    });
    expect(await scheduledSlugs()).not.toContain(slug);
    // Past the time it had been due, a check (the CLI's, as the instances' do) publishes nothing.
    await Bun.sleep(Math.max(0, due.getTime() - Date.now() + 1));
    const check = await runFolioCli(['page', 'publish-due'], { databaseUrl: database.url });
    expect(check.stdout).not.toContain(slug);
    for (const instance of [a, b]) expect(await status(instance, `/${slug}`)).toBe(404);
  });

  test('saving the draft back to the published text ends the schedule', async () => {
    const slug = 'back-to-published';
    await withStore(a, async (store) => {
      await store.putPage({ slug, title: slug, summary: '', body: 'SAME' }, { publish: true });
      await store.putPage({ slug, title: slug, summary: '', body: 'DIFFERENT' });
      await store.schedulePublish(slug, new Date(Date.now() + 60_000), { editor: EDITOR.email });
      await store.putPage({ slug, title: slug, summary: '', body: 'SAME' });
    });
    expect(await scheduledSlugs()).not.toContain(slug);
  });

  // Issue 14's hostile pass: a stale tab scheduling a page another tab (or editor) had
  // scheduled meanwhile replaced that schedule silently.
  test('a stale tab does not replace a schedule set meanwhile: it says so, and the first stands', async () => {
    const slug = 'stale-schedule';
    await withStore(a, async (store) => {
      await store.putPage({ slug, title: slug, summary: '', body: 'ONE' }, { publish: true });
      await store.putPage({ slug, title: slug, summary: '', body: 'TWO' });
    });
    const staleTab = await (
      await fetch(`${a.url}/preview/${slug}`, { headers: { cookie } })
    ).text();
    const first = new Date('2027-12-24T10:00:00.000Z');
    await withStore(a, (store) =>
      store.schedulePublish(slug, first, { editor: 'other@example.com' }),
    );
    const late = await submitForm(
      `${a.url}/preview/${slug}`,
      await formWithButton(staleTab, 'Schedule'),
      { cookie, set: { publishAt: '2027-12-25T18:30' }, button: 'Schedule' },
    );
    expect(late.status).toBe(409);
    const page = await late.text();
    expect(page).toContain('This page was scheduled meanwhile by other@example.com');
    // The time this tab asked for is on the page: the form it was typed into is not.
    expect(page).toContain('You asked for 2027-12-25 18:30 UTC; it was not set.');
    // The page shows the schedule that stands.
    expect(page).toContain('Will be published <time dateTime="2027-12-24T10:00:00.000Z">');
    expect(await withStore(a, (store) => store.listAll())).toContainEqual(
      expect.objectContaining({ slug, publishAt: first.toISOString() }),
    );
  });

  test('Cancel from a stale tab says there was nothing to cancel', async () => {
    const slug = 'stale-cancel';
    const cancel = await cancelAfterDiscard(slug, { published: true });
    expect(cancel.status).toBe(303);
    expect(cancel.headers.get('location')).toBe(`/preview/${slug}?notice=not-scheduled`);
  });
});

/**
 * Schedules `slug`'s draft (over a published version when `published`), opens its preview as
 * a tab would, discards the draft behind the tab's back, and presses the tab's Cancel schedule.
 */
async function cancelAfterDiscard(slug: string, { published }: { published: boolean }) {
  await withStore(a, async (store) => {
    if (published)
      await store.putPage({ slug, title: slug, summary: '', body: 'ONE' }, { publish: true });
    await store.putPage({ slug, title: slug, summary: '', body: 'TWO' });
    await store.schedulePublish(slug, new Date(Date.now() + 60_000), { editor: EDITOR.email });
  });
  const tab = await (await fetch(`${a.url}/preview/${slug}`, { headers: { cookie } })).text();
  await withStore(a, (store) => store.discardDraft(slug));
  return submitForm(`${a.url}/preview/${slug}`, await formWithButton(tab, 'Cancel schedule'), {
    cookie,
  });
}

/**
 * Schedules `slug`'s draft a moment ahead on behalf of the editor, then saves a draft naming an
 * image the library never had (`/media/<typo>`), and waits for the servers to miss it: the
 * time it was due.
 */
async function missSchedule(slug: string, typo: string): Promise<string> {
  await withStore(a, async (store) => {
    await store.putPage({ slug, title: 'Missed', summary: '', body: 'MISSED-TEXT' });
    await store.schedulePublish(slug, new Date(Date.now() + 600), { editor: EDITOR.email });
    await store.putPage({ slug, title: 'Missed', summary: '', body: `![x](/media/${typo})` });
  });
  return waitFor(
    async () =>
      (await withStore(a, (store) => store.listAll())).find((page) => page.slug === slug)
        ?.missedPublishAt ?? undefined,
    { timeoutMs: 10_000, what: `${slug}'s schedule to be missed` },
  );
}

describe(`a schedule that could not publish, on ${TEST_ENGINE}`, () => {
  test('the banner and the dashboard say what was missed and why, until dismissed', async () => {
    const slug = 'missed-timed';
    const typo = 'c'.repeat(32);
    await missSchedule(slug, typo);
    // Said in the log too, by whichever instance claimed it (a moment after its commit).
    await waitFor(
      () =>
        [a, b].some((instance) =>
          instance
            .logLines()
            .some((line) => line.msg === 'scheduled publish refused' && line.slug === slug),
        ) || undefined,
      { what: 'the refused schedule to be logged' },
    );
    expect(await status(a, `/${slug}`)).toBe(404);

    const preview = await (await fetch(`${a.url}/preview/${slug}`, { headers: { cookie } })).text();
    expect(preview).toContain('The publish scheduled for ');
    expect(preview).toContain(`on behalf of ${EDITOR.email}`);
    expect(preview).toContain(' did not happen.');
    expect(preview).toContain(`/media/${typo}`);
    const dashboard = await (await fetch(`${a.url}/preview`, { headers: { cookie } })).text();
    expect(dashboard).toContain('Not published as scheduled for');

    // Nobody signed in: sent to sign in, nothing dismissed.
    const anonymous = await submitForm(
      `${a.url}/preview/${slug}`,
      await formWithButton(preview, 'Dismiss'),
    );
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get('location')).toBe('/preview?notice=signed-out');
    expect(
      await (await fetch(`${a.url}/preview/${slug}`, { headers: { cookie } })).text(),
    ).toContain(' did not happen.');

    // Without JavaScript: the form posts back to the page, which then says nothing of it.
    const dismiss = await submitForm(
      `${a.url}/preview/${slug}`,
      await formWithButton(preview, 'Dismiss'),
      { cookie },
    );
    expect(dismiss.status).toBe(303);
    expect(dismiss.headers.get('location')).toBe(`/preview/${slug}?notice=missed-dismissed`);
    const after = await (
      await fetch(`${a.url}/preview/${slug}?notice=missed-dismissed`, { headers: { cookie } })
    ).text();
    expect(after).toContain('Notice dismissed. Nothing was published; the draft is as it was.');
    expect(after).not.toContain(' did not happen.');
    expect(await status(a, `/${slug}`)).toBe(404);
    // Another tab's Dismiss, after: it says there was nothing left to dismiss.
    const again = await submitForm(
      `${a.url}/preview/${slug}`,
      await formWithButton(preview, 'Dismiss'),
      { cookie },
    );
    expect(again.headers.get('location')).toBe(`/preview/${slug}?notice=missed-gone`);
    expect(
      await (
        await fetch(`${a.url}/preview/${slug}?notice=missed-gone`, { headers: { cookie } })
      ).text(),
    ).toContain('There was nothing to dismiss');
    for (const instance of [a, b]) expect(instance.unexpectedErrors()).toEqual([]);
  });
});

describe(`a stale tab's command for a page deleted meanwhile, on ${TEST_ENGINE} (hostile pass)`, () => {
  test('goes to the dashboard, which says the page was deleted, not to a bare 404', async () => {
    // A draft-only page's discard deletes it.
    const cancel = await cancelAfterDiscard('deleted-meanwhile', { published: false });
    expect(cancel.status).toBe(303);
    expect(cancel.headers.get('location')).toBe('/preview?notice=gone');
    const dashboard = await (
      await fetch(`${a.url}/preview?notice=gone`, { headers: { cookie } })
    ).text();
    expect(dashboard).toContain('Nothing changed: that page was deleted meanwhile.');
  });
});

describe(`a stale tab's Dismiss, on ${TEST_ENGINE} (hostile pass)`, () => {
  test('leaves a notice of a later miss in place, unread, and says so', async () => {
    const slug = 'missed-twice';
    const typo = 'b'.repeat(32);
    const miss = () => missSchedule(slug, typo);
    const first = await miss();
    const tab = await (await fetch(`${a.url}/preview/${slug}`, { headers: { cookie } })).text();
    const second = await miss();
    expect(second).not.toBe(first);
    const stale = await submitForm(
      `${a.url}/preview/${slug}`,
      await formWithButton(tab, 'Dismiss'),
      {
        cookie,
      },
    );
    expect(stale.status).toBe(303);
    expect(stale.headers.get('location')).toBe(`/preview/${slug}?notice=missed-newer`);
    const now = await (
      await fetch(`${a.url}/preview/${slug}?notice=missed-newer`, { headers: { cookie } })
    ).text();
    expect(now).toContain('Not dismissed: another scheduled publish did not happen');
    expect(now).toContain(`dateTime="${second}"`);
    expect(now).toContain(' did not happen.');
  });
});

describe('a server that was not running', () => {
  test('publishes what fell due meanwhile before it serves its first request', async () => {
    const own = await createThrowAwayDatabase();
    try {
      // A long interval: only the check at start can publish it.
      const first = await startFolio({
        database: own,
        keepDatabase: true,
        env: { SCHEDULE_CHECK_SECONDS: '60' },
      });
      const due = new Date(Date.now() + 1_000);
      await withStore(first, async (store) => {
        await store.putPage({ slug: 'while-down', title: 'While down', summary: '', body: 'X' });
        await store.schedulePublish('while-down', due, { editor: EDITOR.email });
      });
      await first.stop();
      await Bun.sleep(due.getTime() - Date.now() + 100);
      const second = await startFolio({
        database: own,
        keepDatabase: true,
        env: { SCHEDULE_CHECK_SECONDS: '60' },
      });
      try {
        expect(await status(second, '/while-down')).toBe(200);
        expect(scheduledLines(second, 'while-down')).toHaveLength(1);
      } finally {
        await second.stop();
      }
    } finally {
      await own.drop();
    }
  }, 60_000);
});
