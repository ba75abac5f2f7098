import type { ResumeView } from '../api/agent-schemas';
import { LEMMING_FIELD_ORDER } from '../org/resume-file';
import type { Resume } from '../org/resume-schema';

/** The fields the agent form edits, by the object they sit in ('' is the top level): LeMMing's and ours. */
const FORM_FIELDS: Record<string, readonly string[]> = {
  ...LEMMING_FIELD_ORDER,
  '': [...(LEMMING_FIELD_ORDER[''] ?? []), 'tools_profile', 'switched_off'],
  schedule: [...(LEMMING_FIELD_ORDER.schedule ?? []), 'clock'],
  permissions: [...(LEMMING_FIELD_ORDER.permissions ?? []), 'send_outboxes', 'file_access', 'tool_kinds'],
  'permissions.file_access': ['allow_read', 'allow_write'],
};

/** The resume as the form shows it: every optional field present, null when absent. */
export function resumeView(resume: Resume): ResumeView {
  const { model, permissions, credits } = resume;
  const fileAccess = permissions.file_access;
  return {
    name: resume.name,
    title: resume.title,
    short_description: resume.short_description ?? null,
    workflow_description: resume.workflow_description ?? null,
    instructions: resume.instructions,
    model: { key: model.key, temperature: model.temperature ?? null, max_tokens: model.max_tokens ?? null },
    permissions: {
      read_outboxes: permissions.read_outboxes,
      tools: permissions.tools,
      send_outboxes: permissions.send_outboxes ?? null,
      file_access: fileAccess
        ? { allow_read: fileAccess.allow_read ?? null, allow_write: fileAccess.allow_write ?? null }
        : null,
      tool_kinds: permissions.tool_kinds ?? null,
    },
    schedule: {
      run_every_n_ticks: resume.schedule.run_every_n_ticks,
      phase_offset: resume.schedule.phase_offset,
      clock: resume.schedule.clock ?? null,
    },
    credits: credits ? { max_credits: credits.max_credits, soft_cap: credits.soft_cap } : null,
    tools_profile: resume.tools_profile ?? null,
    switched_off: resume.switched_off === true,
  };
}

/** Dotted paths of the fields in the file that the form does not edit (kept as they are on every save). */
export function otherFields(raw: unknown): string[] {
  const found: string[] = [];
  for (const [at, known] of Object.entries(FORM_FIELDS)) {
    const object = at === '' ? raw : valueAt(raw, at.split('.'));
    if (!isRecord(object)) continue;
    for (const key of Object.keys(object))
      if (!known.includes(key)) found.push(at === '' ? key : `${at}.${key}`);
  }
  return found;
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let value = root;
  for (const key of path) value = isRecord(value) ? value[key] : undefined;
  return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
