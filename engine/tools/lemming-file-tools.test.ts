import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentSandbox } from '../sandbox/agent-sandbox';
import { MemoryAgentFilesystem } from '../sandbox/memory-agent-filesystem';
import {
  describeAdversarialPaths,
  type AdversarialOperation,
} from '../sandbox/test-support/adversarial-paths';
import { seedOrg, WORLDS, type SandboxWorld } from '../sandbox/test-support/sandbox-world';
import {
  FILE_WRITE_MAX_CHARS,
  fileListTool,
  fileReadTool,
  fileWriteTool,
  LEMMING_FILE_TOOLS,
  type FileToolContext,
} from './lemming-file-tools';
import type { ToolResult } from './tool-result';

const SECURITY = 'Security violation: path is outside allowed directories';
const failure = (error: string): ToolResult => ({ success: false, output: null, error });
const success = (output: string): ToolResult => ({ success: true, output, error: null });

describe('the LeMMing file tools', () => {
  it('are described with LeMMing’s names and arguments, in its registry order', () => {
    expect(LEMMING_FILE_TOOLS.map((tool) => [tool.name, tool.definition.name, tool.kind])).toEqual([
      ['file_write', 'file_write', 'file'],
      ['file_read', 'file_read', 'file'],
      ['file_list', 'file_list', 'file'],
    ]);
    expect(fileReadTool.definition.parameters).toMatchObject({ required: ['path'] });
    expect(fileWriteTool.definition.parameters).toMatchObject({ required: ['path', 'content'] });
    expect(fileListTool.definition.parameters).not.toHaveProperty('required');
  });
});

