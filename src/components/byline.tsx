// A post's byline: "By Ada Lovelace and Grace Hopper", each name linking to the author's page.
// One form for the post's date line, every listing and the preview.
import { Fragment } from 'react';

/** An author as a byline links them. */
export type BylineLink = { name: string; path: string };

/** "By A", "By A and B", "By A, B and C"; nothing for no authors. */
export function Byline({ authors }: { authors: readonly BylineLink[] }) {
  if (authors.length === 0) return null;
  return (
    <span className="byline">
      {'By '}
      {authors.map((author, index) => (
        <Fragment key={author.path}>
          {index === 0 ? null : index === authors.length - 1 ? ' and ' : ', '}
          <a href={author.path}>{author.name}</a>
        </Fragment>
      ))}
    </span>
  );
}
