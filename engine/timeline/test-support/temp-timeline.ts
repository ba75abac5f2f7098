import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  openTimeline,
  type OpenTimelineOptions,
  type OpenTimelineResult,
  type TimelineStore,
} from '../timeline-store';

/** A temp folder for one test, with helpers to open timelines in it; `cleanup` closes and deletes. */
export async function tempTimelineDir(): Promise<{
  dir: string;
  open: (name?: string, options?: OpenTimelineOptions) => TimelineStore;
  openResult: (name: string, options?: OpenTimelineOptions) => OpenTimelineResult;
  cleanup: () => Promise<void>;
}> {
  const dir = await mkdtemp(join(tmpdir(), 'lemming-timeline-'));
  const opened: TimelineStore[] = [];
  return {
    dir,
    open(name = 'timeline.sqlite', options = {}) {
      const result = openTimeline(join(dir, name), options);
      if (!result.ok) throw new Error(result.error.message);
      opened.push(result.timeline);
      return result.timeline;
    },
    openResult(name, options = {}) {
      const result = openTimeline(join(dir, name), options);
      if (result.ok) opened.push(result.timeline);
      return result;
    },
    async cleanup() {
      for (const timeline of opened) timeline.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
