import { describe, expect, it } from 'vitest';
import { toggledGrants, type Grantable } from './tool-grants';

const fileRead: Grantable = { name: 'file_read', grantedBy: ['file_read', 'group:fs'] };
const fileWrite: Grantable = { name: 'file_write', grantedBy: ['file_write', 'group:fs'] };
const fileList: Grantable = { name: 'file_list', grantedBy: ['file_list', 'group:fs'] };
const shell: Grantable = { name: 'shell', grantedBy: ['shell', 'group:shell'] };
const catalog = [fileRead, fileWrite, fileList, shell];

describe('toggledGrants', () => {
  it('turning a tool on adds its name at the end', () => {
    expect(toggledGrants(['memory_read'], shell, catalog, true)).toEqual(['memory_read', 'shell']);
  });

  it('turning on a tool a group already grants changes nothing', () => {
    expect(toggledGrants(['group:fs'], fileRead, catalog, true)).toEqual(['group:fs']);
  });

  it('turning a tool off removes its name and keeps the rest in order', () => {
    expect(toggledGrants(['memory_read', 'shell', 'file_read'], shell, catalog, false)).toEqual([
      'memory_read',
      'file_read',
    ]);
  });

  it('turning off one tool of a group replaces the group, in place, by the others it granted', () => {
    expect(toggledGrants(['memory_read', 'group:fs', 'shell'], fileWrite, catalog, false)).toEqual([
      'memory_read',
      'file_read',
      'file_list',
      'shell',
    ]);
  });

  it('turning off a tool granted both by name and by group removes both, and lists no name twice', () => {
    expect(toggledGrants(['file_read', 'group:fs', 'file_list'], fileList, catalog, false)).toEqual([
      'file_read',
      'file_write',
    ]);
  });

  it('turning off a tool that is not granted changes nothing', () => {
    expect(toggledGrants(['memory_read'], shell, catalog, false)).toEqual(['memory_read']);
  });
});
