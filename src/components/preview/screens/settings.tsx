// Owns /preview?settings: the site's title, tagline, footer and header navigation.
import 'server-only';
import { contentStore, settingsVersion } from '../../../lib/content/content';
import { HOME_SLUG, PREVIEW_DASHBOARD } from '../../../lib/http/routes';
import { SiteSettingsForm } from '../site-settings-form';
import type { ScreenProps } from './asked';

export async function SettingsScreen({ asked: { notice } }: ScreenProps) {
  const store = contentStore();
  const [settings, pages] = await Promise.all([store.getSiteSettings(), store.listAll()]);
  const published = pages.filter((page) => page.state !== 'draft-only' && page.slug !== HOME_SLUG);
  // The pages in the navigation first, in its order; then the others by title.
  const order = settings.navigation ?? [];
  const rank = (id: number) => (order.includes(id) ? order.indexOf(id) : order.length);
  published.sort((a, b) => rank(a.id) - rank(b.id) || a.title.localeCompare(b.title));
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
        published={published.map((page) => ({ id: page.id, slug: page.slug, title: page.title }))}
      />
    </>
  );
}
