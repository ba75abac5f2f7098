import { chmodSync, cpSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OrgEngine } from '../run/org-engine';
import { engineWorld } from '../run/test-support/engine-world';
import { TEMPLATES } from '../run/test-support/temp-org';
import { discoverAgents } from '../org/discover';
import { createOrgFromTemplate, openTemplate, templateGallery, templateNames } from './templates';
import { updateModels } from './models';
import { sendJson, startLoopbackServer } from '../models/test-support/loopback-server';
import { chatCompletion } from '../models/test-support/chat-completion';

const GALLERY = ['research-desk', 'content-pipeline', 'inbox-triage', 'code-review', 'personal-ops'];

const world = engineWorld();

function timelineEvents(engine: OrgEngine): Record<string, any>[] {
  const events = [];
  let cursor: number | null = null;
  do {
    const page = engine.timeline.page({ direction: 'asc', cursor, limit: 1000 });
    events.push(...page.rows.map((row) => JSON.parse(row.json) as Record<string, any>));
    cursor = page.nextCursor;
  } while (cursor !== null);
  return events;
}

/** Sets the modes of everything under `folder` (the folder itself too), deepest first. */
function setModes(folder: string, folderMode: number, fileMode: number): void {
  chmodSync(folder, 0o755);
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) setModes(path, folderMode, fileMode);
    else chmodSync(path, fileMode);
  }
  chmodSync(folder, folderMode);
}

async function created(name: string): Promise<string> {
  const target = join(world.orgs.build({}), '..', name);
  const made = await createOrgFromTemplate(TEMPLATES, name, target);
  if (!made.ok) throw new Error(made.error.message);
  return made.value.path;
}

describe('the template gallery', () => {
  it('offers five templates, each with its purpose, what each agent does and who hears from whom', async () => {
    const gallery = await templateGallery(TEMPLATES);
    if (!gallery.ok) throw new Error(gallery.error.message);
    expect(gallery.value.problems).toEqual([]);
    expect(gallery.value.templates.map((card) => card.name)).toEqual(GALLERY);
    for (const card of gallery.value.templates) {
      expect(card.title.length, card.name).toBeGreaterThan(3);
      expect(card.purpose.length, card.name).toBeGreaterThan(30);
      expect(card.agents.length, card.name).toBeGreaterThanOrEqual(3);
      for (const agent of card.agents) expect(agent.does, `${card.name}/${agent.name}`).not.toBe(agent.title);
      expect(card.agents.map((agent) => agent.name)).not.toContain('human');
      const drawn = new Set(card.edges.flatMap((edge) => [edge.from, edge.to]));
      for (const agent of card.agents) expect(drawn, `${card.name}/${agent.name}`).toContain(agent.name);
    }
    const agentsOf = (name: string) =>
      gallery.value.templates.find((card) => card.name === name)!.agents.map((agent) => agent.name);
    expect(agentsOf('research-desk')).toEqual(['scout', 'analyst', 'editor']);
    expect(agentsOf('inbox-triage')).toEqual(['sorter', 'drafter', 'digest']);
    const content = gallery.value.templates.find((card) => card.name === 'content-pipeline')!;
    expect(content.edges).toContainEqual({ from: 'writer', to: 'fact_checker' });
    expect(content.edges).toContainEqual({ from: 'editor', to: 'human' });
  });

  it('lists the network only for the research desk, and there only its scout', async () => {
    const gallery = await templateGallery(TEMPLATES);
    if (!gallery.ok) throw new Error(gallery.error.message);
    const reach = Object.fromEntries(
      gallery.value.templates.map((card) => [
        card.name,
        card.reach.map((item) => `${item.kind} ${item.subject}`),
      ]),
    );
    expect(reach).toEqual({
      'research-desk': ['web scout'],
      'content-pipeline': [],
      'inbox-triage': [],
      'code-review': [],
      'personal-ops': [],
    });
  });

  it('shows the others when one template cannot be read, and says what is wrong with it', async () => {
    const shelf = join(world.orgs.build({}), 'templates');
    cpSync(TEMPLATES, shelf, { recursive: true });
    writeFileSync(join(shelf, 'code-review', 'template.json'), '{ "title": "Code review" ');
    writeFileSync(join(shelf, 'gallery.json'), JSON.stringify([...GALLERY, '../examples/demo-org']));
    const gallery = await templateGallery(shelf);
    if (!gallery.ok) throw new Error(gallery.error.message);
    expect(gallery.value.templates.map((card) => card.name)).toEqual(
      GALLERY.filter((name) => name !== 'code-review'),
    );
    expect(gallery.value.problems).toEqual([
      {
        template: 'code-review',
        message: expect.stringMatching(/code-review.template\.json is not valid JSON/),
      },
      {
        template: '../examples/demo-org',
        message: expect.stringContaining('lists “../examples/demo-org”, which is not a template name'),
      },
    ]);
  });
});

