'use client';
import { useEffect, useState } from 'react';
import { formatUtc } from '../../lib/content/dates';

// Made in the browser only (the server says UTC): 'Dec 1, 2026, 09:00 CET'.
let local: Intl.DateTimeFormat | undefined;
function localFormat(): Intl.DateTimeFormat {
  local ??= new Intl.DateTimeFormat(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  });
  return local;
}

/**
 * A time in the reader's own time zone. The server cannot know it, so the first render (and a
 * page without JavaScript) says the time in UTC; once in the browser it says the local time.
 */
export function LocalTime({ iso }: { iso: string }) {
  const [local, setLocal] = useState<string | null>(null);
  useEffect(() => {
    const date = new Date(iso);
    setLocal(Number.isNaN(date.getTime()) ? null : localFormat().format(date));
  }, [iso]);
  return <time dateTime={iso}>{local ?? formatUtc(iso)}</time>;
}