describe.each(WORLDS)('the LeMMing file tools on the $name', (factory) => {
  let world: SandboxWorld;
  let context: FileToolContext;

  beforeEach(async () => {
    world = await factory.create();
    await seedOrg(world);
    context = { sandbox: new AgentSandbox({ orgPath: world.org, agentDir: world.agentDir, fs: world.fs }) };
  });

  afterEach(async () => {
    await world.dispose();
  });

  describe('file_read', () => {
    it('returns the whole text of a workspace or shared file', async () => {
      expect(await fileReadTool.run({ path: 'notes.md' }, context)).toEqual(success('workspace notes'));
      expect(await fileReadTool.run({ path: 'shared/readme.md' }, context)).toEqual(success('shared readme'));
    });

    it('answers bad arguments with LeMMing’s texts', async () => {
      for (const args of [{}, { path: '' }, { path: null }, 'notes.md', null, []])
        expect(await fileReadTool.run(args, context), JSON.stringify(args)).toEqual(
          failure("Missing 'path' parameter"),
        );
      expect(await fileReadTool.run({ path: 42 }, context)).toEqual(failure('Path must be a string'));
    });

    it('answers a missing file, a folder and unreadable content with LeMMing’s texts', async () => {
      await world.writeFile(join(world.workspace, 'latin1.txt'), new Uint8Array([0xe9]));
      expect(await fileReadTool.run({ path: 'nope.md' }, context)).toEqual(
        failure("File 'nope.md' not found"),
      );
      expect(await fileReadTool.run({ path: 'sub' }, context)).toEqual(failure("'sub' is not a file"));
      expect(await fileReadTool.run({ path: 'latin1.txt' }, context)).toEqual(
        failure("Failed to read file: 'latin1.txt' is not UTF-8 text"),
      );
    });

    it('refuses paths outside with LeMMing’s text, then the reason', async () => {
      expect(await fileReadTool.run({ path: '../resume.json' }, context)).toEqual(
        failure(
          `${SECURITY}: '../resume.json' is outside the folders you may read (your workspace, shared/)`,
        ),
      );
      expect(await fileReadTool.run({ path: 'link-file' }, context)).toEqual(
        failure(
          `${SECURITY}: 'link-file' leads through a symbolic link to a place outside the folders you may read (your workspace, shared/)`,
        ),
      );
    });
  });

  describe('file_write', () => {
    it('writes, creating folders, and reports the length in characters as LeMMing does', async () => {
      expect(await fileWriteTool.run({ path: 'notes/hello.md', content: 'héllo 👋' }, context)).toEqual(
        success('Wrote 7 bytes to notes/hello.md'),
      );
      expect(await world.fs.readTextFile(join(world.workspace, 'notes', 'hello.md'))).toBe('héllo 👋');
      expect(await fileWriteTool.run({ path: 'shared/notes/hello.md', content: '' }, context)).toEqual(
        success('Wrote 0 bytes to shared/notes/hello.md'),
      );
      expect(await fileWriteTool.run({ path: 'notes/hello.md', content: 'v2' }, context)).toEqual(
        success('Wrote 2 bytes to notes/hello.md'),
      );
    });

    it('answers bad arguments with LeMMing’s texts, in LeMMing’s order', async () => {
      expect(await fileWriteTool.run({ content: 'x' }, context)).toEqual(failure("Missing 'path' parameter"));
      expect(await fileWriteTool.run({ path: 'a.md' }, context)).toEqual(
        failure("Missing 'content' parameter"),
      );
      expect(await fileWriteTool.run({ path: 'a.md', content: null }, context)).toEqual(
        failure("Missing 'content' parameter"),
      );
      expect(await fileWriteTool.run({ path: 'a.md', content: 5 }, context)).toEqual(
        failure('Content must be a string'),
      );
      expect(await fileWriteTool.run({ path: ['a.md'], content: 'x' }, context)).toEqual(
        failure('Path must be a string'),
      );
    });

    it('accepts exactly 102400 characters and refuses one more, writing nothing', async () => {
      expect(
        await fileWriteTool.run({ path: 'max.txt', content: '👋'.repeat(FILE_WRITE_MAX_CHARS) }, context),
      ).toEqual(success('Wrote 102400 bytes to max.txt'));
      expect(
        await fileWriteTool.run({ path: 'over.txt', content: 'x'.repeat(FILE_WRITE_MAX_CHARS + 1) }, context),
      ).toEqual(failure('File content too large (102401 bytes). Max size is 102400 bytes.'));
      expect(await world.fs.stat(join(world.workspace, 'over.txt'))).toBeNull();
    });

    it('refuses paths outside and creates nothing there', async () => {
      expect(
        await fileWriteTool.run({ path: '../../b/workspace/secret.txt', content: 'x' }, context),
      ).toEqual(
        failure(
          `${SECURITY}: '../../b/workspace/secret.txt' is outside the folders you may write to (your workspace, shared/)`,
        ),
      );
      expect(await fileWriteTool.run({ path: 'dangling', content: 'x' }, context)).toEqual(
        failure(
          `${SECURITY}: 'dangling' goes through the symbolic link "dangling", whose target does not exist`,
        ),
      );
      expect(await world.fs.stat(join(world.outside, 'new-file.txt'))).toBeNull();
    });

    it('fails to write over a folder with LeMMing’s prefix', async () => {
      expect(await fileWriteTool.run({ path: 'sub', content: 'x' }, context)).toEqual(
        failure("Failed to write file: 'sub' is a folder, not a file"),
      );
    });
  });

  describe('file_list', () => {
    it('lists the workspace by default, folders ending in "/", names in order', async () => {
      const expected = success(
        [
          'dangling',
          'dangling-dir',
          'dangling-rel',
          'l1',
          'l2',
          'link-dir',
          'link-file',
          'link-ok',
          'link-org',
          'link-rel',
          'link-shared',
          'link-up',
          'loop1',
          'loop2',
          'notes.md',
          'sub/',
        ].join('\n'),
      );
      expect(await fileListTool.run({}, context)).toEqual(expected);
      expect(await fileListTool.run({ path: '.' }, context)).toEqual(expected);
      expect(await fileListTool.run({ path: '' }, context)).toEqual(expected);
      expect(await fileListTool.run({ path: 'sub' }, context)).toEqual(success('inner.md'));
    });

    it('lists the shared folder as "shared", with or without a slash', async () => {
      const expected = success('link-b\nlink-out\nreadme.md');
      expect(await fileListTool.run({ path: 'shared' }, context)).toEqual(expected);
      expect(await fileListTool.run({ path: 'shared/' }, context)).toEqual(expected);
    });

    it('answers a missing folder, a file and a path outside with LeMMing’s texts', async () => {
      expect(await fileListTool.run({ path: 'nope' }, context)).toEqual(
        failure("Directory 'nope' not found"),
      );
      expect(await fileListTool.run({ path: 'notes.md' }, context)).toEqual(
        failure("'notes.md' is not a directory"),
      );
      expect(await fileListTool.run({ path: '..' }, context)).toEqual(
        failure(`${SECURITY}: '..' is outside the folders you may read (your workspace, shared/)`),
      );
      expect(await fileListTool.run({ path: 7 }, context)).toEqual(failure('Path must be a string'));
    });
  });
});

describe('the LeMMing file tools never throw', () => {
  it('turns a file system that fails in unexpected ways into failed results', async () => {
    const broken = new MemoryAgentFilesystem({ '/org/agents/a/workspace/notes.md': 'n' });
    broken.readDir = () => Promise.reject(new Error('disk on fire'));
    broken.readTextFile = () => Promise.reject('not even an Error');
    const context = { sandbox: new AgentSandbox({ orgPath: '/org', agentDir: '/org/agents/a', fs: broken }) };
    expect(await fileListTool.run({}, context)).toEqual(
      failure("Failed to list files: '.' could not be used (disk on fire)"),
    );
    expect(await fileReadTool.run({ path: 'notes.md' }, context)).toEqual(
      failure("Failed to read file: 'notes.md' could not be used (not even an Error)"),
    );
  });
});

const toolFailed = (result: unknown) => !(result as ToolResult).success;

const LEMMING_TOOL_OPERATIONS: readonly AdversarialOperation[] = [
  { name: 'file_read', run: (path, sandbox) => fileReadTool.run({ path }, { sandbox }), failed: toolFailed },
  {
    name: 'file_write',
    run: (path, sandbox) => fileWriteTool.run({ path, content: 'written by the agent' }, { sandbox }),
    failed: toolFailed,
  },
  { name: 'file_list', run: (path, sandbox) => fileListTool.run({ path }, { sandbox }), failed: toolFailed },
];

describeAdversarialPaths('LeMMing’s file tools on every adversarial path', LEMMING_TOOL_OPERATIONS);
