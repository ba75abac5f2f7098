import { useCallback, useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { GlossaryLink } from '../../components/Glossary';
import {
  choiceOfCron,
  clockScheduleWords,
  cronOfChoice,
  type AgentDetail,
  type ClockChoice,
  type IpcError,
  type ResumePatch,
  type ResumeView,
} from '../../../../engine/api';
import { serverState } from '../../server-state/instance';
import { ErrorAlert } from '../../components/ErrorAlert';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { FileAccessEditor, ownersOf, privateFilesOf } from './FileAccessEditor';
import { SchedulePreviewLine } from './SchedulePreviewLine';
import { trimmedPath, useFileAccessPreview, type PathsPreview } from './use-file-access-preview';

/** What the user changed and has not saved; untouched fields follow the file as it changes. */
interface Draft {
  title?: string;
  instructions?: string;
  modelKey?: string;
  every?: string;
  offset?: string;
  /** How it runs: by ticks, or one of the clock choices. */
  runsBy?: RunsBy;
  clockTime?: string;
  clockHours?: string;
  cron?: string;
  maxCredits?: string;
  softCap?: string;
  allowRead?: string[];
  allowWrite?: string[];
}

type RunsBy = 'ticks' | ClockChoice['kind'];

const RUNS_BY_WORDS: Record<RunsBy, string> = {
  ticks: 'Every few ticks',
  daily: 'Every day at a time',
  weekdays: 'Every weekday (Monday to Friday) at a time',
  every_hours: 'Every few hours',
  cron: 'By a clock schedule of your own (see Advanced)',
};

/** The clock choice the draft describes; null when it runs by ticks. */
function clockChoiceOf(shown: {
  runsBy: RunsBy;
  clockTime: string;
  clockHours: string;
  cron: string;
}): ClockChoice | null {
  switch (shown.runsBy) {
    case 'ticks':
      return null;
    case 'daily':
    case 'weekdays':
      return { kind: shown.runsBy, time: shown.clockTime };
    case 'every_hours':
      return { kind: 'every_hours', hours: Number(shown.clockHours) };
    case 'cron':
      return { kind: 'cron', cron: shown.cron };
  }
}

function wholeNumber(text: string): number | null {
  return /^-?\d+$/.test(text.trim()) ? Number(text) : null;
}

function amount(text: string): number | null {
  const value = Number(text);
  return text.trim() !== '' && Number.isFinite(value) && value >= 0 ? value : null;
}

function shownValues(resume: ResumeView, draft: Draft) {
  const clock = resume.schedule.clock === null ? null : choiceOfCron(resume.schedule.clock);
  return {
    runsBy: draft.runsBy ?? clock?.kind ?? 'ticks',
    clockTime: draft.clockTime ?? (clock && 'time' in clock ? clock.time : '09:00'),
    clockHours: draft.clockHours ?? (clock?.kind === 'every_hours' ? String(clock.hours) : '2'),
    cron: draft.cron ?? resume.schedule.clock ?? '0 9 * * 1-5',
    title: draft.title ?? resume.title,
    instructions: draft.instructions ?? resume.instructions,
    modelKey: draft.modelKey ?? resume.model.key,
    every: draft.every ?? String(resume.schedule.run_every_n_ticks),
    offset: draft.offset ?? String(resume.schedule.phase_offset),
    maxCredits: draft.maxCredits ?? (resume.credits ? String(resume.credits.max_credits) : ''),
    softCap: draft.softCap ?? (resume.credits ? String(resume.credits.soft_cap) : ''),
    allowRead: draft.allowRead ?? resume.permissions.file_access?.allow_read ?? [],
    allowWrite: draft.allowWrite ?? resume.permissions.file_access?.allow_write ?? [],
  };
}

type Shown = ReturnType<typeof shownValues>;

/** The patch for what the draft changed, or the reason it cannot be saved. */
function patchFrom(draft: Draft, shown: Shown): { patch: ResumePatch } | { refused: string } {
  const patch: ResumePatch = {};
  if (draft.title !== undefined) patch.title = shown.title;
  if (draft.instructions !== undefined) patch.instructions = shown.instructions;
  if (draft.modelKey !== undefined) patch.model = { key: shown.modelKey };
  if (draft.every !== undefined || draft.offset !== undefined) {
    const every = wholeNumber(shown.every);
    const offset = wholeNumber(shown.offset);
    if (every === null || every < 1 || offset === null)
      return { refused: 'The schedule needs whole numbers: runs every 1 tick or more, and a phase offset.' };
    patch.schedule = { run_every_n_ticks: every, phase_offset: offset };
  }
  if (
    draft.runsBy !== undefined ||
    draft.clockTime !== undefined ||
    draft.clockHours !== undefined ||
    draft.cron !== undefined
  ) {
    const choice = clockChoiceOf(shown);
    const cron = choice === null ? null : cronOfChoice(choice);
    if (cron && !cron.ok) return { refused: `The time it runs: ${cron.error}.` };
    patch.schedule = { ...patch.schedule, clock: cron ? cron.value : null };
  }
  if (draft.maxCredits !== undefined || draft.softCap !== undefined) {
    const max = amount(shown.maxCredits);
    const soft = amount(shown.softCap);
    if (max === null || soft === null)
      return { refused: 'Credits need both a maximum and a soft cap, each a number of 0 or more.' };
    patch.credits = { max_credits: max, soft_cap: soft };
  }
  if (draft.allowRead !== undefined || draft.allowWrite !== undefined) {
    patch.permissions = {
      file_access: {
        ...(draft.allowRead !== undefined ? { allow_read: shown.allowRead.map(trimmedPath) } : {}),
        ...(draft.allowWrite !== undefined ? { allow_write: shown.allowWrite.map(trimmedPath) } : {}),
      },
    };
  }
  return { patch };
}

/** The other agents whose private files the write paths reach, each once. */
function otherAgentsReached(preview: PathsPreview): string[] {
  if (preview.status !== 'ready') return [];
  return [...new Set(preview.previews.flatMap((entry) => (entry.ok ? entry.otherAgents : [])))];
}

function pathsRefusal(previews: PathsPreview[]): string | null {
  if (previews.some((preview) => preview.status === 'pending'))
    return 'The paths are still being checked; try again in a moment.';
  if (previews.some((preview) => preview.status !== 'ready' || !preview.allOk))
    return 'Some file-access paths are refused (see the messages next to them). Fix or remove them before saving.';
  return null;
}

export function ResumeForm({
  agent,
  detail,
  resume,
  onSaved,
}: {
  agent: string;
  detail: AgentDetail;
  resume: ResumeView;
  onSaved(detail: AgentDetail): void;
}) {
  const id = useId();
  const [draft, setDraft] = useState<Draft>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const [error, setError] = useState<IpcError | null>(null);
  const [saving, setSaving] = useState(false);
  const [savedAt, setSavedAt] = useState<string | null>(null);
  const [asking, setAsking] = useState<{ others: string[]; patch: ResumePatch } | null>(null);
  const [models, setModels] = useState<string[]>([]);
  const shown = useMemo(() => shownValues(resume, draft), [resume, draft]);
  const readPreview = useFileAccessPreview(agent, shown.allowRead, 'read');
  const writePreview = useFileAccessPreview(agent, shown.allowWrite, 'write');
  const dirty = Object.keys(draft).length > 0;

  useEffect(() => {
    let live = true;
    void serverState()
      .read('models.list', {})
      .then((result) => {
        if (live && result.ok) setModels(result.value.models.map((model) => model.key));
      });
    return () => {
      live = false;
    };
  }, []);

  const change = useCallback((part: Draft) => {
    setDraft((current) => ({ ...current, ...part }));
    setSavedAt(null);
  }, []);

  async function save(event: FormEvent) {
    event.preventDefault();
    const built = patchFrom(draft, shown);
    const refused =
      'refused' in built
        ? built.refused
        : pathsRefusal([
            ...(draft.allowRead !== undefined ? [readPreview] : []),
            ...(draft.allowWrite !== undefined ? [writePreview] : []),
          ]);
    setRefusal(refused);
    if (refused || 'refused' in built) return;
    const others = draft.allowWrite !== undefined ? otherAgentsReached(writePreview) : [];
    if (others.length > 0) {
      setAsking({ others, patch: built.patch });
      return;
    }
    await saveNow(built.patch);
  }

  async function saveNow(patch: ResumePatch) {
    setAsking(null);
    setSaving(true);
    const result = await serverState().write('agent.update', { agent, patch });
    setSaving(false);
    if (!result.ok) return setError(result.error);
    setError(null);
    setDraft({});
    setSavedAt(new Date().toLocaleTimeString());
    onSaved(result.value);
  }

  const modelKeys = models.includes(shown.modelKey) ? models : [shown.modelKey, ...models];

  return (
    <form className="resume-form" aria-label={`Resume of ${detail.name}`} onSubmit={save}>
      <fieldset>
        <legend>Who it is</legend>
        <div className="form-grid">
          <label htmlFor={`${id}-title`}>Title</label>
          <input id={`${id}-title`} value={shown.title} onChange={(e) => change({ title: e.target.value })} />
          <label htmlFor={`${id}-model`}>Model</label>
          <select
            id={`${id}-model`}
            value={shown.modelKey}
            onChange={(e) => change({ modelKey: e.target.value })}
          >
            {modelKeys.map((key) => (
              <option key={key} value={key}>
                {key}
              </option>
            ))}
          </select>
        </div>
        <label htmlFor={`${id}-instructions`} className="block-label">
          Instructions
        </label>
        <textarea
          id={`${id}-instructions`}
          rows={6}
          value={shown.instructions}
          onChange={(e) => change({ instructions: e.target.value })}
        />
      </fieldset>

      <fieldset>
        <legend>Schedule</legend>
        <p className="help">
          Which <GlossaryLink term="tick" plural /> this agent acts in, or at what time of day. “Phase offset”
          moves its turns later: with every 3 ticks and an offset of 2 it acts in ticks 2, 5, 8…
        </p>
        <div className="form-grid">
          <label htmlFor={`${id}-runs-by`}>When it runs</label>
          <select
            id={`${id}-runs-by`}
            value={shown.runsBy}
            onChange={(e) => change({ runsBy: e.target.value as RunsBy })}
          >
            {(Object.keys(RUNS_BY_WORDS) as RunsBy[]).map((runsBy) => (
              <option key={runsBy} value={runsBy}>
                {RUNS_BY_WORDS[runsBy]}
              </option>
            ))}
          </select>
          {(shown.runsBy === 'daily' || shown.runsBy === 'weekdays') && (
            <>
              <label htmlFor={`${id}-clock-time`}>At (this computer's time)</label>
              <input
                id={`${id}-clock-time`}
                type="time"
                value={shown.clockTime}
                onChange={(e) => change({ clockTime: e.target.value })}
              />
            </>
          )}
          {shown.runsBy === 'every_hours' && (
            <>
              <label htmlFor={`${id}-clock-hours`}>Hours between turns</label>
              <input
                id={`${id}-clock-hours`}
                inputMode="numeric"
                value={shown.clockHours}
                onChange={(e) => change({ clockHours: e.target.value })}
              />
            </>
          )}
        </div>
        {shown.runsBy !== 'ticks' && <ClockScheduleLine shown={shown} />}
        <details>
          <summary>Advanced</summary>
          <div className="form-grid">
            <label htmlFor={`${id}-cron`}>Clock schedule (cron: minute hour day month weekday)</label>
            <input
              id={`${id}-cron`}
              value={clockCronOf(shown)}
              onChange={(e) => change({ runsBy: 'cron', cron: e.target.value })}
              spellCheck={false}
            />
          </div>
          <p className="help">
            Kept as <code>schedule.clock</code> in the resume; LeMMing ignores it and runs the agent by its
            tick schedule instead.
          </p>
        </details>
        {shown.runsBy === 'ticks' && (
          <div className="form-grid">
            <label htmlFor={`${id}-every`}>Runs every … ticks</label>
            <input
              id={`${id}-every`}
              inputMode="numeric"
              value={shown.every}
              onChange={(e) => change({ every: e.target.value })}
            />
            <label htmlFor={`${id}-offset`}>Phase offset</label>
            <input
              id={`${id}-offset`}
              inputMode="numeric"
              value={shown.offset}
              onChange={(e) => change({ offset: e.target.value })}
            />
          </div>
        )}
        {shown.runsBy === 'ticks' && (
          <SchedulePreviewLine every={wholeNumber(shown.every)} offset={wholeNumber(shown.offset)} />
        )}
      </fieldset>

      <fieldset>
        <legend>Credits</legend>
        <div className="form-grid">
          <label htmlFor={`${id}-max`}>Maximum credits</label>
          <input
            id={`${id}-max`}
            inputMode="decimal"
            value={shown.maxCredits}
            onChange={(e) => change({ maxCredits: e.target.value })}
          />
          <label htmlFor={`${id}-soft`}>Soft cap</label>
          <input
            id={`${id}-soft`}
            inputMode="decimal"
            value={shown.softCap}
            onChange={(e) => change({ softCap: e.target.value })}
          />
        </div>
        <p className="help">
          The maximum is what the agent starts with. Once it has spent its soft cap of that, you are told
          (once, and again after you top it up); it does not stop the agent. Budgets per day or month stop it.
        </p>
        <p className="help">
          Balance now:{' '}
          {detail.balance === null ? 'not started yet (set on its first turn)' : `${detail.balance} credits`}
        </p>
      </fieldset>

      <div className="file-access-editors">
        <FileAccessEditor
          agent={detail.name}
          title="Folders and files it may read"
          entryLabel="Readable path"
          help="Paths inside the org folder, written from the org folder (for example shared/reports). Its own workspace is always readable."
          entries={shown.allowRead}
          preview={readPreview}
          onChange={(entries) => change({ allowRead: entries })}
        />
        <FileAccessEditor
          agent={detail.name}
          title="Folders and files it may write"
          entryLabel="Writable path"
          help="Paths inside the org folder, written from the org folder, where it may create and change files. Agents' settings, outboxes and the org's configuration can never be written."
          entries={shown.allowWrite}
          preview={writePreview}
          onChange={(entries) => change({ allowWrite: entries })}
        />
      </div>

      <ConfirmDialog
        open={asking !== null}
        title={`Let ${detail.name} change ${privateFilesOf(asking?.others ?? [])}?`}
        confirmLabel="Allow and save"
        destructive
        onConfirm={() => asking && void saveNow(asking.patch)}
        onCancel={() => setAsking(null)}
      >
        <p>
          A workspace is an agent’s own folder for its drafts and notes. With this, {detail.name} can change
          or delete the files in {ownersOf(asking?.others ?? [])}{' '}
          {asking && asking.others.length > 1 ? 'workspaces' : 'workspace'}.
        </p>
      </ConfirmDialog>
      {refusal && (
        <p className="inline-alert" role="alert">
          <strong>Not saved.</strong> {refusal}
        </p>
      )}
      {error && <ErrorAlert error={error} title="Not saved." />}
      <div className="form-actions sticky-actions">
        <button type="submit" className="primary-button" disabled={!dirty || saving}>
          {saving ? 'Saving…' : 'Save changes'}
        </button>
        <button
          type="button"
          disabled={!dirty || saving}
          onClick={() => {
            setDraft({});
            setRefusal(null);
            setError(null);
          }}
        >
          Discard changes
        </button>
        <span role="status" className="muted">
          {savedAt ? `Saved to ${detail.file} at ${savedAt}.` : dirty ? 'Unsaved changes.' : ''}
        </span>
      </div>
    </form>
  );
}

/** The cron line the shown choice makes, for the Advanced field; the text typed when it is one's own. */
function clockCronOf(shown: Shown): string {
  const choice = clockChoiceOf(shown);
  if (choice === null || choice.kind === 'cron') return shown.cron;
  const cron = cronOfChoice(choice);
  return cron.ok ? cron.value : shown.cron;
}

/** The clock schedule as typed, in words, or what is wrong with it. */
function ClockScheduleLine({ shown }: { shown: Shown }) {
  const choice = clockChoiceOf(shown);
  if (choice === null) return null;
  const cron = cronOfChoice(choice);
  return cron.ok ? (
    <p className="help" role="status">
      It runs {clockScheduleWords(cron.value)}, at the first tick at or after that time (once, however many
      times it was missed while the app was closed).
    </p>
  ) : (
    <p className="inline-alert" role="alert">
      The time it runs: {cron.error}.
    </p>
  );
}
