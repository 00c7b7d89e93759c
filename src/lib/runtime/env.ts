// Owns the environment: parsed once at start-up, failing fast with the bad variable's name.
import 'server-only';
import { z } from 'zod';

const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === '' ? undefined : value));

/**
 * `a@b` or `Name <a@b>`: one address (`folio@localhost` too, for a local catcher), no line
 * breaks (it becomes a header), no commas or semicolons (a list of senders).
 */
const MAIL_FROM_SHAPE =
  /^(?:[^\r\n<>,;"]{1,100} <[^\s<>@,;"]+@[^\s<>@,;"]+>|[^\s<>@,;"]+@[^\s<>@,;"]+)$/;

function isSmtpUrl(value: string): boolean {
  if (!/^smtps?:\/\/[^/\s?#]+\/?(?:\?[^\s#]*)?$/.test(value)) return false;
  try {
    return new URL(value).hostname !== '';
  } catch {
    return false;
  }
}

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  // The address to listen on. Unset: every interface. Behind a reverse proxy, the address the
  // proxy reaches (127.0.0.1 on the same machine): with TRUST_PROXY, a client that reached an
  // instance directly could claim any address and scheme in X-Forwarded-*.
  HOST: optionalString.refine(
    (value) => value === undefined || /^(?:[A-Za-z0-9.-]+|\[?[0-9A-Fa-f:.]+\]?)$/.test(value),
    'must be an IP address or a host name, such as 127.0.0.1',
  ),
  DATABASE_URL: z
    .string()
    .default('sqlite:data/folio.db')
    .refine(
      (url) => /^sqlite:.+/.test(url) || /^postgres(?:ql)?:\/\/.+/.test(url),
      'must be sqlite:<path>, sqlite::memory: or postgres://user@host:port/database',
    ),
  // PostgreSQL connections per process (plus one for LISTEN); ignored for SQLite.
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  SESSION_SECRET: optionalString.refine(
    (value) => value === undefined || value.length >= 32,
    'must be at least 32 characters',
  ),
  SITE_URL: optionalString
    .refine(
      (value) => value === undefined || /^https?:\/\/[^/]+/.test(value),
      'must be an http(s) URL',
    )
    .transform((value) => value?.replace(/\/+$/, '')),
  SENTRY_DSN: optionalString,
  WAKU_PUBLIC_SENTRY_DSN: optionalString,
  SENTRY_ENVIRONMENT: optionalString,
  SENTRY_RELEASE: optionalString,
  SENTRY_TRACES_SAMPLE_RATE: z.coerce.number().min(0).max(1).optional(),
  // `1` (or the sidecar's URL) sends errors and traces to a local Spotlight (development).
  SENTRY_SPOTLIGHT: optionalString,
  // How many reverse proxies in front of Folio to believe about the client's address and
  // scheme (X-Forwarded-For, X-Forwarded-Proto). 0: none, the socket is the client.
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  // The largest image an editor may upload, in MB (the request may be 1 MB more).
  MEDIA_MAX_MB: z.coerce.number().min(1).max(100).default(10),
  // Origins pages may load images from besides the site itself (space-separated, such as
  // `https://images.example.com`): the CSP's img-src. Unset: the site's own images only.
  IMAGE_ORIGINS: optionalString.refine(
    (value) =>
      value === undefined ||
      value.split(/\s+/).every((origin) => /^https:\/\/[^/\s]+$/.test(origin)),
    'must be https origins separated by spaces',
  ),
  // `refuse`: editors' redirects may lead only to this site's pages, and any to another site
  // are no longer followed (redirects.ts). `allow` (the default): to other sites too.
  EXTERNAL_REDIRECTS: z.enum(['allow', 'refuse']).default('allow'),
  // How often each server checks for pages whose scheduled time has come (and at start).
  SCHEDULE_CHECK_SECONDS: z.coerce.number().min(0.1).max(60).default(15),
  // Fonts the generated social cards fall back to, glyph by glyph, for scripts the card's own
  // font lacks (Arabic, Hebrew, CJK…): every .ttf/.otf under it (social-card/card-fonts.ts).
  // `none`: the card's own font only.
  CARD_FONTS_DIR: z.string().min(1).default('/usr/share/fonts'),
  // Days the audit trail keeps an entry; older ones are deleted by the scheduler's rounds.
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(36500).default(365),
  // Invitations are emailed through this mail server when set (decision 0043):
  // smtp://user:pass@host:587 (STARTTLS when the server offers it) or smtps://…:465 (TLS from
  // the start). Unset: the link is only shown, to send by hand. Its password is never logged.
  // nodemailer reads options from its query (`?tls.rejectUnauthorized=false` for a test server).
  SMTP_URL: optionalString.refine(
    (value) => value === undefined || isSmtpUrl(value),
    'must be smtp://user:password@host:port or smtps://user:password@host:port (a password with @, : or / percent-encoded)',
  ),
  // The From address of those emails, such as `Folio <folio@example.com>`; needed with SMTP_URL.
  MAIL_FROM: optionalString.refine(
    (value) => value === undefined || MAIL_FROM_SHAPE.test(value),
    'must be an email address, or a name and one in angle brackets: Folio <folio@example.com>',
  ),
  // A shared cache in front (docs/decisions/0045): after each committed content change, one
  // request to PURGE_URL naming the stale keys in the header PURGE_HEADER, by PURGE_METHOD
  // (BAN for the shipped Varnish VCL), with `Authorization: Bearer PURGE_TOKEN` when set.
  // Unset: nothing is purged.
  PURGE_URL: optionalString.refine(
    (value) => value === undefined || /^https?:\/\/[^/\s]+\S*$/.test(value),
    'must be an http(s) URL, such as http://127.0.0.1:6081/',
  ),
  PURGE_METHOD: z
    .string()
    .regex(/^[A-Z]{1,20}$/, 'must be an HTTP method in capitals, such as BAN or POST')
    .default('BAN'),
  PURGE_HEADER: z
    .string()
    .regex(/^[A-Za-z0-9-]{1,64}$/, 'must be a header name, such as X-Purge-Keys')
    .default('X-Purge-Keys'),
  PURGE_TOKEN: optionalString.refine(
    (value) => value === undefined || /^[\x21-\x7e]{1,512}$/.test(value),
    'must be printable characters without spaces',
  ),
  // `1`: webhooks may be sent to loopback, private and link-local addresses (docs/decisions/0046),
  // for trying them on one machine and for tests. Unset or `0`: refused, checked at each send.
  WEBHOOKS_ALLOW_PRIVATE: z.enum(['0', '1']).default('0'),
  // The content API's rate limits (docs/decisions/0047): requests per window without a key, per
  // client address (the socket's, or TRUST_PROXY's), and with a key, per key. A window is
  // API_RATE_WINDOW_SECONDS long (a minute by default). Counted in the database across instances.
  API_RATE_LIMIT: z.coerce.number().int().min(1).max(10_000_000).default(60),
  API_KEY_RATE_LIMIT: z.coerce.number().int().min(1).max(10_000_000).default(1200),
  API_RATE_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  // `off` turns the render cache off (for benchmarks and debugging).
  FOLIO_RENDER_CACHE: z.enum(['on', 'off']).default('on'),
  FOLIO_RENDER_CACHE_MB: z.coerce.number().int().min(1).max(4096).default(64),
});

// Rules across variables, apart from the table above so that adding a variable stays one entry.
const checkedEnvSchema = envSchema.superRefine((env, context) => {
  // Sending with no From would be refused by every mail server at the first invitation: at
  // start-up instead, where the operator is looking.
  if (env.SMTP_URL !== undefined && env.MAIL_FROM === undefined)
    context.addIssue({
      code: 'custom',
      path: ['MAIL_FROM'],
      message: 'is required when SMTP_URL is set (the From address of invitation emails)',
    });
});

export type Env = z.infer<typeof envSchema>;

/** Every variable Folio reads (the README's table lists each; a test checks). */
export const ENVIRONMENT_VARIABLES = Object.keys(envSchema.shape) as (keyof Env)[];

export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = checkedEnvSchema.safeParse(source);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  throw new Error(`Invalid environment: ${problems.join('; ')}`);
}

let cached: Env | undefined;

export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}
