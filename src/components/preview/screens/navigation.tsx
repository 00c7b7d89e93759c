// Owns /preview?navigation (issue 27): the header's and the footer's menus — pages under their
// titles or a label, external links — in the editors' order. The page search offers at most
// PICKER_RESULTS published pages a search (`&find=`) names, never every page (issue 25).
import 'server-only';
import { contentStore, settingsVersion } from '../../../lib/content/content';
import type { MenuEntry } from '../../../lib/content/navigation-menus';
import type { MenuFormEntry } from '../../../lib/editor/forms';
import { PREVIEW_DASHBOARD } from '../../../lib/http/routes';
import { NavigationMenusForm } from '../navigation-menus-form';
import type { ScreenProps } from './asked';

export async function NavigationScreen({ asked: { notice, params } }: ScreenProps) {
  const store = contentStore();
  const find = (params.get('find') ?? '').slice(0, 100);
  const [settings, found] = await Promise.all([
    store.getSiteSettings(),
    store.findPublishedPages(find),
  ]);
  const header = settings.navigation ?? [];
  const ids = [...header, ...settings.footerMenu].flatMap((entry) =>
    entry.page === undefined ? [] : [entry.page],
  );
  const published = new Map((await store.publishedByIds(ids)).map((page) => [page.id, page]));
  const asEntry =
    (menu: MenuFormEntry['menu']) =>
    (entry: MenuEntry): MenuFormEntry => {
      if (entry.page === undefined)
        return { menu, kind: 'link', page: null, label: entry.label, url: entry.url };
      const page = published.get(entry.page);
      return {
        menu,
        kind: 'page',
        page: entry.page,
        label: entry.label ?? '',
        url: '',
        target: page ? { title: page.title, slug: page.slug } : null,
      };
    };
  return (
    <>
      <title>Menus · Folio preview</title>
      <h1>Menus</h1>
      {notice === 'menus-saved' ? (
        <p role="status" className="notice">
          Menus saved. Visitors see them on their next page.
        </p>
      ) : null}
      <p>
        <a href={PREVIEW_DASHBOARD}>Back to the pages</a> ·{' '}
        <a href="/preview?settings">Site settings</a>
      </p>
      <NavigationMenusForm
        entries={[...header.map(asEntry('header')), ...settings.footerMenu.map(asEntry('footer'))]}
        version={settingsVersion(settings)}
        find={find}
        found={found}
      />
    </>
  );
}
