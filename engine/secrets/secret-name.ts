import { SecretName } from '../api/secret-name';

/** Why `name` cannot name a secret, or null when it can. */
export function secretNameProblem(name: string): string | null {
  const checked = SecretName.safeParse(name);
  return checked.success
    ? null
    : `"${name}" is not a valid secret name: ${checked.error.issues[0]?.message ?? 'invalid'}`;
}
