import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveRendererAsset } from './app-protocol';

const root = mkdtempSync(join(tmpdir(), 'lemming-renderer-'));
mkdirSync(join(root, 'assets'));
writeFileSync(join(root, 'index.html'), '<!doctype html>');
writeFileSync(join(root, 'assets', 'app.js'), '');
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('resolveRendererAsset', () => {
  it('serves index.html for the root and files inside the renderer folder', () => {
    expect(resolveRendererAsset('/', root)).toEqual({
      kind: 'file',
      path: join(root, 'index.html'),
      contentType: 'text/html; charset=utf-8',
    });
    expect(resolveRendererAsset('/assets/app.js', root)).toMatchObject({
      kind: 'file',
      path: join(root, 'assets', 'app.js'),
    });
  });

  for (const hostile of [
    '/../../etc/passwd',
    '/%2e%2e/%2e%2e/etc/passwd',
    '/assets/..%2f..%2fsecret.html',
    '/..%5c..%5cwin.ini',
  ]) {
    it(`refuses ${hostile}`, () => {
      expect(resolveRendererAsset(hostile, root)).toMatchObject({ kind: 'refused' });
    });
  }

  it('refuses NUL bytes, malformed escapes and unknown file types', () => {
    expect(resolveRendererAsset('/index.html%00.js', root)).toMatchObject({ kind: 'refused', status: 404 });
    expect(resolveRendererAsset('/%E0%A4%A', root)).toMatchObject({ kind: 'refused', status: 404 });
    expect(resolveRendererAsset('/assets/app.exe', root)).toMatchObject({ kind: 'refused', status: 404 });
  });
});
