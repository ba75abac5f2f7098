import { join } from 'node:path';

const packageDir = (name: string) => join(process.cwd(), 'node_modules', '@modelcontextprotocol', name);

/** The reference servers (devDependencies), started with this Node over stdio as a user's mcp.json would. */
export const referenceServers = {
  everything: () => ({
    command: process.execPath,
    args: [join(packageDir('server-everything'), 'dist', 'index.js'), 'stdio'],
  }),
  filesystem: (folder: string) => ({
    command: process.execPath,
    args: [join(packageDir('server-filesystem'), 'dist', 'index.js'), folder],
  }),
  memory: (file: string) => ({
    command: process.execPath,
    args: [join(packageDir('server-memory'), 'dist', 'index.js')],
    env: { MEMORY_FILE_PATH: file },
  }),
  /** server-everything over Streamable HTTP on `port` (it listens on every interface, as it does for users). */
  everythingHttpArgs: () => [join(packageDir('server-everything'), 'dist', 'index.js'), 'streamableHttp'],
  /** server-everything over legacy SSE on `port` (GET /sse, POST /message), the transport older servers speak. */
  everythingSseArgs: () => [join(packageDir('server-everything'), 'dist', 'index.js'), 'sse'],
};
