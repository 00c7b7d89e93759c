import { describe, expect, test } from 'bun:test';
import {
  ACTIONS,
  atLeast,
  can,
  isAction,
  isRole,
  type Person,
  ROLES,
  refusalOf,
  ruleOf,
} from './permissions';

const person = (role: Person['role'], id = 7): Person => ({ id, role });
const own = { ownerId: 7, published: false };
const others = { ownerId: 8, published: false };
const ownPublished = { ownerId: 7, published: true };
const nobodys = { ownerId: null, published: false };

describe('roles', () => {
  test('are ordered least to most trusted', () => {
    expect(atLeast('owner', 'administrator')).toBe(true);
    expect(atLeast('author', 'editor')).toBe(false);
    expect(atLeast('editor', 'editor')).toBe(true);
    expect(isRole('owner')).toBe(true);
    expect(isRole('Owner')).toBe(false);
    expect(isRole('superuser')).toBe(false);
  });
});

describe('can', () => {
  test('a Contributor writes and submits their own pages, and nothing visitors see', () => {
    const c = person('contributor');
    expect(can(c, 'page.create')).toBe(true);
    expect(can(c, 'page.edit', own)).toBe(true);
    expect(can(c, 'page.submit', own)).toBe(true);
    expect(can(c, 'page.publish', own)).toBe(false);
    expect(can(c, 'page.schedule', own)).toBe(false);
    expect(can(c, 'page.unpublish', ownPublished)).toBe(false);
    // Their own draft that was never published may go; a published page may not.
    expect(can(c, 'page.delete', own)).toBe(true);
    expect(can(c, 'page.delete', ownPublished)).toBe(false);
    expect(can(c, 'page.edit', others)).toBe(false);
    expect(can(c, 'share-link.create', own)).toBe(true);
    expect(can(c, 'share-link.create', others)).toBe(false);
    expect(can(c, 'settings.edit')).toBe(false);
  });

  test('an Author publishes their own pages and cannot touch anyone else’s', () => {
    const a = person('author');
    expect(can(a, 'page.publish', own)).toBe(true);
    expect(can(a, 'page.delete', ownPublished)).toBe(true);
    expect(can(a, 'page.edit', others)).toBe(false);
    expect(can(a, 'page.publish', others)).toBe(false);
    // A page made before roles is nobody's own.
    expect(can(a, 'page.edit', nobodys)).toBe(false);
    expect(can(a, 'page.review', own)).toBe(false);
  });

  test('an Editor acts on every page but not on people or settings', () => {
    const e = person('editor');
    for (const page of [own, others, nobodys, ownPublished]) {
      expect(can(e, 'page.edit', page)).toBe(true);
      expect(can(e, 'page.publish', page)).toBe(true);
      expect(can(e, 'page.delete', page)).toBe(true);
    }
    expect(can(e, 'redirect.edit')).toBe(true);
    expect(can(e, 'settings.edit')).toBe(false);
    expect(can(e, 'people.manage')).toBe(false);
  });

  test('Administrators do everything but hand the site over; the Owner does that too', () => {
    for (const action of ACTIONS) {
      expect(can(person('owner'), action)).toBe(true);
      // Every action that can be done to someone else's page at all, the Owner may.
      if (ruleOf(action).others !== null) expect(can(person('owner'), action, others)).toBe(true);
    }
    expect(can(person('administrator'), 'people.manage')).toBe(true);
    expect(can(person('administrator'), 'ownership.transfer')).toBe(false);
  });

  test('more trust never takes a permission away', () => {
    for (const action of ACTIONS)
      for (const page of [undefined, own, others, nobodys, ownPublished])
        for (let i = 1; i < ROLES.length; i++) {
          const lower = ROLES[i - 1] as Person['role'];
          const higher = ROLES[i] as Person['role'];
          if (can(person(lower), action, page))
            expect(can(person(higher), action, page)).toBe(true);
        }
  });

  test('a refusal says what and who, in words', () => {
    expect(refusalOf(person('contributor'), 'page.publish')).toBe(
      'You cannot publish this page: Contributors may not. Ask an Editor or an Administrator.',
    );
    // Who to ask is who may: an Editor manages nobody (fixd, hostile pass finding 10).
    expect(refusalOf(person('editor'), 'people.manage')).toBe(
      'You cannot manage people: Editors may not. Ask an Administrator.',
    );
    expect(refusalOf(person('administrator'), 'ownership.transfer')).toBe(
      'You cannot hand over the site: Administrators may not. Ask the Owner.',
    );
    expect(refusalOf(person('contributor'), 'page.rename')).toBe(
      'You cannot change the address of this published page: Contributors may not. Ask an Editor or an Administrator.',
    );
    expect(isAction('page.publish')).toBe(true);
    expect(isAction('toString')).toBe(false);
  });
});
