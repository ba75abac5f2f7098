import type { ResumePatch } from '../api/agent-schemas';
import type { JsonEdit } from '../files/json-edit';

/**
 * The text edits a form patch makes to resume.json: one per field present, `null` removing an
 * optional field. Lists are set whole (the editor rewrites only what differs). A legacy string
 * `model` becomes an object only when the model is edited.
 */
export function resumeEdits(raw: Record<string, unknown>, patch: ResumePatch): JsonEdit[] {
  const edits: JsonEdit[] = [];
  const put = (path: readonly string[], value: unknown) =>
    edits.push(value === null ? { path, remove: true } : { path, value });

  for (const key of [
    'title',
    'short_description',
    'workflow_description',
    'instructions',
    'tools_profile',
  ] as const) {
    if (patch[key] !== undefined) put([key], patch[key]);
  }

  if (patch.model) {
    if (typeof raw.model === 'string') {
      const model: Record<string, unknown> = { key: raw.model };
      for (const [field, value] of Object.entries(patch.model)) {
        if (value === null) delete model[field];
        else model[field] = value;
      }
      put(['model'], model);
    } else {
      for (const [field, value] of Object.entries(patch.model)) put(['model', field], value);
    }
  }

  const permissions = patch.permissions;
  if (permissions) {
    for (const field of ['read_outboxes', 'tools', 'send_outboxes', 'tool_kinds'] as const) {
      if (permissions[field] !== undefined) put(['permissions', field], permissions[field]);
    }
    const fileAccess = permissions.file_access;
    if (fileAccess === null) put(['permissions', 'file_access'], null);
    else if (fileAccess) {
      for (const [field, value] of Object.entries(fileAccess))
        put(['permissions', 'file_access', field], value);
    }
  }

  if (patch.schedule) {
    for (const [field, value] of Object.entries(patch.schedule)) put(['schedule', field], value);
  }
  if (patch.switched_off !== undefined) put(['switched_off'], patch.switched_off ? true : null);
  if (patch.credits !== undefined) {
    if (patch.credits === null) put(['credits'], null);
    else for (const [field, value] of Object.entries(patch.credits)) put(['credits', field], value);
  }
  return edits;
}