describe('an org made from a template', () => {
  it.each(GALLERY)(
    '%s runs five ticks offline with every agent taking turns and none failing',
    async (name) => {
      const org = await created(name);
      const engine = await world.open(org);
      const turns = [];
      for (let tick = 1; tick <= 5; tick += 1) turns.push(...(await engine.runTick()).turns);

      expect(turns.filter((turn) => turn.status !== 'completed')).toEqual([]);
      const agents = (await discoverAgents(org)).filter((agent) => agent.folder !== 'human');
      expect(new Set(turns.map((turn) => turn.agent))).toEqual(new Set(agents.map((agent) => agent.folder)));
      const events = timelineEvents(engine);
      expect(
        events.filter((event) => ['error', 'message_refused', 'approval_requested'].includes(event.kind)),
      ).toEqual([]);
      const toolResults = events.filter((event) => event.kind === 'tool_result');
      expect(toolResults.length).toBeGreaterThan(0);
      expect(toolResults.filter((event) => !event.result.success)).toEqual([]);
      expect(
        events.some((event) => event.kind === 'message' && event.entry?.recipients?.includes('human')),
      ).toBe(true);
    },
  );

  it('thinks with a real model once its one model, “team”, is changed to one (as Settings → Models does)', async () => {
    const asked: string[] = [];
    const server = world.serve(
      await startLoopbackServer((request, response) => {
        asked.push(String((request.json as { model?: string } | undefined)?.model));
        sendJson(response, 200, chatCompletion('{"notes":"Read the brief; drafting."}'));
      }),
    );
    const org = await created('content-pipeline');
    const changed = await updateModels(org, {
      action: 'set',
      key: 'team',
      patch: { provider: 'openai-compatible', model_name: 'house-model', base_url: `${server.url}/v1` },
    });
    expect(changed).toEqual({ ok: true, value: null });
    const engine = await world.open(org);
    const turns = [];
    for (let tick = 1; tick <= 3; tick += 1) turns.push(...(await engine.runTick()).turns);

    expect(turns).toEqual([
      { agent: 'writer', status: 'completed' },
      { agent: 'fact_checker', status: 'completed' },
      { agent: 'editor', status: 'completed' },
    ]);
    expect(asked).toEqual(['house-model', 'house-model', 'house-model']);
  });

  it('is copied into an empty folder, run state left behind, every file the person’s to change', async () => {
    const shelf = join(world.orgs.build({}), 'templates');
    cpSync(TEMPLATES, shelf, { recursive: true });
    mkdirSync(join(shelf, 'inbox-triage', 'org', '.lemming'));
    writeFileSync(join(shelf, 'inbox-triage', 'org', '.lemming', 'timeline.sqlite'), 'old run');
    const shipped = join(shelf, 'inbox-triage');
    setModes(shipped, 0o555, 0o444);
    const target = join(world.orgs.build({}), 'triage');
    try {
      const made = await createOrgFromTemplate(shelf, 'inbox-triage', target);
      expect(made).toEqual({ ok: true, value: { path: target, template: 'inbox-triage' } });
    } finally {
      setModes(shipped, 0o755, 0o644);
    }
    expect(readdirSync(target)).not.toContain('.lemming');
    for (const file of ['README.md', 'agents/sorter/resume.json', 'shared/inbox-rules.md'])
      expect(statSync(join(target, file)).mode & 0o200, file).toBe(0o200);
    expect(statSync(join(target, 'agents')).mode & 0o700).toBe(0o700);
  });

  it('is made in the empty folder the person chose, which is there already', async () => {
    const target = world.orgs.build({ '.DS_Store': '' });
    const made = await createOrgFromTemplate(TEMPLATES, 'code-review', target);
    expect(made).toEqual({ ok: true, value: { path: target, template: 'code-review' } });
    expect(readdirSync(join(target, 'agents')).sort()).toEqual(['human', 'lead', 'reviewer', 'security']);
  });

  it('is refused in a folder that holds files, and nothing is written there', async () => {
    const target = world.orgs.build({ 'notes.txt': 'mine' });
    const made = await createOrgFromTemplate(TEMPLATES, 'personal-ops', target);
    expect(made).toMatchObject({ ok: false, error: { code: 'already_exists' } });
    expect(readdirSync(target)).toEqual(['notes.txt']);
  });

  it('opens only a template the gallery lists, never a path', async () => {
    const names = await templateNames(TEMPLATES);
    expect(names).toEqual({ ok: true, value: GALLERY });
    for (const name of ['../examples/demo-org', 'research-desk/org', 'nope']) {
      const opened = await openTemplate(TEMPLATES, name);
      expect(opened, name).toMatchObject({ ok: false, error: { code: 'not_found' } });
      if (!opened.ok) expect(opened.error.fix).toContain('research-desk');
    }
  });
});
