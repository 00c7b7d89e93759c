'use client';
import { type KeyboardEvent, useActionState, useRef } from 'react';
import type { NavigationLink, SiteSettings } from '../../lib/content/content';
import { FOOTER_MAX, SITE_TITLE_MAX, TAGLINE_MAX } from '../../lib/content/field-limits';
import { saveSiteSettings } from '../../lib/editor/actions/settings';
import type { SettingsFormState } from '../../lib/editor/forms';

type Choice = NavigationLink & { id: number };

/**
 * The site's name, tagline, footer, language, accent colour, default social image and header
 * navigation (which pages, in what order).
 */
export function SiteSettingsForm({
  settings,
  version,
  published,
  find,
}: {
  settings: SiteSettings;
  /** settingsVersion(settings): a save from this form is refused once another tab has saved. */
  version: string;
  /** The published pages in the navigation, in its order, then those the search found. */
  published: readonly Choice[];
  /** The navigation picker's search (`?settings&find=`), as typed. */
  find: string;
}) {
  const [answer, action, pending] = useActionState<SettingsFormState, FormData>(
    saveSiteSettings,
    {},
  );
  // An action that succeeded redirects, and React then leaves undefined as the state.
  const state = answer ?? {};
  const values = state.values;
  const current = state.current;
  const picker = state.picker;
  const chosen = new Set(values ? values.navigation.map(Number) : (settings.navigation ?? []));
  const offered = picker?.offered ?? published;
  const mode = values?.mode ?? (settings.navigation === null ? 'all' : 'chosen');
  const save = useRef<HTMLButtonElement>(null);
  // The picker's Search is the form's first button, so Enter in a field would search (harmless,
  // and what happens without JavaScript); with it, Enter outside the search box saves, as it
  // did before the search joined this form.
  const enterSaves = (event: KeyboardEvent<HTMLFormElement>) => {
    const field = event.target as HTMLElement;
    if (
      event.key === 'Enter' &&
      field instanceof HTMLInputElement &&
      (field.type === 'text' || field.type === 'number') &&
      save.current
    ) {
      event.preventDefault();
      event.currentTarget.requestSubmit(save.current);
    }
  };
  return (
    <form action={action} className="settings-form" onKeyDown={enterSaves}>
      {state.message ? (
        <p role="alert" className="form-error">
          {state.message}
        </p>
      ) : null}
      {current ? (
        // What the other tab saved, beside the typed values kept below: saving again keeps
        // what is typed over it.
        <div className="settings-current">
          <p>Saved now (your typed values are kept below; save again to use them):</p>
          <dl>
            <dt>Site title</dt>
            <dd>{current.title}</dd>
            <dt>Tagline</dt>
            <dd>{current.tagline || '(none)'}</dd>
            <dt>Footer text</dt>
            <dd>{current.footer || '(none)'}</dd>
          </dl>
        </div>
      ) : null}
      <input
        type="hidden"
        name="settings_version"
        value={current?.version ?? picker?.version ?? version}
      />
      <label>
        Site title
        <input
          name="title"
          defaultValue={values?.title ?? settings.title}
          required
          maxLength={SITE_TITLE_MAX}
        />
      </label>
      <label>
        Tagline
        <input
          name="tagline"
          defaultValue={values?.tagline ?? settings.tagline}
          maxLength={TAGLINE_MAX}
        />
        <span className="hint">Beside the title in the header; leave empty for none.</span>
      </label>
      <label>
        Footer text
        <input
          name="footer"
          defaultValue={values?.footer ?? settings.footer}
          maxLength={FOOTER_MAX}
        />
      </label>
      <label>
        Language
        <input
          name="language"
          defaultValue={values?.language ?? settings.language}
          maxLength={35}
          spellCheck={false}
          autoCapitalize="off"
        />
        <span className="hint">
          A language tag such as en, en-GB, fr or pt-BR: for browsers, screen readers and share
          cards.
        </span>
      </label>
      <label>
        Accent colour
        <input
          name="accent"
          defaultValue={values?.accent ?? settings.accent}
          maxLength={7}
          pattern="#[0-9a-fA-F]{6}"
          spellCheck={false}
          autoCapitalize="off"
        />
        <span className="hint">
          # and six hexadecimal digits, such as #1f5fbf: links, and the card drawn for a shared
          page.
        </span>
      </label>
      <label>
        Default social image
        <input
          name="social_image"
          defaultValue={
            values?.socialImage ?? (settings.socialImage ? `/media/${settings.socialImage}` : '')
          }
          maxLength={200}
          spellCheck={false}
          autoCapitalize="off"
          placeholder="/media/…"
        />
        <span className="hint">
          An image's address from the media library, shown where a page without an image of its own
          is shared; leave empty to draw a card from the page's title.
        </span>
      </label>
      <label>
        Tab icon
        <input
          name="favicon"
          defaultValue={values?.favicon ?? (settings.favicon ? `/media/${settings.favicon}` : '')}
          maxLength={200}
          spellCheck={false}
          autoCapitalize="off"
          placeholder="/media/…"
        />
        <span className="hint">
          A small square image's address from the media library, shown in browsers' tabs and
          bookmarks; leave empty for Folio's own.
        </span>
      </label>
      <fieldset>
        <legend>Home page shows</legend>
        <label className="inline-choice">
          <input
            type="radio"
            name="homeShows"
            value="page"
            defaultChecked={(values?.homeShows ?? settings.homeShows) !== 'posts'}
          />{' '}
          Its own text
        </label>
        <label className="inline-choice">
          <input
            type="radio"
            name="homeShows"
            value="posts"
            defaultChecked={(values?.homeShows ?? settings.homeShows) === 'posts'}
          />{' '}
          Latest posts, with its text as an introduction
        </label>
      </fieldset>
      <fieldset>
        <legend>Header navigation</legend>
        <label className="inline-choice">
          <input type="radio" name="navigation-mode" value="all" defaultChecked={mode === 'all'} />{' '}
          None: the site's name links to the home page
        </label>
        <label className="inline-choice">
          <input
            type="radio"
            name="navigation-mode"
            value="chosen"
            defaultChecked={mode !== 'all'}
          />{' '}
          These pages, in this order:
        </label>
        {/* The search submits this form (nothing is saved): the server answers with the
            form as typed and what it found, with or without JavaScript. */}
        <label className="navigation-find">
          Find published pages{' '}
          <input
            type="search"
            name="find"
            defaultValue={picker?.find ?? find}
            placeholder="Title, address or text"
          />
        </label>{' '}
        <button type="submit" name="intent" value="find" formNoValidate disabled={pending}>
          Search
        </button>
        <span className="hint">What you have typed above stays as it is; nothing is saved.</span>
        <ol className="navigation-choices">
          {offered.map((page, index) => (
            <li key={page.id}>
              <label className="inline-choice">
                <input
                  type="checkbox"
                  name="navigation"
                  value={page.id}
                  defaultChecked={chosen.has(page.id)}
                />{' '}
                {page.title} <code>/{page.slug}</code>
              </label>{' '}
              <label className="inline-choice">
                position{' '}
                <input
                  type="number"
                  name={`position-${page.id}`}
                  defaultValue={values?.positions?.[String(page.id)] || index + 1}
                  min={1}
                  max={99}
                  className="position"
                />
              </label>
            </li>
          ))}
        </ol>
        <span className="hint">
          Only published pages appear; a page unpublished later drops out by itself.
        </span>
      </fieldset>
      <button type="submit" className="primary" disabled={pending} ref={save}>
        {pending ? 'Saving…' : 'Save settings'}
      </button>
    </form>
  );
}
