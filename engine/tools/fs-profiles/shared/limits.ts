/** The largest file the read tools read (gemini-cli's limit); they show it a window at a time. */
export const MAX_TEXT_FILE_BYTES = 20 * 1024 * 1024;

/** Files larger than this are not searched by the grep tools. */
export const MAX_SEARCHED_FILE_BYTES = 4 * 1024 * 1024;
