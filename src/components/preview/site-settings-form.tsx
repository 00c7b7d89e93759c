'use client';
import { useActionState } from 'react';
import type { SiteSettings } from '../../lib/content/content';
import { FOOTER_MAX, SITE_TITLE_MAX, TAGLINE_MAX } from '../../lib/content/field-limits';
import { saveSiteSettings } from '../../lib/editor/actions/settings';
import type { SettingsFormState } from '../../lib/editor/forms';
import { NAVIGATION_SCREEN } from '../../lib/http/routes';

/**
 * The site's name, tagline, footer, language, accent colour, default social image, tab icon
 * and what the home page shows. The menus are edited on their own screen (NAVIGATION_SCREEN).
 */
export function SiteSettingsForm({
  settings,
  version,
}: {
  settings: SiteSettings;
  /** settingsVersion(settings): a save from this form is refused once another tab has saved. */
  version: string;
}) {
  const [answer, action, pending] = useActionState<SettingsFormState, FormData>(
    saveSiteSettings,
    {},
  );
  // An action that succeeded redirects, and React then leaves undefined as the state.
  const state = answer ?? {};
  const values = state.values;
  const current = state.current;
  return (
    <form action={action} className="settings-form">
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
      <input type="hidden" name="settings_version" value={current?.version ?? version} />
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
      <p>
        The header's and the footer's menus have a screen of their own:{' '}
        <a href={NAVIGATION_SCREEN}>Menus</a>.
      </p>
      <button type="submit" className="primary" disabled={pending}>
        {pending ? 'Saving…' : 'Save settings'}
      </button>
    </form>
  );
}
