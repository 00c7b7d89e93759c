// Owns /preview?settings: the site's title, tagline, footer and header navigation. The
// navigation picker offers the chosen pages and, at most PICKER_RESULTS at a time, the
// published pages a search (`&find=`) names — never every page (issue 25).
import 'server-only';
import { contentStore, settingsVersion } from '../../../lib/content/content';
import { PREVIEW_DASHBOARD } from '../../../lib/http/routes';
import { SiteSettingsForm } from '../site-settings-form';
import type { ScreenProps } from './asked';

export async function SettingsScreen({ asked: { notice, params } }: ScreenProps) {
  const store = contentStore();
  const find = (params.get('find') ?? '').slice(0, 100);
  const [settings, found] = await Promise.all([
    store.getSiteSettings(),
    store.findPublishedPages(find),
  ]);
  // The pages in the navigation first, in its order; then what the search found, by title.
  const order = settings.navigation ?? [];
  const chosen = await store.publishedByIds(order);
  chosen.sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id));
  const offered = [...chosen, ...found.filter((page) => !order.includes(page.id))];
  return (
    <>
      <title>Site settings · Folio preview</title>
      <h1>Site settings</h1>
      {notice === 'settings-saved' ? (
        <p role="status" className="notice">
          Settings saved. Visitors see them on their next page.
        </p>
      ) : null}
      <p>
        <a href={PREVIEW_DASHBOARD}>Back to the pages</a>
      </p>
      <SiteSettingsForm
        settings={settings}
        version={settingsVersion(settings)}
        published={offered}
        find={find}
      />
    </>
  );
}
