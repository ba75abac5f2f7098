/** The largest file the read tools read (gemini-cli's limit); they show it a window at a time. */
export const MAX_TEXT_FILE_BYTES = 20 * 1024 * 1024;

/** Files larger than this are not searched by the grep tools. */
export const MAX_SEARCHED_FILE_BYTES = 4 * 1024 * 1024;

/** How a path is written, for every tool's description. */
export const PATH_HELP =
  'Relative paths are in your workspace; paths starting with "shared/" are in the organization\'s shared folder; absolute paths must be inside a folder you may use.';
