import type { Resume } from '../org/resume-schema';
import type { ReadableSenders } from './message-store';

/** The outboxes `resume`'s agent may read. */
export function readableSenders(resume: Resume): ReadableSenders {
  const sources = resume.permissions.read_outboxes;
  if (sources.includes('*')) return { all: true, except: resume.name };
  return { all: false, senders: sources.filter((source) => source !== resume.name) };
}
