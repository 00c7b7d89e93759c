'use client';
import { useActionState } from 'react';
import { saveAuthorProfile } from '../../lib/editor/actions/profile';
import type { AuthorProfileState, AuthorProfileValues } from '../../lib/editor/forms';

/**
 * The editor's public profile: name, address, bio, photo, links. A refusal comes back with
 * everything typed and the reason, with or without JavaScript.
 */
export function AuthorProfileForm({
  saved,
  updatedAt,
  limits,
}: {
  saved: AuthorProfileValues;
  /** The profile's last change ('' before the first save): an older form's save is refused. */
  updatedAt: string;
  limits: { name: number; bio: number; links: number };
}) {
  const [answer, action, pending] = useActionState<AuthorProfileState, FormData>(
    saveAuthorProfile,
    {},
  );
  const state = answer ?? {};
  const values = state.values ?? saved;
  return (
    <form action={action} className="settings-form" key={state.values ? 'refused' : 'saved'}>
      {state.error ? (
        <p role="alert" className="form-error">
          {state.error}
        </p>
      ) : null}
      <input type="hidden" name="updated_at" value={updatedAt} />
      <label>
        Name
        <span className="hint">As readers see it in bylines and on your page.</span>
        <input
          name="name"
          type="text"
          required
          maxLength={limits.name}
          defaultValue={values.name}
        />
      </label>
      <label>
        Address
        <span className="hint">
          Your page is at /this-address once you have published a post: lowercase letters, digits
          and hyphens. Change it and the old address leads to the new one.
        </span>
        <input
          name="slug"
          type="text"
          required
          maxLength={100}
          pattern="[a-z0-9]+(-[a-z0-9]+)*"
          defaultValue={values.slug}
          spellCheck={false}
          autoComplete="off"
        />
      </label>
      <label>
        Short bio
        <textarea name="bio" rows={4} maxLength={limits.bio} defaultValue={values.bio} />
      </label>
      <label>
        Photo
        <span className="hint">
          From the media library: paste the image’s address (/media/…) or its Markdown. Empty: none.
        </span>
        <input name="photo" type="text" defaultValue={values.photo} spellCheck={false} />
      </label>
      <label>
        Links
        <span className="hint">Up to {limits.links}, one full address a line.</span>
        <textarea name="links" rows={3} defaultValue={values.links} spellCheck={false} />
      </label>
      <button type="submit" className="primary" disabled={pending}>
        Save profile
      </button>
    </form>
  );
}
