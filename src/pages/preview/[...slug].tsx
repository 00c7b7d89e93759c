import type { PageProps } from 'waku/router';
import { screenFor } from '../../components/preview/screens';
import { signedInEditor } from '../../lib/editor/guard';
import { markPrivate } from '../../lib/http/request-context';

// /preview is the editors' dashboard (and, with ?new, ?settings, ?media, the new-page editor,
// the site settings and the media library); /preview/<slug> mirrors /<slug> with drafts, with
// ?edit, ?history and ?confirm=… for the page's editor, history and confirmations. Signed-in
// editors only; a valid share link shows one page's draft read-only; anyone else gets the
// sign-in form (401). Which screen answers is one table: src/components/preview/screens.ts.
export default async function PreviewPage({
  slug: segments = [],
  query,
}: PageProps<'/preview/[...slug]'>) {
  markPrivate();
  const params = new URLSearchParams(query);
  const asked = {
    editor: await signedInEditor(),
    segments,
    slug: segments.length === 1 ? segments[0] : undefined,
    query,
    params,
    notice: params.get('notice'),
  };
  const Screen = await screenFor(asked);
  return <Screen asked={asked} />;
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
