// Owns /preview?profile: the signed-in editor's public author profile (issue 27). Public only
// through the posts that name them: until they publish one, nobody sees it.
import 'server-only';
import { AUTHOR_BIO_MAX, AUTHOR_LINKS_MAX, AUTHOR_NAME_MAX } from '../../../lib/content/authors';
import { contentStore } from '../../../lib/content/content';
import { slugFromTitle } from '../../../lib/content/slugs';
import { PREVIEW_DASHBOARD, previewPath } from '../../../lib/http/routes';
import { AuthorProfileForm } from '../author-profile-form';
import type { ScreenProps } from './asked';

export async function ProfileScreen({ asked: { notice, editor } }: ScreenProps) {
  if (!editor) return null;
  const profile = await contentStore().authorOfEditor(editor.editor.id);
  // A first profile starts from the email's name part, to be changed.
  const local = editor.editor.email.split('@')[0] ?? '';
  return (
    <>
      <title>Your profile · Folio preview</title>
      <h1>Your profile</h1>
      {notice === 'profile-saved' ? (
        <p role="status" className="notice">
          Profile saved. Bylines and your page show it from their next visit.
        </p>
      ) : null}
      <p>
        <a href={PREVIEW_DASHBOARD}>Back to the pages</a>
        {profile ? (
          <>
            {' · '}
            {/* Their page as it looks now (the profile as saved), public or not yet. */}
            <a href={previewPath(profile.slug)}>Preview your author page</a>
          </>
        ) : null}
      </p>
      <p>
        Readers see this beside the posts you write, and on your own page. Your email is never
        shown. Until you publish a post, none of it is public.
      </p>
      <AuthorProfileForm
        saved={{
          name: profile?.name ?? '',
          slug: profile?.slug ?? slugFromTitle(local),
          bio: profile?.bio ?? '',
          photo: profile?.photo ? `/media/${profile.photo}` : '',
          links: (profile?.links ?? []).join('\n'),
        }}
        updatedAt={profile?.updatedAt ?? ''}
        limits={{ name: AUTHOR_NAME_MAX, bio: AUTHOR_BIO_MAX, links: AUTHOR_LINKS_MAX }}
      />
    </>
  );
}
