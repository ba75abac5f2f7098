/**
 * The renderer's Content-Security-Policy, sent as a response header by the app:// protocol (a meta tag
 * cannot carry frame-ancestors). The renderer never talks to the network: everything goes through IPC.
 */
export const RENDERER_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  // A tool's sounds are played from their bytes, as its images are shown.
  'media-src data:',
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-src 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const RENDERER_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': RENDERER_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Referrer-Policy': 'no-referrer',
};
