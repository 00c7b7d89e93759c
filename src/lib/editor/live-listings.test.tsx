import { describe, expect, test } from 'bun:test';
import { renderToStaticMarkup } from 'react-dom/server';
import { DirectiveListingView, ListingProblem } from '../../components/article-body';
import { liveBylineOf } from '../../components/preview/editor/live-byline';
import type { PostSummary } from '../content/types';
import { previewPath } from '../http/routes';
import { listingHtml, listingProblemHtml } from './live-listings';

// The live pane writes a listing as a string (it inserts HTML); the page renders the component.
// The two must be the same HTML, or the pane is not "as visitors will see it".
const post = (over: Partial<PostSummary>): PostSummary => ({
  slug: 'a-post',
  title: 'A post',
  summary: '',
  firstPublishedAt: '2026-03-04T05:06:07.000Z',
  authors: [],
  image: null,
  ...over,
});

describe('the live pane’s listing HTML', () => {
  test('is the component’s HTML, escaping, bylines and summaries included', () => {
    const posts = [
      post({ slug: 'one', title: 'Fish & <chips> "quoted" it’s', summary: 'Sum <b>' }),
      post({
        slug: 'two',
        title: 'Two',
        authors: [
          { id: 1, slug: 'ada', name: 'Ada' },
          { id: 2, slug: 'grace', name: 'Grace <H>' },
          { id: 3, slug: 'kat', name: "Kat O'Neil" },
        ],
      }),
      post({ slug: 'three', title: 'Three', authors: [{ id: 1, slug: 'ada', name: 'Ada' }] }),
    ];
    const component = renderToStaticMarkup(
      <DirectiveListingView posts={posts} pathOf={previewPath} />,
    );
    expect(component).toContain('<ul class="directive-listing">');
    expect(listingHtml(posts, previewPath)).toBe(component);
    expect(listingHtml([], previewPath)).toBe(
      renderToStaticMarkup(<DirectiveListingView posts={[]} pathOf={previewPath} />),
    );
  });

  test('a directive’s problem reads as the saved preview’s', () => {
    const source = '{{ posts limit=99 & <x> }}';
    const problem = 'limit is a number from 1 to 20, not “99”.';
    expect(listingProblemHtml(source, problem)).toBe(
      renderToStaticMarkup(<ListingProblem source={source} problem={problem} />),
    );
  });
});

describe('the live pane’s byline and topics', () => {
  const choices = [
    { slug: 'ada', name: 'Ada Lovelace' },
    { slug: 'grace', name: 'Grace Hopper' },
  ];
  test('a post shows its checked authors in order and its typed topics, one per topic', () => {
    expect(
      liveBylineOf(
        { kind: 'post', authors: 'grace ada gone', topics: 'Café, cafe, Bread , ,' },
        choices,
      ),
    ).toEqual({
      authors: [
        { name: 'Grace Hopper', path: '/preview/grace' },
        { name: 'Ada Lovelace', path: '/preview/ada' },
      ],
      topics: [
        { name: 'Café', path: '/preview/cafe' },
        { name: 'Bread', path: '/preview/bread' },
      ],
    });
  });
  test('a page shows neither; topics the save would refuse show none', () => {
    expect(liveBylineOf({ kind: 'page', authors: 'ada', topics: 'Bread' }, choices)).toEqual({
      authors: [],
      topics: [],
    });
    expect(
      liveBylineOf({ kind: 'post', authors: '', topics: 'x'.repeat(61) }, choices).topics,
    ).toEqual([]);
  });
});
