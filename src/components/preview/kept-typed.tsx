// Owns handing back what an editor typed into a form posted without JavaScript when the page
// that answers is not their form (the sign-in form after their session ended, the
// second-factor gate): read-only fields to copy from, so nothing typed is lost.
import 'server-only';
import type { ReactNode } from 'react';
import { requestContext } from '../../lib/http/request-context';

export function KeptTyped({ children }: { children: ReactNode }) {
  const { request, keptText } = requestContext();
  if (request.method !== 'POST' || !keptText) return null;
  return (
    <section className="card kept-typed" aria-label="What you typed">
      <p>{children}</p>
      {keptText.map(({ name, value }) => (
        <label key={name}>
          {/* One text node: the label reads (and is found) as one word, not split by React. */}
          {`${name[0]?.toUpperCase() ?? ''}${name.slice(1)}`}
          <textarea readOnly rows={Math.min(18, value.split('\n').length + 1)} value={value} />
        </label>
      ))}
    </section>
  );
}
