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

/** Set once this page has hydrated: a time shown after that is made in the browser at once. */
let hydrated = false;

/**
 * `iso` in the browser's zone, or null on the server, before hydration and for junk. A time
 * mounted after hydration (the status line's "Saved …" comes and goes with every save) is in
 * the browser's zone from its first paint: it flickered through the server's UTC format first
 * (hostile pass: "Saved Nov 27, 2026, 08:27 PM" and "Saved 11/27/2026, 8:27:25 PM" by turns).
 */
function useLocalText(iso: string): string | null {
  const [inBrowser, setInBrowser] = useState(hydrated);
  useEffect(() => {
    hydrated = true;
    setInBrowser(true);
  }, []);
  if (!inBrowser) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : localFormat().format(date);
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
