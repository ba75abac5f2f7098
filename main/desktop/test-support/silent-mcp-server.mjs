// An MCP server over stdio that never answers anything and ignores the signals that ask it to end:
// a server that hangs, as one does in the wild.
process.on('SIGTERM', () => undefined);
process.on('SIGINT', () => undefined);
process.stdin.on('data', () => undefined);
setInterval(() => undefined, 1_000);
