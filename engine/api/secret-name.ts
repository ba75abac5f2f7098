import { z } from 'zod';

const MAX_SECRET_NAME_LENGTH = 128;

/**
 * A secret's name: an upper-case letter, then upper-case letters, digits and "_". The same name is a
 * `${secrets.NAME}` placeholder in tool templates, part of an environment variable
 * (`LEMMING_SECRET_NAME`) and a key in the secrets file, so it must be valid in all three; upper case
 * only, because Windows environment variables and some file systems ignore case, and two secrets that
 * differ only in case would silently become one.
 */
export const SecretName = z
  .string({ error: 'a secret name must be text' })
  .min(1, 'a secret name must not be empty')
  .max(MAX_SECRET_NAME_LENGTH, `a secret name must be at most ${MAX_SECRET_NAME_LENGTH} characters`)
  .regex(
    /^[A-Z][A-Z0-9_]*$/,
    'a secret name must start with an upper-case letter and use only upper-case letters, digits and "_" (e.g. GITHUB_TOKEN)',
  );
export type SecretName = z.infer<typeof SecretName>;
