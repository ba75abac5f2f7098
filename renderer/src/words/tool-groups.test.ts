import { describe, expect, it } from 'vitest';
import { groupByEffect, groupByServer, searchTools } from './tool-groups';

const tools = [
  { id: 'read_file', title: 'Read a file', readOnly: true },
  { id: 'mcp__everything__echo', title: 'Echo Tool', readOnly: true },
  { id: 'mcp__notes__save_note', title: 'Save a note', readOnly: false },
  { id: 'mcp__everything__add', title: 'Add Tool', readOnly: false },
];

describe('tool groups', () => {
  it('puts the app’s own tools first, then each server’s tools', () => {
    expect(
      groupByServer(tools, (tool) => tool.id).map((group) => [
        group.label,
        group.tools.map((tool) => tool.id),
      ]),
    ).toEqual([
      ['The app’s own tools', ['read_file']],
      ['From everything', ['mcp__everything__echo', 'mcp__everything__add']],
      ['From notes', ['mcp__notes__save_note']],
    ]);
  });

  it('puts the tools that only read before those that change things, leaving out an empty group', () => {
    expect(groupByEffect(tools, (tool) => tool.readOnly).map((group) => group.tools.length)).toEqual([2, 2]);
    expect(groupByEffect(tools.slice(0, 2), (tool) => tool.readOnly).map((group) => group.label)).toEqual([
      'Reads only (as the server says)',
    ]);
  });

  it('finds a tool by any of its words, every word of the query counting', () => {
    const words = (tool: (typeof tools)[number]) => [tool.title, tool.id];
    expect(searchTools(tools, 'echo', words).map((tool) => tool.id)).toEqual(['mcp__everything__echo']);
    expect(searchTools(tools, 'EVERYTHING tool', words)).toHaveLength(2);
    expect(searchTools(tools, '  ', words)).toHaveLength(4);
    expect(searchTools(tools, 'nothing like it', words)).toEqual([]);
  });
});
