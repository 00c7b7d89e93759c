'use client';
import { useEffect, useState } from 'react';
import { formatUtc } from '../../lib/content/dates';

// One time zone on every editor screen (issue 26): the editor's own, named once, in the
// preview bar (TimeZoneName), and every time on the screen in it (LocalTime), without a zone
// beside each. The server cannot know the zone: the first render, and a page without
// JavaScript, say UTC — the times and the name alike, so they never disagree.

// Made in the browser only: 'Dec 1, 2026, 09:00'.
let local: Intl.DateTimeFormat | undefined;
function localFormat(): Intl.DateTimeFormat {
  local ??= new Intl.DateTimeFormat(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
  return local;
}

/** The browser's time zone, or null on the server (and before hydration). */
function useZone(): string | null {
  const [zone, setZone] = useState<string | null>(null);
  useEffect(() => setZone(Intl.DateTimeFormat().resolvedOptions().timeZone ?? null), []);
  return zone;
}

/** The screen's time zone in words: the browser's, or UTC when the server had to choose. */
export function TimeZoneName() {
  return <>{useZone() ?? 'UTC'}</>;
}

/** `iso` in the browser's zone, or null on the server, before hydration and for junk. */
function useLocalText(iso: string): string | null {
  const [shown, setShown] = useState<string | null>(null);
  useEffect(() => {
    const date = new Date(iso);
    setShown(Number.isNaN(date.getTime()) ? null : localFormat().format(date));
  }, [iso]);
  return shown;
}

/** A time in the editor's zone (named once on the screen, by TimeZoneName). */
export function LocalTime({ iso }: { iso: string }) {
  const shown = useLocalText(iso);
  return <time dateTime={iso}>{shown ?? formatUtc(iso, { zone: false })}</time>;
}

/**
 * An <option> whose label holds a time (History's Compare lists). An option holds text only, so
 * no <time> inside: its label says the time as LocalTime does once the page runs, and until
 * then (and without JavaScript) in UTC, saying "UTC" — a drop-down shows one option at a time,
 * away from the zone named on the screen.
 */
export function TimeOption({
  value,
  before,
  iso,
  after = '',
}: {
  value: string;
  before: string;
  iso: string;
  after?: string;
}) {
  const shown = useLocalText(iso);
  return <option value={value}>{`${before}${shown ?? formatUtc(iso)}${after}`}</option>;
}
