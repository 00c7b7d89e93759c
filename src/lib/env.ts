// Owns the environment: parsed once at start-up, failing fast with the bad variable's name.
import 'server-only';
import { z } from 'zod';

const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === '' ? undefined : value));

const envSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  DATABASE_URL: z
    .string()
    .default('sqlite:data/folio.db')
    .refine((url) => /^sqlite:.+/.test(url), 'must be sqlite:<path> or sqlite::memory:'),
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
  // `off` turns the render cache off (for benchmarks and debugging).
  FOLIO_RENDER_CACHE: z.enum(['on', 'off']).default('on'),
  FOLIO_RENDER_CACHE_MB: z.coerce.number().int().min(1).max(4096).default(64),
});

export type Env = z.infer<typeof envSchema>;

export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = envSchema.safeParse(source);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  throw new Error(`Invalid environment: ${problems.join('; ')}`);
}

let cached: Env | undefined;

export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** `sqlite:data/folio.db` → `data/folio.db`; `sqlite::memory:` → `:memory:`. */
export function databasePathFromUrl(url: string): string {
  return url.replace(/^sqlite:/, '');
}
