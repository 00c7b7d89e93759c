'use client';
import { useActionState } from 'react';
import type { NavigationLink, SiteSettings } from '../../lib/content/content';
import { FOOTER_MAX, SITE_TITLE_MAX, TAGLINE_MAX } from '../../lib/content/field-limits';
import { saveSiteSettings } from '../../lib/editor/actions/settings';
import type { SettingsFormState } from '../../lib/editor/forms';

type Choice = NavigationLink & { id: number };

/** The navigation picker's search form, which the search box and its button name. */
const FIND_FORM = 'navigation-find';

/** The site's name, tagline, footer and header navigation (which pages, in what order). */
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
  const chosen = new Set(values ? values.navigation.map(Number) : (settings.navigation ?? []));
  return (
    <>
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
        <fieldset>
          <legend>Header navigation</legend>
          <label className="inline-choice">
            <input
              type="radio"
              name="navigation-mode"
              value="all"
              defaultChecked={settings.navigation === null}
            />{' '}
            None: the site's name links to the home page
          </label>
          <label className="inline-choice">
            <input
              type="radio"
              name="navigation-mode"
              value="chosen"
              defaultChecked={settings.navigation !== null}
            />{' '}
            These pages, in this order:
          </label>
          {/* The search box belongs to the GET form after this one (form="…"): a form cannot
            hold another, and a search must work without JavaScript. */}
          <label className="navigation-find">
            Find published pages{' '}
            <input
              type="search"
              name="find"
              form={FIND_FORM}
              defaultValue={find}
              placeholder="Title, address or text"
            />
          </label>{' '}
          <button type="submit" form={FIND_FORM}>
            Search
          </button>
          <span className="hint">
            Searching reloads this screen: save first what you have typed above.
          </span>
          <ol className="navigation-choices">
            {published.map((page, index) => (
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
                    defaultValue={index + 1}
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
        <button type="submit" className="primary" disabled={pending}>
          {pending ? 'Saving…' : 'Save settings'}
        </button>
      </form>
      <form id={FIND_FORM} method="get" action="/preview" hidden>
        <input type="hidden" name="settings" value="" />
      </form>
    </>
  );
}
