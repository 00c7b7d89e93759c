// Issue 27 in a browser: an editor writes two posts with topics in the page editor (a plain
// form, as without JavaScript), publishes them, and a visitor finds them on the home page (as
// latest posts), on the topic's page, and in the topic's feed, linked from that page. The
// editor has an author profile first: the posts start as theirs, and the visitor sees the
// byline, the author's page and the author's feed, finds a post with the header's search box,
// and the card a share shows: the `og:` tags and the generated image, its size and its title.
import { expect, test } from './fixtures';

const TOPIC = 'E2E Orchard';
const TOPIC_SLUG = 'e2e-orchard';
const AUTHOR = 'E2E Pomona';
const AUTHOR_SLUG = 'e2e-pomona';
const POSTS = [
  { slug: 'e2e-apple-blossom', title: 'E2E apple blossom', topics: `${TOPIC}, E2E Spring` },
  { slug: 'e2e-cider-pressing', title: 'E2E cider pressing', topics: TOPIC },
];

test.describe('with JavaScript off in the editor', () => {
  test.use({ javaScriptEnabled: false });

  test('two posts with topics and an author: home, topic page, author page, feeds, search and share card', async ({
    page,
    browser,
    signIn,
    store,
  }) => {
    const before = await store.getSiteSettings();
    try {
      await signIn(page);
      // The editor's public profile, made on its own screen.
      await page.goto('/preview?profile');
      await page.locator('input[name="name"]').fill(AUTHOR);
      await page.locator('input[name="slug"]').fill(AUTHOR_SLUG);
      await page.locator('textarea[name="bio"]').fill('Keeps the e2e orchard.');
      await page.locator('textarea[name="links"]').fill('https://example.com/pomona');
      await page.getByRole('button', { name: 'Save profile' }).click();
      await expect(page.getByText('Profile saved.')).toBeVisible();
      for (const post of POSTS) {
        await page.goto('/preview?new');
        await page.locator('input[name="title"]').fill(post.title);
        await page.locator('input[name="slug"]').fill(post.slug);
        await page.getByRole('radio', { name: /^Post/ }).check();
        await page.getByRole('combobox', { name: /^Topics/ }).fill(post.topics);
        // A new post by an editor with a profile is theirs.
        await expect(page.getByRole('checkbox', { name: AUTHOR })).toBeChecked();
        await page.locator('textarea[name="summary"]').fill(`${post.title} summary`);
        await page.getByLabel('Body (Markdown)').fill(`Written in the e2e orchard: ${post.title}.`);
        await page.getByRole('button', { name: 'Create draft' }).click();
        await expect(page.getByRole('combobox', { name: /^Topics/ })).toHaveValue(post.topics);
        await page.getByRole('button', { name: 'Publish', exact: true }).click();
        await expect(page.getByText(/published/i).first()).toBeVisible();
      }
      await store.saveSiteSettings({ ...(await store.getSiteSettings()), homeShows: 'posts' });

      const visitor = await (await browser.newContext()).newPage();
      await visitor.goto('/');
      const latest = visitor.getByRole('region', { name: 'Latest posts' });
      await expect(latest.getByRole('link', { name: POSTS[1]?.title })).toBeVisible();
      await expect(latest.getByRole('link', { name: POSTS[0]?.title })).toBeVisible();
      // Newest first.
      await expect(latest.locator('li h2').first()).toHaveText(POSTS[1]?.title ?? '');
      // Each entry's byline links its author's page.
      await expect(latest.locator('li').first().locator('.byline')).toHaveText(`By ${AUTHOR}`);

      await visitor.goto(`/${TOPIC_SLUG}`);
      await expect(visitor.getByRole('heading', { level: 1 })).toHaveText(TOPIC);
      const listed = visitor.getByRole('region', { name: `Posts on ${TOPIC}` });
      await expect(listed.locator('li h2')).toHaveText(POSTS.map((post) => post.title).reverse());
      await listed.getByRole('link', { name: POSTS[0]?.title }).click();
      await expect(visitor).toHaveURL(new RegExp(`/${POSTS[0]?.slug}$`));
      // The post's date line names its author, a link to their page.
      await expect(visitor.locator('article .dates .byline')).toHaveText(`By ${AUTHOR}`);
      await visitor.locator('article .dates .byline').getByRole('link', { name: AUTHOR }).click();
      await expect(visitor).toHaveURL(new RegExp(`/${AUTHOR_SLUG}$`));
      await expect(visitor.getByRole('heading', { level: 1 })).toHaveText(AUTHOR);
      await expect(visitor.getByText('Keeps the e2e orchard.')).toBeVisible();
      await expect(visitor.getByRole('link', { name: 'example.com/pomona' })).toHaveAttribute(
        'rel',
        'me noopener',
      );
      const byAuthor = visitor.getByRole('region', { name: `Posts by ${AUTHOR}` });
      await expect(byAuthor.locator('li h2')).toHaveText(POSTS.map((post) => post.title).reverse());
      const authorFeedHref = await visitor
        .locator('head link[rel="alternate"][href*="author="]')
        .getAttribute('href');
      const authorFeed = await (await visitor.request.get(authorFeedHref ?? '')).text();
      expect(authorFeed).toContain(`<title>${POSTS[0]?.title}</title>`);
      expect(authorFeed).toContain(`<author><name>${AUTHOR}</name>`);
      await visitor.goto(`/${TOPIC_SLUG}`);

      const feedLink = visitor.locator('head link[rel="alternate"][href*="topic="]');
      await expect(feedLink).toHaveAttribute('type', 'application/atom+xml');
      const href = await feedLink.getAttribute('href');
      const feed = await (await visitor.request.get(href ?? '')).text();
      expect(feed).toContain(`<title>${POSTS[0]?.title}</title>`);
      expect(feed).toContain(`<title>${POSTS[1]?.title}</title>`);
      expect(feed).toContain(`label="${TOPIC}"`);
      const whole = await (await visitor.request.get('/feed.xml')).text();
      expect(whole).toContain(POSTS[1]?.title);
      expect(whole).not.toContain('<title>About</title>');

      // Search: the header's box finds the posts by their text, the word marked in the snippet.
      const box = visitor.getByRole('searchbox', { name: 'Search this site' }).first();
      await box.fill('blossom');
      await box.press('Enter');
      await expect(visitor).toHaveURL(/\/\?q=blossom$/);
      const found = visitor.locator('main ol.search-results li');
      await expect(found.getByRole('link', { name: POSTS[0]?.title })).toBeVisible();
      await expect(found.locator('mark').first()).toHaveText(/blossom/i);
      await expect(found.getByRole('link', { name: POSTS[1]?.title })).toHaveCount(0);

      // Shared: each post (no image of its own) names a generated card, 1200×630, with its title.
      const cards: { url: string; title: string }[] = [];
      for (const post of POSTS) {
        await visitor.goto(`/${post.slug}`);
        const meta = (property: string) =>
          visitor.locator(`head meta[property="${property}"], head meta[name="${property}"]`);
        await expect(meta('og:title')).toHaveAttribute('content', post.title);
        await expect(meta('og:type')).toHaveAttribute('content', 'article');
        await expect(meta('og:image:width')).toHaveAttribute('content', '1200');
        await expect(meta('og:image:height')).toHaveAttribute('content', '630');
        await expect(meta('twitter:card')).toHaveAttribute('content', 'summary_large_image');
        const url = (await meta('og:image').getAttribute('content')) ?? '';
        expect(url).toMatch(/\/media\/[^/]+\/card-\d+\.png$/);
        // Absolute when SITE_URL is set (deployment.test.ts); the suite runs without it.
        cards.push({ url: new URL(url, visitor.url()).pathname, title: post.title });
      }
      for (const card of cards) {
        const response = await visitor.request.get(card.url);
        expect(response.status()).toBe(200);
        expect(response.headers()['content-type']).toBe('image/png');
      }
      // The card's pixels, drawn in the page: the title's band (72 px from the top, 80 from the
      // sides, one line of 80 px type for these titles) holds ink, and the two posts' bands
      // differ — the title is drawn, not only the site's name under it.
      const bands = await visitor.evaluate(
        async (urls) => {
          const read = async (url: string) => {
            const image = new Image();
            image.src = url;
            await image.decode();
            const canvas = document.createElement('canvas');
            canvas.width = image.naturalWidth;
            canvas.height = image.naturalHeight;
            const context = canvas.getContext('2d');
            if (!context) throw new Error('no 2d context');
            context.drawImage(image, 0, 0);
            const band = context.getImageData(80, 72, 1040, 100).data;
            const [r, g, b] = context.getImageData(4, 4, 1, 1).data;
            let ink = 0;
            for (let i = 0; i < band.length; i += 4) {
              const far =
                Math.abs((band[i] ?? 0) - (r ?? 0)) +
                Math.abs((band[i + 1] ?? 0) - (g ?? 0)) +
                Math.abs((band[i + 2] ?? 0) - (b ?? 0));
              if (far > 96) ink++;
            }
            // A digest of the band, to compare the two cards without shipping their pixels back.
            const digest = await crypto.subtle.digest('SHA-256', band);
            const band64 = btoa(String.fromCharCode(...new Uint8Array(digest)));
            return { width: image.naturalWidth, height: image.naturalHeight, ink, band: band64 };
          };
          return Promise.all(urls.map(read));
        },
        cards.map((card) => card.url),
      );
      for (const band of bands) {
        expect({ width: band.width, height: band.height }).toEqual({ width: 1200, height: 630 });
        // A line of 80 px glyphs inks several per cent of its band; an empty band none.
        expect(band.ink).toBeGreaterThan(1040 * 100 * 0.02);
      }
      expect(bands[0]?.band).not.toEqual(bands[1]?.band);
      await visitor.context().close();
    } finally {
      await store.saveSiteSettings(before);
      for (const post of POSTS) {
        await store.unpublish(post.slug).catch(() => undefined);
        await store.discardDraft(post.slug).catch(() => undefined);
      }
    }
  });
});

