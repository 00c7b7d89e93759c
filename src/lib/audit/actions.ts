// Owns what the audit trail can say happened: ONE table of entry kinds, each with the words the
// screen and the CLI show. recordAudit() takes only these, the screen's "what" filter offers
// exactly these, and a kind another feature needs is one row here (the invitations, passkeys,
// second factors and review steps of issue 28 are named already, so they are wired at merge
// without touching the screen). Browser-safe: no imports.

export const AUDIT_ACTIONS = {
  // Signing in and out.
  'sign-in': 'Signed in',
  'sign-in.failed': 'Sign-in refused',
  'sign-out': 'Signed out',
  'sign-out.everywhere': 'Signed out everywhere',
  // People.
  'editor.added': 'Person added',
  'editor.password_reset': 'Password reset',
  'editor.removed': 'Person removed',
  'editor.role_changed': 'Role changed',
  'editor.sessions_ended': 'Sessions ended',
  'editor.invited': 'Invitation made',
  'editor.invitation_emailed': 'Invitation emailed',
  'editor.invitation_accepted': 'Invitation accepted',
  'editor.invitation_revoked': 'Invitation revoked',
  'editor.suspended': 'Person suspended',
  'editor.unsuspended': 'Suspension lifted',
  // Stronger sign-in.
  'passkey.added': 'Passkey added',
  'passkey.removed': 'Passkey removed',
  'second-factor.enabled': 'Two-factor sign-in turned on',
  'second-factor.disabled': 'Two-factor sign-in turned off',
  'second-factor.failed': 'Two-factor code refused',
  'identity.confirmed': 'Confirmed it is them',
  'identity.confirm_failed': 'Confirmation refused',
  // Pages: what visitors see (the content events of decision 0026, copied as they are written).
  'page.published': 'Published',
  'page.unpublished': 'Unpublished',
  'page.renamed': 'Address changed',
  'page.deleted': 'Deleted',
  'page.restored': 'Earlier version restored',
  'page.scheduled_publish_done': 'Published by schedule',
  'page.scheduled_publish_missed': 'Scheduled publish missed',
  // Review before publish.
  'page.submitted': 'Submitted for review',
  'page.sent_back': 'Sent back',
  // The site.
  'settings.changed': 'Site settings changed',
  'share-link.created': 'Share link made',
  'share-link.revoked': 'Share link revoked',
  'media.uploaded': 'Image uploaded',
  'media.deleted': 'Image deleted',
  // Webhooks (decision 0046).
  'webhook.added': 'Webhook added',
  'webhook.removed': 'Webhook removed',
  'webhook.disabled': 'Webhook turned off',
  'webhook.enabled': 'Webhook turned on',
  'webhook.secret_rotated': 'Webhook secret replaced',
  'webhook.redelivered': 'Webhook sent again',
  // Content API keys (docs/decisions/0047).
  'api-key.created': 'API key made',
  'api-key.revoked': 'API key revoked',
  // An action the permission table refused (the guard, editor/guard.ts).
  'action.refused': 'Refused',
} as const;

export type AuditAction = keyof typeof AUDIT_ACTIONS;
export const AUDIT_ACTION_NAMES = Object.keys(AUDIT_ACTIONS) as AuditAction[];

export function isAuditAction(value: unknown): value is AuditAction {
  return typeof value === 'string' && Object.hasOwn(AUDIT_ACTIONS, value);
}
