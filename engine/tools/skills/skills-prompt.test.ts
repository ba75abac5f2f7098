import { describe, expect, it } from 'vitest';
import { parseSkillFile } from './parse-skill-file';
import type { Skill } from './skill';
import { createRedactor } from '../../secrets/redactor';
import { skillsPrompt } from './skills-prompt';

const NO_SECRETS = createRedactor();

function skill(name: string, frontmatter: string, body = ''): Skill {
  const read = parseSkillFile(`---\nname: ${name}\n${frontmatter}---\n${body}`, {
    folder: name,
    file: `agents/ada/skills/${name}/SKILL.md`,
  });
  if (!read.skill) throw new Error(JSON.stringify(read.problems));
  return read.skill;
}

const styleGuide = skill('style-guide', 'description: How we write.\n', 'Short sentences.\nNo jargon.\n');
const paint = skill(
  'paint',
  'description: Make an image.\ncommand-dispatch: tool\ncommand-tool: generate_image\n',
  'Describe the scene in detail.',
);
const shout = skill(
  'shout',
  'description: Say it loud.\ncommand-dispatch: tool\ncommand-tool: echo_args\ncommand-arg-mode: raw\n',
);
const hidden = skill(
  'internal',
  'description: Only for people.\ndisable-model-invocation: true\n',
  'Secret procedure.',
);

describe("the skills part of an agent's context", () => {
  it('lists each skill with its description, how to invoke it and its instructions', () => {
    expect(skillsPrompt([styleGuide, paint, shout], NO_SECRETS)).toBe(
      [
        '## Skills',
        'Each skill explains how to do one kind of task. When a task matches a skill, follow it.',
        '',
        '### style-guide',
        'How we write.',
        'Short sentences.\nNo jargon.',
        '',
        '### paint',
        'Make an image.',
        'Use it by calling the tool "generate_image".',
        'Describe the scene in detail.',
        '',
        '### shout',
        'Say it loud.',
        'Use it by calling the tool "echo_args" with {"command": "<what you want, as text>"}.',
      ].join('\n'),
    );
  });

  it('says which skills cannot be used now and why, without their instructions', () => {
    const prompt = skillsPrompt([styleGuide, paint], NO_SECRETS, {
      usability: new Map([
        [
          'paint',
          {
            usable: false,
            reason: 'it runs the tool "generate_image", which is not available: the org denies it',
            fix: null,
          },
        ],
      ]),
    });
    expect(prompt).toContain('### style-guide');
    expect(prompt).not.toContain('### paint');
    expect(prompt).not.toContain('Describe the scene');
    expect(
      prompt.endsWith(
        '## Skills you cannot use now\n- paint: it runs the tool "generate_image", which is not available: the org denies it',
      ),
    ).toBe(true);
  });

  it('leaves out skills hidden from the model, and is empty when nothing is left', () => {
    expect(skillsPrompt([hidden], NO_SECRETS)).toBe('');
    expect(skillsPrompt([], NO_SECRETS)).toBe('');
    expect(skillsPrompt([hidden, styleGuide], NO_SECRETS)).not.toContain('Secret procedure');
  });

  it('cuts long instructions, saying how much is left out', () => {
    const long = skill('long', 'description: d\n', 'x'.repeat(5000));
    const prompt = skillsPrompt([long], NO_SECRETS, { maxBodyLength: 100 });
    expect(prompt).toContain(`${'x'.repeat(100)}\n[… 4900 more characters of this skill are left out]`);
    expect(prompt).not.toContain('x'.repeat(101));
  });

  it('cuts them after redaction: no first characters of a stored secret, plain or base64, stay at the cut', () => {
    const token = 'tok-skill-Bv6Tn2Qm8Ws4';
    const redaction = createRedactor([{ name: 'SERVICE_TOKEN', value: token }]);
    for (const spelling of [token, Buffer.from(token).toString('base64')])
      for (const kept of [8, 13, token.length - 1]) {
        const long = skill('long', 'description: d\n', `${'x'.repeat(100 - kept)}${spelling} and more`);
        const prompt = skillsPrompt([long], redaction, { maxBodyLength: 100 });
        expect(prompt).toContain('x'.repeat(100 - kept));
        expect(prompt).not.toContain(spelling.slice(0, 8));
      }
  });
});
