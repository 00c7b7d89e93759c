// Owns who may do what (issue 28): the five roles, in order of trust, and one table of
// permissions that every check reads — the guard before an action runs, and the read model
// before a screen shows a button. Nothing else in the code compares role names: it asks
// `can(person, action, page)`. Browser-safe (a client component may ask it to hide a control
// it already knows is refused); nothing here may import server-only modules.
//
// The table is deliberately flat: one row per action, saying the least role that may do it to a
// page of their own and to anyone else's. A new action is one row here, and the permission
// matrix test (tests/integration/permissions.test.ts) walks every row × every role × own and
// other's page through the real server, so an action without a row fails it.

/** Least to most trusted. Ghost's names and order: a newsroom reads them without a glossary. */
export const ROLES = ['contributor', 'author', 'editor', 'administrator', 'owner'] as const;
export type Role = (typeof ROLES)[number];

/** What each role is called on screens and in the CLI's output. */
export const ROLE_LABELS: Record<Role, string> = {
  contributor: 'Contributor',
  author: 'Author',
  editor: 'Editor',
  administrator: 'Administrator',
  owner: 'Owner',
};

/** One line per role, for the people screen and `folio editor list --help`. */
export const ROLE_SUMMARIES: Record<Role, string> = {
  contributor: 'Writes drafts of their own pages and submits them for review.',
  author: 'Writes, publishes and schedules their own pages.',
  editor: 'Edits, publishes, schedules and deletes every page; media, topics and redirects.',
  administrator: 'Everything an Editor does, and people and site settings.',
  owner: 'Everything, and hands the site to someone else. One per site.',
};

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** Whether `role` is at least `least` in the order above. */
export function atLeast(role: Role, least: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(least);
}

/**
 * A rule: the least role for a page of one's own, and for anyone else's (`null`: nobody). A
 * rule with `published` applies to a page visitors can see (a contributor's draft may be
 * deleted by them, not once it is published). Site-wide actions name no page: `own` applies.
 */
type Rule = {
  own: Role | null;
  others: Role | null;
  /** Stricter rule for a published page, where one applies. */
  published?: { own: Role | null; others: Role | null };
  /** What the refusal says, completing "You cannot …" */
  refusal: string;
};

const RULES = {
  // Pages: writing.
  'page.create': { own: 'contributor', others: null, refusal: 'create pages' },
  'page.edit': { own: 'contributor', others: 'editor', refusal: 'edit this page' },
  'page.submit': { own: 'contributor', others: 'editor', refusal: 'submit this page for review' },
  // Pages: what visitors see.
  'page.publish': { own: 'author', others: 'editor', refusal: 'publish this page' },
  'page.unpublish': { own: 'author', others: 'editor', refusal: 'unpublish this page' },
  'page.schedule': { own: 'author', others: 'editor', refusal: 'schedule this page' },
  'page.review': { own: 'editor', others: 'editor', refusal: 'review this page' },
  'page.delete': {
    own: 'contributor',
    others: 'editor',
    published: { own: 'author', others: 'editor' },
    refusal: 'delete this page',
  },
  // Drafts shown to people without an account.
  'share-link.create': { own: 'contributor', others: 'editor', refusal: 'share this page' },
  'share-link.revoke': { own: 'contributor', others: 'editor', refusal: 'revoke this link' },
  // Site-wide.
  'media.upload': { own: 'contributor', others: null, refusal: 'upload media' },
  // The library is the site's: anyone may add to it, Editors tidy it (alt text, deleting).
  'media.edit': { own: 'editor', others: 'editor', refusal: 'change images in the library' },
  'topic.edit': { own: 'editor', others: 'editor', refusal: 'edit topics' },
  // Ghost's rule: Contributors choose among the topics there are (hostile pass 27: their draft
  // saves made topics without end, each holding an address no page could then take).
  'topic.create': { own: 'author', others: 'author', refusal: 'create topics' },
  'redirect.edit': { own: 'editor', others: 'editor', refusal: 'change redirects' },
  'profile.edit': { own: 'contributor', others: 'administrator', refusal: 'edit this profile' },
  'settings.edit': { own: 'administrator', others: null, refusal: 'change site settings' },
  'people.manage': { own: 'administrator', others: null, refusal: 'manage people' },
  'audit.read': { own: 'administrator', others: null, refusal: 'read the audit trail' },
  'webhooks.manage': { own: 'administrator', others: null, refusal: 'manage webhooks' },
  // Keys to the content API (docs/decisions/0047): who may ask it more often, a site setting.
  'api-keys.manage': { own: 'administrator', others: null, refusal: 'manage API keys' },
  'ownership.transfer': { own: 'owner', others: null, refusal: 'hand over the site' },
  // fixd (issue 28 hostile pass, finding 2): a published page's address is what visitors and
  // links know (the old one 301s, and the new one may take a redirect's source): changing it
  // is publishing, so it needs the right to publish. A draft's address is the writer's own.
  'page.rename': {
    own: 'contributor',
    others: 'editor',
    published: { own: 'author', others: 'editor' },
    refusal: 'change the address of this published page',
  },
} as const satisfies Record<string, Rule>;

