import { contentStore } from '../../lib/content/content';
import { setDocumentStatus } from '../../lib/http/request-context';

export default async function NotFoundPage() {
  // Also when /404 is asked for by name: it is not a page.
  setDocumentStatus(404);
  // The site's own name, as on its pages (the header above says it too).
  const { title } = await contentStore().getSiteSettings();
  return (
    <>
      <title>{`Page not found · ${title}`}</title>
      <meta name="robots" content="noindex" />
      <section className="not-found">
        <h1>Page not found</h1>
        <p>There is no page at this address. It may have been moved or unpublished.</p>
        <p>
          <a href="/">Go to the home page</a>
        </p>
      </section>
    </>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
