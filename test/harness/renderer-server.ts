import { createReadStream } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolveRendererAsset } from '../../main/protocol/app-protocol';
import { RENDERER_SECURITY_HEADERS } from '../../main/security/csp';

export interface RendererServer {
  origin: string;
  close(): Promise<void>;
}

/**
 * Serves the Vite-built renderer on loopback exactly as the app:// protocol does in Electron: the same
 * file resolution and the same security headers (CSP included), so the CSP is exercised in Chromium.
 */
export async function startRendererServer(rendererDir: string): Promise<RendererServer> {
  const server: Server = createServer((request, response) => {
    const asset = resolveRendererAsset(new URL(request.url ?? '/', 'http://127.0.0.1').pathname, rendererDir);
    if (asset.kind === 'refused') {
      response.writeHead(asset.status).end(asset.reason);
      return;
    }
    response.writeHead(200, { 'Content-Type': asset.contentType, ...RENDERER_SECURITY_HEADERS });
    createReadStream(asset.path)
      .on('error', () => response.destroy())
      .pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
