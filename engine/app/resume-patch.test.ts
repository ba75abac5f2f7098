import { describe, expect, it } from 'vitest';
import { editJsonText } from '../files/json-edit';
import { resumeEdits } from './resume-patch';
import { otherFields } from './resume-view';

const RESUME = `{
  "name": "scout",
  "title": "Scout",
  "instructions": "Look around.",
  "model": {"key": "gpt-4o", "temperature": 0.2, "reasoning": {"effort": "low"}},
  "permissions": {"read_outboxes": ["human"], "tools": [], "file_access": {"allow_read": ["shared"], "note": "x"}},
  "schedule": {"run_every_n_ticks": 1, "phase_offset": 0},
  "x_team": "blue"
}
`;

function applied(text: string, patch: Parameters<typeof resumeEdits>[1]): string {
  const result = editJsonText(text, resumeEdits(JSON.parse(text), patch));
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

describe('resumeEdits', () => {
  it('changes only the fields in the patch, every other byte kept', () => {
    const text = applied(RESUME, { title: 'Lead scout', schedule: { run_every_n_ticks: 3 } });
    expect(text).toBe(
      RESUME.replace('"Scout"', '"Lead scout"').replace('"run_every_n_ticks": 1', '"run_every_n_ticks": 3'),
    );
  });

  it('null removes an optional field; nested unknown fields stay', () => {
    const after = JSON.parse(
      applied(RESUME, { model: { temperature: null }, permissions: { file_access: { allow_read: null } } }),
    );
    expect(after.model).toEqual({ key: 'gpt-4o', reasoning: { effort: 'low' } });
    expect(after.permissions.file_access).toEqual({ note: 'x' });
    expect(after.x_team).toBe('blue');
  });

  it('adds fields that were not there, creating their parents', () => {
    const after = JSON.parse(
      applied(RESUME, {
        permissions: { send_outboxes: ['human'], tool_kinds: ['file'] },
        credits: { max_credits: 50, soft_cap: 25 },
        tools_profile: 'codex',
      }),
    );
    expect(after.permissions.send_outboxes).toEqual(['human']);
    expect(after.permissions.tool_kinds).toEqual(['file']);
    expect(after.credits).toEqual({ max_credits: 50, soft_cap: 25 });
    expect(after.tools_profile).toBe('codex');
  });

  it('turns a legacy string model into an object only when the model is edited', () => {
    const legacy = RESUME.replace(
      '{"key": "gpt-4o", "temperature": 0.2, "reasoning": {"effort": "low"}}',
      '"gpt-4o"',
    );
    expect(resumeEdits(JSON.parse(legacy), { title: 'x' })).toEqual([{ path: ['title'], value: 'x' }]);
    expect(JSON.parse(applied(legacy, { model: { max_tokens: 512 } })).model).toEqual({
      key: 'gpt-4o',
      max_tokens: 512,
    });
  });

  it('an empty patch makes no edits', () => {
    expect(resumeEdits(JSON.parse(RESUME), {})).toEqual([]);
  });
});

describe('otherFields', () => {
  it('lists the fields the form does not edit, at every level it knows', () => {
    expect(otherFields(JSON.parse(RESUME))).toEqual([
      'x_team',
      'model.reasoning',
      'permissions.file_access.note',
    ]);
  });

  it('lists nothing for something that is not an object', () => {
    expect(otherFields(null)).toEqual([]);
    expect(otherFields('text')).toEqual([]);
  });
});
