import { extname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** The renderer is served from app://lemming/, never from file://. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'lemming';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

export type AssetResolution =
  | { kind: 'file'; path: string; contentType: string }
  | { kind: 'refused'; status: 403 | 404; reason: string };

/**
 * Maps a request for the renderer to a file inside `rootDir`. Used by the app:// handler in Electron
 * and by the test harness's HTTP server, so both serve exactly the same files.
 */
export function resolveRendererAsset(pathname: string, rootDir: string): AssetResolution {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return { kind: 'refused', status: 404, reason: 'malformed path' };
  }
  if (decoded.includes('\0')) return { kind: 'refused', status: 404, reason: 'malformed path' };
  const root = resolve(rootDir);
  const wanted = decoded === '/' || decoded === '' ? 'index.html' : decoded.replace(/^\/+/, '');
  const file = resolve(join(root, wanted));
  const inside = relative(root, file);
  if (inside === '' || isAbsolute(inside) || inside.split(sep)[0] === '..') {
    return { kind: 'refused', status: 403, reason: 'outside the renderer folder' };
  }
  const contentType = CONTENT_TYPES[extname(file).toLowerCase()];
  if (!contentType) return { kind: 'refused', status: 404, reason: 'not a renderer asset' };
  return { kind: 'file', path: file, contentType };
}