// Walk-through of issue 27: with JavaScript, the first autosave makes the new page and the
// editor opens it from what was saved; the topics typed before that were left out of the
// save, so they vanished from the field and Publish sent none.
test('with JavaScript, topics typed before the first autosave are kept and published', async ({
  page,
  request,
  signIn,
  store,
}) => {
  const slug = 'e2e-js-topics';
  try {
    await signIn(page, '/preview?new');
    await page.getByRole('textbox', { name: /^Title/ }).fill('E2E JS topics');
    await page.getByRole('combobox', { name: /^Topics/ }).fill('E2E Quince, E2E Medlar');
    await page.locator('.body-codemirror .cm-content').click();
    await page.keyboard.type('Typed with the editor awake.');
    // The autosave makes the page and the editor moves to its address.
    await expect(page).toHaveURL(new RegExp(`/preview/${slug}\\?edit$`), { timeout: 15_000 });
    await expect(page.getByRole('combobox', { name: /^Topics/ })).toHaveValue(
      'E2E Quince, E2E Medlar',
    );
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await expect(page).toHaveURL(/notice=published/);
    const topic = await request.get('/e2e-quince');
    expect(topic.status()).toBe(200);
    expect(await topic.text()).toContain('E2E JS topics');
  } finally {
    await store.unpublish(slug).catch(() => undefined);
    await store.discardDraft(slug).catch(() => undefined);
  }
});
