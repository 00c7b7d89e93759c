// Owns /preview?settings: the site's title, tagline, footer, language, colour, images and home
// page. The menus have their own screen (navigation.tsx).
import 'server-only';
import { contentStore, settingsVersion } from '../../../lib/content/content';
import { API_KEYS_SCREEN, PREVIEW_DASHBOARD, WEBHOOKS_SCREEN } from '../../../lib/http/routes';
import { SiteSettingsForm } from '../site-settings-form';
import type { ScreenProps } from './asked';

export async function SettingsScreen({ asked: { notice } }: ScreenProps) {
  const settings = await contentStore().getSiteSettings();
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
        <a href={PREVIEW_DASHBOARD}>Back to the pages</a> · <a href={API_KEYS_SCREEN}>API keys</a>{' '}
        for the content API · <a href={WEBHOOKS_SCREEN}>Webhooks</a> to tell other systems of
        changes
      </p>
      <SiteSettingsForm settings={settings} version={settingsVersion(settings)} />
    </>
  );
}
