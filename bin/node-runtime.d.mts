// Types for bin/node-runtime.mjs, which stays plain JavaScript so that old Nodes can read it.
export declare const RUN_NODE_FLAGS: readonly string[];
export declare function unsupportedNode(version: string, execPath: string): string | null;
