'use client';
// Owns the header's search box (issue 27): a GET form to `/` with `q`, so it searches without
// JavaScript, and with it shows results as one types: each pause is a client navigation to the
// same `/?q=…` the form would make, the first one pushed, the rest of a run of typing replacing
// it (one history entry per search). The server ranks and renders; the browser holds nothing
// but this box. Waku aborts a navigation still in flight when the next starts, so a slow answer
// for "ga" never lands over the one for "garden".
import { type FormEvent, useEffect, useRef } from 'react';
import { useRouter } from 'waku/router/client';
import { SEARCH_TEXT_MAX, searchBoxText } from '../lib/content/public-search-query';

/** Long enough not to ask at every key, short enough to follow the typing. */
const SEARCH_AFTER_MS = 300;

/** The address a search for `text` is at: the form's own GET address. */
const searchHref = (text: string): `/?${string}` => `/?${new URLSearchParams({ q: text })}`;

export function HeaderSearch() {
  const router = useRouter();
  const input = useRef<HTMLInputElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const typing = useRef(false);
  // The search the page shows: kept in the box, unless the visitor is typing a newer one.
  const shown =
    router.path === '/' ? searchBoxText(new URLSearchParams(router.query).get('q')).text : '';
  useEffect(() => {
    const box = input.current;
    if (box && document.activeElement !== box) box.value = shown;
  }, [shown]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const go = (history: 'push' | 'replace') => {
    clearTimeout(timer.current);
    const text = input.current?.value ?? '';
    const href = searchHref(text);
    if (href === window.location.pathname + window.location.search) return;
    void router[history](href, { scroll: false });
  };

  return (
    <search aria-label="Site search" className="header-search">
      <form
        method="get"
        action="/"
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          typing.current = false;
          go('push');
        }}
      >
        <label htmlFor="header-search-q" className="visually-hidden">
          Search this site
        </label>
        <input
          ref={input}
          id="header-search-q"
          type="search"
          name="q"
          defaultValue={shown}
          placeholder="Search"
          autoComplete="off"
          maxLength={SEARCH_TEXT_MAX}
          enterKeyHint="search"
          onInput={() => {
            clearTimeout(timer.current);
            timer.current = setTimeout(() => {
              go(typing.current ? 'replace' : 'push');
              typing.current = true;
            }, SEARCH_AFTER_MS);
          }}
          onBlur={() => {
            typing.current = false;
          }}
        />
        <button type="submit">Search</button>
      </form>
    </search>
  );
}
