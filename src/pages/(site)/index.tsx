import { Article } from '../../components/article';
import { PageMeta } from '../../components/page-meta';
import { contentStore } from '../../lib/content';
import { HOME_SLUG } from '../../lib/slug';

export default async function HomePage() {
  const page = contentStore().getPage(HOME_SLUG, { draft: false });
  if (!page) {
    return (
      <>
        <PageMeta title="Welcome" description="Nothing has been published yet." path="/" />
        <p>Nothing has been published yet.</p>
      </>
    );
  }
  return (
    <>
      <PageMeta title={page.title} description={page.summary} path="/" />
      <Article page={page} />
    </>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
