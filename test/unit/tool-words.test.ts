import { describe, expect, it } from 'vitest';
import { toolWords } from '../../engine/api/tool-words';

describe('toolWords', () => {
  it('says the title the engine gives a tool', () => {
    const titles = new Map([
      ['mcp__everything__echo', 'Echo Tool'],
      ['read_file', 'Read a file'],
    ]);
    expect(toolWords('mcp__everything__echo', titles)).toBe('Echo Tool');
    expect(toolWords('read_file', titles)).toBe('Read a file');
    expect(toolWords('mcp__everything__echo', 'Echo Tool')).toBe('Echo Tool');
  });

  it('reads an id aloud when its title is not known', () => {
    expect(toolWords('mcp__everything__get_tiny_image')).toBe('Get tiny image (everything)');
    expect(toolWords('mcp__my-server__printEnv')).toBe('Print env (my-server)');
    expect(toolWords('http_request')).toBe('Http request');
  });

  it('reads aloud an MCP tool whose title is only its name', () => {
    expect(toolWords('mcp__notes__save_note', new Map([['mcp__notes__save_note', 'save_note']]))).toBe(
      'Save note (notes)',
    );
  });

  it('keeps an id that has no words in it', () => {
    expect(toolWords('__')).toBe('__');
  });
});
