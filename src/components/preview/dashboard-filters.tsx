'use client';
// Owns the dashboard's search, state and sort (issue 26): a GET form that works without
// JavaScript (Show), and with it filters as one types. Each change is a client navigation to
// the same GET address the form would make, so the server still does the filtering (issue 25:
// never every page in the browser), the address stays bookmarkable and Back works. Waku aborts
// a navigation still in flight when the next one starts, so a slow answer for "a" never lands
// over the list for "ab".
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useRouter } from 'waku/router/client';
import {
  dashboardSearch,
  listFilterOf,
  type PageListQuery,
  type PageListResult,
} from '../../lib/content/page-list-params';
import { dashboardPath, PREVIEW_DASHBOARD } from '../../lib/http/routes';

/** Long enough not to ask at every key of a word, short enough to follow the typing. */
const FILTER_AFTER_MS = 250;

type Filter = Pick<PageListQuery, 'q' | 'state' | 'sort'>;

export function DashboardFilters({
  filter,
  counts,
}: {
  filter: Filter;
  counts: PageListResult['counts'];
}) {
  const router = useRouter();
  const form = useRef<HTMLFormElement>(null);
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);
  // The address this form asked for last: a render for it is this form's own answer, and what
  // was typed since stays in the box.
  const asked = useRef(dashboardPath(dashboardSearch(filter)));
  // A run of typing makes one history entry: the first address is pushed, the rest replace it.
  const typing = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const go = (history: 'push' | 'replace') => {
    clearTimeout(timer.current);
    if (!form.current) return;
    const fields = new URLSearchParams();
    for (const [name, value] of new FormData(form.current))
      if (typeof value === 'string') fields.set(name, value);
    const href = dashboardPath(dashboardSearch(listFilterOf(fields)));
    asked.current = href;
    if (href === window.location.pathname + window.location.search) return;
    void router[history](href, { scroll: false });
  };

  // Back or Forward showed another list: the fields say what it is. Never while typing: what is
  // typed in the box is newer than any list.
  const fromHistory = useRef(false);
  useEffect(() => {
    const onPopState = () => {
      fromHistory.current = true;
    };
    window.addEventListener('popstate', onPopState);
    return () => window.removeEventListener('popstate', onPopState);
  }, []);
  const shown = dashboardPath(dashboardSearch(filter));
  useEffect(() => {
    const fields = form.current?.elements;
    const typingHere = document.activeElement === fields?.namedItem('q');
    if (!fields || shown === asked.current || (typingHere && !fromHistory.current)) return;
    fromHistory.current = false;
    asked.current = shown;
    typing.current = false;
    for (const [name, value] of Object.entries(filter)) {
      const field = fields.namedItem(name);
      if (field instanceof HTMLInputElement || field instanceof HTMLSelectElement)
        field.value = value;
    }
  }, [shown, filter]);

  useEffect(() => () => clearTimeout(timer.current), []);

  return (
    <form
      method="get"
      action={PREVIEW_DASHBOARD}
      className="dashboard-filters"
      ref={form}
      onSubmit={(event: FormEvent) => {
        // Enter in the search box: at once, as its own history entry.
        event.preventDefault();
        typing.current = false;
        go('push');
      }}
    >
      <label>
        Search
        <input
          type="search"
          name="q"
          defaultValue={filter.q}
          placeholder="Title, address or text"
          aria-controls="dashboard-results"
          onInput={() => {
            clearTimeout(timer.current);
            timer.current = setTimeout(() => {
              go(typing.current ? 'replace' : 'push');
              typing.current = true;
            }, FILTER_AFTER_MS);
          }}
          onBlur={() => {
            typing.current = false;
          }}
        />
      </label>
      <label>
        State
        <select
          name="state"
          defaultValue={filter.state}
          aria-controls="dashboard-results"
          onChange={() => {
            typing.current = false;
            go('push');
          }}
        >
          <option value="all">All ({counts.all})</option>
          <option value="published">Published ({counts.published})</option>
          <option value="changed">With a draft ({counts.changed})</option>
          <option value="draft-only">Draft only ({counts['draft-only']})</option>
          <option value="scheduled">Scheduled ({counts.scheduled})</option>
          <option value="review">Waiting for review ({counts.review})</option>
        </select>
      </label>
      <label>
        Sort
        <select
          name="sort"
          defaultValue={filter.sort}
          aria-controls="dashboard-results"
          onChange={() => {
            typing.current = false;
            go('push');
          }}
        >
          <option value="changed">Last change first</option>
          <option value="title">Title</option>
        </select>
      </label>
      {/* Without JavaScript the list changes when this is pressed; with it, as one types. */}
      {enhanced ? null : <button type="submit">Show</button>}
    </form>
  );
}
