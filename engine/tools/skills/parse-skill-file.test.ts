import { describe, expect, it } from 'vitest';
import { parseSkillFile } from './parse-skill-file';

const where = { folder: 'generate-image', file: 'agents/somi/skills/generate-image/SKILL.md' };
const parse = (text: string) => parseSkillFile(text, where);

describe('reading a SKILL.md', () => {
  it('reads name, description, the tool it dispatches to, and the markdown body', () => {
    const read = parse(
      '---\nname: generate-image\ndescription: Make an image from a prompt.\ncommand-dispatch: tool\ncommand-tool: generate_image\n---\n\n# generate-image\nCall the tool with a detailed prompt.\n',
    );
    expect(read.problems).toEqual([]);
    expect(read.skill).toEqual({
      name: 'generate-image',
      folder: 'generate-image',
      file: where.file,
      description: 'Make an image from a prompt.',
      dispatch: { tool: 'generate_image', argMode: 'object' },
      shownToModel: true,
      body: '# generate-image\nCall the tool with a detailed prompt.\n',
      frontmatter: {
        name: 'generate-image',
        description: 'Make an image from a prompt.',
        'command-dispatch': 'tool',
        'command-tool': 'generate_image',
      },
    });
  });

  it('reads the dispatch keys where the OpenClaw guide puts them, under metadata.openclaw', () => {
    const read = parse(
      '---\nname: generate-image\ndescription: Images.\nmetadata: {"openclaw":{"command-dispatch":"tool","command-tool":"generate_image","command-arg-mode":"raw"}}\n---\nbody',
    );
    expect(read.problems).toEqual([]);
    expect(read.skill?.dispatch).toEqual({ tool: 'generate_image', argMode: 'raw' });
  });

  it('a skill without dispatch keys only instructs; a BOM and CRLF line ends are fine', () => {
    const read = parse(
      '\uFEFF---\r\nname: generate-image\r\ndescription: Write better.\r\n---\r\nUse short sentences.',
    );
    expect(read.skill?.dispatch).toBeNull();
    expect(read.skill?.body).toBe('Use short sentences.');
  });

  it('keeps keys it does not use and reports each with its line', () => {
    const read = parse('---\nname: generate-image\ndescription: d\nuser-invocable: true\nemoji: "🎨"\n---\n');
    expect(read.skill?.frontmatter).toMatchObject({ 'user-invocable': true, emoji: '🎨' });
    expect(read.problems).toEqual([
      {
        severity: 'warning',
        file: where.file,
        field: 'user-invocable',
        message: '"user-invocable" is not used by LeMMing Desktop; it is kept in the file',
        line: 4,
      },
      {
        severity: 'warning',
        file: where.file,
        field: 'emoji',
        message: '"emoji" is not used by LeMMing Desktop; it is kept in the file',
        line: 5,
      },
    ]);
  });

  it('names the folder when no name is given, and warns when the name differs from the folder', () => {
    const unnamed = parse('---\ndescription: d\n---\n');
    expect(unnamed.skill?.name).toBe('generate-image');
    expect(unnamed.problems).toEqual([
      expect.objectContaining({
        severity: 'warning',
        field: 'name',
        message: expect.stringMatching(/called by its folder name "generate-image"/),
      }),
    ]);
    const other = parse('---\nname: draw\ndescription: d\n---\n');
    expect(other.skill?.name).toBe('draw');
    expect(other.problems).toEqual([
      expect.objectContaining({
        field: 'name',
        line: 2,
        message: 'the skill is named "draw" but lives in folder "generate-image"',
      }),
    ]);
  });

  it('hides a skill from the model when disable-model-invocation is true', () => {
    expect(
      parse('---\nname: generate-image\ndescription: d\ndisable-model-invocation: true\n---\n').skill
        ?.shownToModel,
    ).toBe(false);
  });

  const errors: [string, string, { field: string; message: RegExp; line: number }][] = [
    ['no frontmatter', '# Just markdown\n', { field: '', message: /must start with frontmatter/, line: 1 }],
    [
      'an unclosed frontmatter',
      '---\nname: x\ndescription: d\n',
      { field: '', message: /must start with frontmatter/, line: 1 },
    ],
    [
      'invalid YAML',
      '---\nname: generate-image\ndescription: [unclosed\nother: 1\n---\n',
      { field: '', message: /^invalid YAML: Flow sequence/, line: 4 },
    ],
    [
      'a duplicate key',
      '---\nname: a\ndescription: d\nname: b\n---\n',
      { field: '', message: /^invalid YAML: Map keys must be unique/, line: 4 },
    ],
    [
      'a missing description',
      '---\nname: generate-image\n---\n',
      { field: 'description', message: /^missing required field "description"$/, line: 2 },
    ],
    [
      'a description that is not text',
      '---\nname: generate-image\ndescription: [a, b]\n---\n',
      { field: 'description', message: /description must be text/, line: 3 },
    ],
    [
      'a bad name',
      '---\nname: "has spaces"\ndescription: d\n---\n',
      { field: 'name', message: /name may use only letters/, line: 2 },
    ],
    [
      'an unknown dispatch',
      '---\nname: generate-image\ndescription: d\ncommand-dispatch: shell\n---\n',
      { field: 'command-dispatch', message: /may only be "tool"/, line: 4 },
    ],
    [
      'dispatch without a tool',
      '---\nname: generate-image\ndescription: d\ncommand-dispatch: tool\n---\n',
      { field: 'command-tool', message: /needs command-tool/, line: 2 },
    ],
    [
      'a tool name that is not one',
      '---\nname: generate-image\ndescription: d\ncommand-dispatch: tool\ncommand-tool: "rm -rf"\n---\n',
      { field: 'command-tool', message: /must be a tool name/, line: 5 },
    ],
    [
      'top level and metadata disagreeing',
      '---\nname: generate-image\ndescription: d\ncommand-dispatch: tool\ncommand-tool: a_tool\nmetadata: {"openclaw":{"command-tool":"other_tool"}}\n---\n',
      {
        field: 'metadata.openclaw.command-tool',
        message: /says "other_tool" but command-tool says "a_tool"/,
        line: 6,
      },
    ],
    [
      'frontmatter that is a list',
      '---\n- a\n- b\n---\n',
      { field: '', message: /must be a list of "key: value" lines/, line: 2 },
    ],
  ];
  it.each(errors)('refuses %s, naming field and line', (_, text, expected) => {
    const read = parse(text);
    expect(read.skill).toBeNull();
    expect(read.problems[0]).toEqual({
      severity: 'error',
      file: where.file,
      field: expected.field,
      message: expect.stringMatching(expected.message),
      line: expected.line,
    });
  });

  it('warns that command-tool alone does nothing', () => {
    const read = parse('---\nname: generate-image\ndescription: d\ncommand-tool: generate_image\n---\n');
    expect(read.skill?.dispatch).toBeNull();
    expect(read.problems).toEqual([
      expect.objectContaining({ severity: 'warning', field: 'command-tool', line: 4 }),
    ]);
  });
});
