/**
 * codex-rs trims with Rust's `char::is_whitespace` (the Unicode White_Space property). JavaScript's
 * `trim` differs in two code points (it strips U+FEFF and keeps U+0085), so matching uses these instead
 * to accept exactly the patches codex accepts.
 */
const WHITESPACE = '\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const LEADING = new RegExp(`^[${WHITESPACE}]+`);
const TRAILING = new RegExp(`[${WHITESPACE}]+$`);

export const rustTrimEnd = (text: string): string => text.replace(TRAILING, '');
export const rustTrim = (text: string): string => rustTrimEnd(text).replace(LEADING, '');