export type Action = keyof typeof RULES;
export const ACTIONS = Object.keys(RULES) as Action[];

export function isAction(value: unknown): value is Action {
  return typeof value === 'string' && Object.hasOwn(RULES, value);
}

/** Who is asking: enough of a person to decide. */
export type Person = { id: number; role: Role };

/**
 * The page an action is about, as far as permissions care: whose it is (the person who made
 * it; null for a page made before roles, which is nobody's own) and whether visitors see it.
 */
export type PageOwnership = { ownerId: number | null; published: boolean };

/**
 * Whether `person` may do `action` — to `page` when it names one. A page-less question about a
 * page action ("may they publish at all?") answers for their own pages: a screen uses it to
 * decide whether to show the control, and the action asks again with the page.
 */
export function can(person: Person, action: Action, page?: PageOwnership): boolean {
  const rule: Rule = RULES[action];
  const own = page === undefined || (page.ownerId !== null && page.ownerId === person.id);
  const which = page?.published && rule.published ? rule.published : rule;
  const least = own ? which.own : which.others;
  return least !== null && atLeast(person.role, least);
}

/**
 * Whether `person` may put a post under others' names alone (bylines that do not name them):
 * that speaks for someone else, as acting on their page does, so it is the same rule — an
 * Editor's and above (hostile pass 2, issue 28: an Author published a post bylined only to a
 * colleague). An Author's or a Contributor's bylines name them when they name anyone.
 */
export function mayBylineOthers(person: Person): boolean {
  return can(person, 'page.edit', { ownerId: null, published: false });
}

/**
 * Who to ask, for the refusal of a rule: the least role that may do it to anyone's page (or,
 * site-wide, at all) — and those above it, short of the Owner, who may do everything. An
 * Editor cannot manage people, so a refusal of that must not send anyone to an Editor.
 */
function whomToAsk(rule: Rule): string {
  const leasts = [rule.others, rule.published?.others].filter((role) => role != null);
  const least =
    leasts.length > 0
      ? leasts.reduce((a, b) => (atLeast(a, b) ? a : b))
      : (rule.published?.own ?? rule.own ?? 'owner');
  if (least === 'owner') return 'Ask the Owner.';
  if (least === 'administrator') return 'Ask an Administrator.';
  if (least === 'editor') return 'Ask an Editor or an Administrator.';
  return `Ask ${least === 'author' ? 'an Author' : 'a Contributor'} or an Editor.`;
}

/** The refusal of `action`, in words, naming the role that lacks it and who may do it. */
export function refusalOf(person: Person, action: Action): string {
  const rule: Rule = RULES[action];
  return `You cannot ${rule.refusal}: ${ROLE_LABELS[person.role]}s may not. ${whomToAsk(rule)}`;
}

/** The rule of one action, for the matrix test and the people screen's table. */
export function ruleOf(action: Action): Readonly<Rule> {
  return RULES[action];
}
