/** The environment variable that names the CLI's secrets file when `--secrets-file` is not given. */
export const SECRETS_FILE_VARIABLE = 'LEMMING_SECRETS_FILE';
