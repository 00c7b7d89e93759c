// deno-fmt-ignore-file
// biome-ignore format: generated types do not need formatting
// prettier-ignore
import type { PathsForPages, GetConfigResponse, SearchCodecsForPages } from 'waku/router';

// prettier-ignore
import type { getConfig as File_Site404_getConfig } from './pages/(site)/404';
// prettier-ignore
import type { getConfig as File_SiteSlug_getConfig } from './pages/(site)/[slug]';
// prettier-ignore
import type { getConfig as File_SiteIndex_getConfig } from './pages/(site)/index';
// prettier-ignore
import type { getConfig as File_Root_getConfig } from './pages/_root';
// prettier-ignore
import type { getConfig as File_PreviewSlug_getConfig } from './pages/preview/[...slug]';
// prettier-ignore
import type { getConfig as File_PreviewIndex_getConfig } from './pages/preview/index';

// prettier-ignore
type Page =
| ({ path: '/404' } & GetConfigResponse<typeof File_Site404_getConfig>)
| ({ path: '/[slug]' } & GetConfigResponse<typeof File_SiteSlug_getConfig>)
| ({ path: '/' } & GetConfigResponse<typeof File_SiteIndex_getConfig>)
| ({ path: '/_root' } & GetConfigResponse<typeof File_Root_getConfig>)
| ({ path: '/preview/[...slug]' } & GetConfigResponse<typeof File_PreviewSlug_getConfig>)
| ({ path: '/preview' } & GetConfigResponse<typeof File_PreviewIndex_getConfig>);

// prettier-ignore
type Layout =
| { path: '/' }
| { path: '/preview' };

// prettier-ignore
declare module 'waku/router' {
  interface RouteConfig {
    paths: PathsForPages<Page>;
  }
  interface CreatePagesConfig {
    pages: Page;
    layouts: Layout;
  }
  interface SearchCodecsConfig extends SearchCodecsForPages<Page> {}
}
