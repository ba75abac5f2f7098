import { ApprovalSettings } from '../api/approval-schemas';
import type { JsonEdit } from '../files/json-edit';
import {
  readConfigFile,
  updateConfigFile,
  type ConfigFileSpec,
  type ConfigRead,
  type ConfigUpdate,
} from './config-file';

/** This app's approval settings ("ask me first"); LeMMing ignores the file. */
export const APPROVALS_FILE = 'lemming/config/approvals.json';

export const APPROVALS_SPEC: ConfigFileSpec<typeof ApprovalSettings> = {
  file: APPROVALS_FILE,
  schema: ApprovalSettings,
  defaultDocument: {},
};

/** The org's approval settings; a missing file means the built-in rules and the default timeout. */
export function readApprovals(orgPath: string): Promise<ConfigRead<ApprovalSettings>> {
  return readConfigFile(orgPath, APPROVALS_SPEC);
}

/** Edits the file in place: unknown fields and untouched bytes stay. */
export function updateApprovals(
  orgPath: string,
  edits: readonly JsonEdit[],
): Promise<ConfigUpdate<ApprovalSettings>> {
  return updateConfigFile(orgPath, APPROVALS_SPEC, edits);
}
