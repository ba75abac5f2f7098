import { ApprovalSettings } from '../api/approval-schemas';
import { boundConfigFile, type ConfigFileSpec } from './config-file';

/** This app's approval settings ("ask me first"); LeMMing ignores the file. */
export const APPROVALS_FILE = 'lemming/config/approvals.json';

export const APPROVALS_SPEC: ConfigFileSpec<typeof ApprovalSettings> = {
  file: APPROVALS_FILE,
  schema: ApprovalSettings,
  defaultDocument: {},
};

/**
 * The org's approval settings (a missing file means the built-in rules and the default timeout), and
 * edits to them in place: unknown fields and untouched bytes stay.
 */
export const { read: readApprovals, update: updateApprovals } = boundConfigFile(APPROVALS_SPEC);
