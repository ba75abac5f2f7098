import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { channels, contract, type Channel } from '../../engine/api/contract';
import { ipcResultSchema } from '../../engine/api/result';
import { APP_ORIGIN } from '../protocol/app-protocol';
import { bindIpc, type IpcMainLike } from './bind';
import { createDispatch } from './dispatch';
import { createHandlers } from './handlers';
import { DEMO_ORG, EXAMPLE_ORG, ipcHarnesses, valueOf } from './test-support/ipc-harness';

const harnesses = ipcHarnesses();
afterEach(() => harnesses.cleanup());

const manager = { agent: 'manager' };

/** Inputs no channel accepts: wrong types, unknown keys, missing fields, values out of range. */
const INVALID_INPUTS: Record<Channel, unknown[]> = {
  'app.info': ['text', 42, null, [], { extra: true }],
  'org.pickFolder': ['text', 7, { path: '/tmp' }, { forNewOrg: 'yes' }],
  'org.open': [{}, { path: '' }, { path: 42 }, 'a/path', { path: '/tmp', evil: 1 }, null],
  'org.create': [{}, { path: '' }, { path: 42 }, '/tmp', { path: '/tmp', agents: [] }],
  'org.agents': [{ path: '/tmp' }, 'x', 3],
  'org.summary': [{ verbose: true }, 'x'],
  'org.status': [{ verbose: true }],
  'org.close': [{ force: true }, 1],
  'org.graph': [{ layout: 'auto' }, []],
  'org.savePositions': [
    {},
    { positions: { manager: { x: 'left', y: 1 } } },
    { positions: { 'not a name': { x: 1, y: 1 } } },
    { positions: { manager: { x: 1 } } },
    { positions: { manager: { x: 1, y: 1, z: 1 } } },
    { positions: {}, extra: 1 },
  ],
  'org.createAgent': [
    {},
    { name: 'two words', title: 'T' },
    { name: 'ok', title: '   ' },
    { name: 'ok', title: 'T', schedule: { run_every_n_ticks: 0, phase_offset: 0 } },
    { name: 'ok', title: 'T', credits: { max_credits: -1, soft_cap: 0 } },
    { name: 'ok', title: 'T', evil: true },
  ],
  'org.removeAgent': [{}, { agent: '' }, { agent: 3 }, { agent: 'x', extra: 1 }],
  'org.restoreAgent': [{}, { removedId: '' }, { removedId: 1 }],
  'agent.get': [{}, { agent: '' }, { name: 'manager' }],
  'agent.update': [
    manager,
    { ...manager, patch: { name: 'renamed' } },
    { ...manager, patch: { schedule: { run_every_n_ticks: 0 } } },
    { ...manager, patch: { title: '' } },
    { ...manager, patch: { permissions: { tools: 'all' } } },
    { ...manager, patch: { permissions: { tool_kinds: ['teleport'] } } },
    { ...manager, patch: { model: { temperature: 5 } } },
    { ...manager, patch: { tools_profile: 'vim' } },
  ],
  'agent.schedulePreview': [
    {},
    { schedule: { run_every_n_ticks: 0, phase_offset: 0 } },
    { schedule: { run_every_n_ticks: 2, phase_offset: 0.5 } },
    { schedule: { run_every_n_ticks: 2, phase_offset: 0 }, count: 1000 },
    { schedule: { run_every_n_ticks: 2, phase_offset: 0 }, fromTick: -1 },
  ],
  'memory.get': [{}, { agent: '' }, { agent: 'manager', key: 'x' }],
  'memory.edit': [
    { agent: 'manager', key: 'notes', value: 'x' },
    { action: 'set', agent: 'manager', key: '  ', value: 'x' },
    { action: 'set', agent: 'manager', key: 'notes' },
    { action: 'remove', agent: 'manager', key: 'notes', value: 1 },
  ],
  'agent.fileAccessPreview': [
    manager,
    { ...manager, entries: 'shared' },
    { ...manager, entries: Array(101).fill('x') },
  ],
  'tools.catalog': [{ agent: 'manager' }],
  'tools.explain': [{}, { agent: '' }],
  'tools.applyFix': [manager, { ...manager, tool: '' }, { ...manager, tool: 'shell', changes: [] }],
  'tools.setEnabled': [
    { ...manager, tool: 'shell' },
    { ...manager, tool: 'shell', enabled: 'yes' },
  ],
  'connectors.list': [{ agent: 'x' }],
  'approvals.pending': [{ all: true }, 'x'],
  'approvals.answer': [
    {},
    { id: 'a', answer: 'maybe' },
    { id: '', answer: 'deny' },
    { id: 'a', answer: 'deny', x: 1 },
  ],
  'approvals.settings': [{ agent: 'manager' }, 1],
  'approvals.setTimeout': [
    {},
    { seconds: 0 },
    { seconds: 'soon' },
    { seconds: 100_000 },
    { seconds: 5, x: 1 },
  ],
  'approvals.setMode': [
    {},
    { agent: 'manager', tool: 'shell', mode: 'sometimes' },
    { agent: '', tool: 'shell', mode: 'ask' },
    { agent: 'manager', tool: 'shell' },
  ],
  'connectors.setConfig': [
    { connector: 'builtin:web' },
    { connector: 'builtin:web', values: {} },
    { connector: 'builtin:web', values: { enabled: { deep: true } } },
    { connector: '', values: { enabled: true } },
  ],
  'connectors.saveRestApi': [
    {},
    { name: 'x', baseUrl: 'https://a.example', authStyle: 'cookie', methods: ['GET'] },
    { name: 'x', baseUrl: 'https://a.example', authStyle: 'none', methods: [] },
    { name: 'x', baseUrl: 'https://a.example', authStyle: 'none', methods: ['GET'], evil: 1 },
  ],
  'connectors.removeRestApi': [{}, { name: '' }, { name: 'x', evil: 1 }],
  'connectors.importMcp': [{}, { from: 'windsurf' }, { from: '/etc/passwd' }, { from: 'claude', file: 'x' }],
  'connectors.saveMcpServer': [
    {},
    { name: 'x', target: { kind: 'program', command: 'npx', args: [] } },
    { name: 'x', target: { kind: 'address', url: 'https://a.example', headers: [{ name: 'A', val: 'b' }] } },
    { name: 'x', target: { kind: 'socket', path: '/tmp/s' } },
    { name: 'x', target: { kind: 'program', command: 'npx', args: [], env: [] }, evil: 1 },
  ],
  'connectors.pasteMcpServers': [
    {},
    { text: 42 },
    { text: '{}', replaceServers: 'all' },
    { text: '{}', evil: 1 },
  ],
  'connectors.removeMcpServer': [{}, { name: '' }, { name: 'x', evil: 1 }],
  'connectors.trustMcpHints': [
    {},
    { server: 'files', trusted: true },
    { server: 'files', identity: 'stdio ["x"]', trusted: 'yes' },
    { server: 'files', identity: 'stdio ["x"]', trusted: true, evil: 1 },
  ],
  'connectors.allowMcpSampling': [
    {},
    { server: 'files', allowed: true },
    { server: 'files', identity: 'stdio ["x"]', allowed: 'yes' },
    { server: 'files', identity: 'stdio ["x"]', allowed: true, evil: 1 },
  ],
  'connectors.signIn': [{}, { server: '' }, { server: 'remote', evil: 1 }],
  'trust.state': [{ org: '/tmp' }],
  'trust.accept': [
    {},
    { fingerprint: '' },
    { fingerprint: 'f', secrets: ['lower'] },
    { fingerprint: 'f', extra: 1 },
  ],
  'trust.revoke': [{ all: true }],
  'trust.grant': [
    {},
    { kind: 'secret', name: 'lower', granted: true },
    { kind: 'other', name: 'X', granted: true },
  ],
  'secrets.list': [{ reveal: true }],
  'secrets.set': [
    { name: 'api_key', value: 'x' },
    { name: 'API_KEY', value: '' },
    { name: 'API_KEY' },
    { name: 'API_KEY', value: 42 },
    { name: 'API_KEY', value: 'x', extra: 1 },
  ],
  'secrets.delete': [{}, { name: 'lower' }, { name: 'API_KEY', value: 'x' }],
  'timeline.page': [
    { limit: 0 },
    { limit: 5000 },
    { direction: 'sideways' },
    { cursor: -1 },
    { agents: 'manager' },
    { tickFrom: 1.5 },
    { evil: 1 },
  ],
  'timeline.get': [{}, { seq: 0 }, { seq: 'one' }],
  'timeline.attachment': [{}, { sha256: '../../etc/passwd' }, { sha256: 'A'.repeat(64) }],
  'timeline.facets': [{ kinds: true }],
  'timeline.export': [{ path: '/tmp/timeline.jsonl' }, { filter: { agents: 'manager' } }],
  'timeline.import': [{ path: '/tmp/timeline.jsonl' }],
  'bundle.preview': [{ includes: { memory: 'yes' } }, { department: '' }, { file: '/tmp/x.zip' }],
  'bundle.export': [{ includes: { secrets: true } }, { department: 3 }, { path: '/tmp/x.zip' }],
  'bundle.import': [{ file: '/tmp/x.lemming.zip' }, { into: 'yes' }, 'x'],
  'bundle.origin': [{ path: '/tmp' }, 1],
  'jobs.cancel': [{}, { id: '' }, { id: 7 }, { id: 'a', all: true }],
  'run.start': [{ ticks: 0 }, { ticks: 1.5 }, { intervalMs: -1 }, { forever: true }],
  'run.pause': [{ now: true }],
  'run.resume': [{ now: true }],
  'run.step': [{ ticks: 2 }],
  'run.stop': [{ abort: true }],
  'run.state': [{ watch: true }],
  'run.readiness': [{ agents: 1 }],
  'departments.list': [{ name: 'desk' }],
  'departments.save': [
    {},
    { name: '../evil', description: 'x', agents: [] },
    { name: 'desk', description: ' ', agents: [] },
    { name: 'desk', description: 'x', agents: ['a/b'] },
    { name: 'desk', description: 'x', agents: [], evil: 1 },
  ],
  'departments.spend': [{ department: 'desk' }],
  'org.updatePlan': [{}, { source: '' }, { source: 7 }],
  'org.updateApply': [
    { source: '/tmp/x' },
    { source: '/tmp/x', agents: ['../a'] },
    { source: '/tmp/x', agents: [], evil: 1 },
  ],
  'credits.balances': [{ agent: 'manager' }],
  'credits.history': [{}, { ...manager, limit: 0 }, { ...manager, before: -3 }],
  'credits.topUp': [
    manager,
    { ...manager, amount: 0 },
    { ...manager, amount: -5 },
    { ...manager, amount: '10' },
  ],
  'credits.resume': [{}, { agent: '' }, { ...manager, budget: 'daily_credits' }],
  'inspector.turn': [{}, { agent: 'manager' }, { agent: '', tick: 1 }, { agent: 'manager', tick: 1.5 }],
  'inspector.tick': [{}, { tick: 'one' }, { tick: 1, agent: 'manager' }],
  'inspector.agentTurns': [{}, { agent: 7 }],
  'inspector.rehearsal': [{}, { seq: 0 }, { seq: 'last' }, { seq: 1, agent: 'manager' }],
  'agent.rehearse': [{}, { agent: '' }, { agent: 7 }, { agent: 'manager', tick: 3 }],
  'inbox.page': [{ before: 0 }, { limit: 0 }, { limit: 201 }, { unread: true }],
  'inbox.unread': [{ all: true }, 'x'],
  'inbox.markRead': [{ seqs: [0] }, { seqs: 'all' }, { all: 'yes' }],
  'inbox.reply': [{}, { seq: 1 }, { seq: 1, text: '  ' }, { seq: 1, text: 'hi', target: 'manager' }],
  'messages.inbox': [{}, { agent: '' }, { agent: 'manager', all: true }],
  'messages.send': [{}, { text: '   ' }, { text: 'hi', importance: 'urgent' }, { text: 'hi', to: 'manager' }],
  'settings.get': [{ section: 'run' }],
  'settings.update': [{ tickIntervalSeconds: 0 }, { maxTurns: 0 }, { theme: 'dark' }],
  'settings.testConnection': [{}, { model: '' }],
  'models.list': [{ key: 'x' }],
  'models.update': [
    { key: 'x' },
    { action: 'set', key: 'x', patch: { api_key: 'sk-live' } },
    { action: 'remove' },
    { action: 'set', key: 'x', patch: { api_key_secret: 'lower_case' } },
    { action: 'set', key: '', patch: {} },
  ],
  'models.serverModels': [
    {},
    { provider: '' },
    { provider: 'openai', apiKey: 42 },
    { provider: 'openai', extra: 1 },
  ],
  'models.probe': [{ provider: 'openai' }, { provider: 'openai', modelName: '' }],
  'models.add': [
    { key: 'x', provider: 'openai' },
    { key: '', provider: 'openai', modelName: 'm' },
    { key: 'x', provider: 'openai', modelName: 'm', api_key_secret: 'X' },
  ],
  'models.setKey': [{ model: 'x' }, { model: 'x', apiKey: '  ' }, { model: '', apiKey: 'sk' }],
  'models.detectLocal': [{ port: 11434 }, 'x'],
  'firstRun.openDemo': [{ fresh: 'yes' }, { path: '/tmp' }],
  'templates.gallery': [{ all: true }, 'x'],
  'templates.create': [
    {},
    { template: 'code-review' },
    { template: '../examples', path: '/tmp/x' },
    { template: 'code-review', path: '' },
    { template: 'code-review', path: '/tmp/x', trusted: true },
  ],
  'updates.status': [{ check: true }],
  'updates.setEnabled': [{}, { enabled: 'yes' }, { enabled: true, channel: 'beta' }],
  'updates.restartNow': [{ force: true }],
  'desktop.settings': [{ all: true }],
  'desktop.updateSettings': [
    { notify: { approval: 'yes' } },
    { notify: { everything: true } },
    { developerTools: 1 },
    { theme: 'dark' },
  ],
  'recentOrgs.list': [{ limit: 3 }],
  'recentOrgs.pin': [{}, { path: '' }, { path: '/x', pinned: 'yes' }],
  'recentOrgs.forget': [{}, { path: 7 }],
};

describe('dispatch', () => {
  it('covers every channel of the contract in the invalid-input table', () => {
    expect(Object.keys(INVALID_INPUTS).sort()).toEqual([...channels].sort());
  });

  for (const channel of channels) {
    it(`answers invalid input to ${channel} with a typed validation error`, async () => {
      const { dispatch } = await harnesses.create();
      for (const input of INVALID_INPUTS[channel]) {
        const result = await dispatch(channel, input);
        expect(ipcResultSchema(contract[channel].output).parse(result), JSON.stringify(input)).toMatchObject({
          ok: false,
          error: { code: 'invalid_input', message: `Invalid input for ${channel}.` },
        });
        if (!result.ok) expect(result.error.issues?.length).toBeGreaterThan(0);
      }
    });
  }

  it('refuses a channel that is not in the contract', async () => {
    const { dispatch } = await harnesses.create();
    const result = await dispatch('fs.readFile', { path: '/etc/passwd' });
    expect(result).toEqual({
      ok: false,
      error: { code: 'unknown_channel', message: 'There is no channel named "fs.readFile".' },
    });
  });

  it('turns an unexpected handler failure into an internal error without its details', async () => {
    const { host } = await harnesses.create();
    const logged: unknown[] = [];
    const handlers = createHandlers({
      appInfo: () => ({
        name: 'LeMMing Desktop',
        version: '0',
        platform: 'test',
        runtime: { node: '20', electron: null, chrome: null, sqlite: '3' },
      }),
      pickFolder: async () => null,
      pickExportFile: async () => null,
      pickImportFile: async () => null,
      host,
    });
    const dispatch = createDispatch(
      { ...handlers, 'app.info': async () => Promise.reject(new Error('secret stack detail')) },
      { logError: (_channel, error) => logged.push(error) },
    );
    const result = await dispatch('app.info', {});
    expect(result).toEqual({
      ok: false,
      error: { code: 'internal', message: 'app.info failed unexpectedly. Details are in the app log.' },
    });
    expect(JSON.stringify(result)).not.toContain('secret stack detail');
    expect(logged).toHaveLength(1);
  });

  it('every channel answers valid input on the demo org, and every answer matches its output schema', async () => {
    const harness = await harnesses.create();
    const org = harness.copy(DEMO_ORG);
    harness.setPickedFolder(org);
    harness.setExportFile(join(harness.tempDir(), 'export.jsonl'));
    const calls: [Channel, unknown][] = [
      ['app.info', {}],
      ['org.pickFolder', {}],
      ['org.create', { path: harness.tempDir() }],
      ['org.open', { path: org }],
      ['org.agents', {}],
      ['org.summary', {}],
      ['org.graph', {}],
      ['org.savePositions', { positions: { manager: { x: 10, y: 20 } } }],
      ['org.createAgent', { name: 'editor', title: 'Editor' }],
      ['agent.get', manager],
      ['agent.update', { ...manager, patch: { title: 'Lead' } }],
      ['agent.schedulePreview', { schedule: { run_every_n_ticks: 2, phase_offset: 1 } }],
      ['agent.fileAccessPreview', { ...manager, entries: ['shared', '../../outside'] }],
      ['memory.edit', { action: 'set', ...manager, key: 'plan', value: 'Ship the launch note' }],
      ['memory.get', manager],
      ['tools.catalog', {}],
      ['tools.explain', manager],
      ['tools.applyFix', { ...manager, tool: 'file_read' }],
      ['tools.setEnabled', { ...manager, tool: 'file_list', enabled: true }],
      ['connectors.list', {}],
      ['connectors.setConfig', { connector: 'builtin:web', values: { enabled: false } }],
      [
        'connectors.saveRestApi',
        { name: 'weather', baseUrl: 'https://api.weather.example', authStyle: 'none', methods: ['GET'] },
      ],
      ['connectors.removeRestApi', { name: 'weather' }],
      [
        'connectors.saveMcpServer',
        { name: 'remote', target: { kind: 'address', url: 'http://127.0.0.1:9/mcp', headers: [] } },
      ],
      [
        'connectors.pasteMcpServers',
        { text: '{"servers": {"other": {"type": "http", "url": "http://127.0.0.1:9/x"}}}' },
      ],
      ['connectors.removeMcpServer', { name: 'remote' }],
      ['connectors.removeMcpServer', { name: 'other' }],
      ['approvals.pending', {}],
      ['approvals.settings', {}],
      ['approvals.setMode', { ...manager, tool: 'memory_write', mode: 'ask' }],
      ['approvals.setTimeout', { seconds: 120 }],
      ['trust.state', {}],
      ['trust.grant', { kind: 'secret', name: 'DEMO_TOKEN', granted: true }],
      ['trust.revoke', {}],
      ['secrets.list', {}],
      ['secrets.set', { name: 'DEMO_TOKEN', value: 'tok-0123456789abcdef' }],
      ['secrets.delete', { name: 'DEMO_TOKEN' }],
      ['run.step', {}],
      ['agent.rehearse', manager],
      ['run.state', {}],
      ['run.readiness', {}],
      ['inspector.turn', { agent: 'manager', tick: 1 }],
      ['inspector.tick', { tick: 1 }],
      ['inspector.agentTurns', manager],
      ['inbox.page', {}],
      ['inbox.unread', {}],
      ['timeline.page', { limit: 20 }],
      ['timeline.get', { seq: 1 }],
      ['timeline.facets', {}],
      ['timeline.export', { filter: { kinds: ['message'] } }],
      ['timeline.import', {}],
      ['bundle.preview', { includes: { memory: true } }],
      ['bundle.export', {}],
      ['bundle.import', {}],
      ['bundle.origin', {}],
      ['jobs.cancel', { id: 'an export that ended' }],
      ['run.start', { ticks: 3, intervalMs: 600_000 }],
      ['run.pause', {}],
      ['run.resume', {}],
      ['run.stop', {}],
      ['credits.balances', {}],
      ['credits.history', manager],
      ['credits.topUp', { ...manager, amount: 5 }],
      ['departments.save', { name: 'desk', description: 'Writes the note', agents: ['writer'] }],
      ['departments.list', {}],
      ['departments.spend', {}],
      ['org.updatePlan', { source: DEMO_ORG }],
      ['org.updateApply', { source: DEMO_ORG, agents: [] }],
      ['credits.resume', manager],
      ['messages.send', { text: 'Hello from the test', target: 'manager' }],
      ['messages.inbox', manager],
      ['org.status', {}],
      ['settings.get', {}],
      ['settings.update', { tickIntervalSeconds: 2 }],
      ['settings.testConnection', { model: 'demo-scripted' }],
      ['models.list', {}],
      [
        'models.update',
        { action: 'set', key: 'local', patch: { provider: 'ollama', model_name: 'llama3.2' } },
      ],
      // Port 9 (discard) on loopback: nothing answers, which the setup channels say in words.
      ['models.serverModels', { provider: 'ollama', baseUrl: 'http://127.0.0.1:9' }],
      ['models.probe', { provider: 'ollama', baseUrl: 'http://127.0.0.1:9', modelName: 'llama3.2' }],
      ['models.add', { key: 'local-two', provider: 'ollama', modelName: 'qwen3' }],
      ['models.setKey', { model: 'local-two', apiKey: 'sk-local-0123456789' }],
      ['models.detectLocal', {}],
      ['org.removeAgent', { agent: 'editor' }],
      ['templates.gallery', {}],
      ['templates.create', { template: 'code-review', path: join(harness.tempDir(), 'review') }],
      ['firstRun.openDemo', {}],
      ['org.close', {}],
      ['updates.status', {}],
      ['updates.setEnabled', { enabled: false }],
      ['updates.restartNow', {}],
      ['desktop.settings', {}],
      ['desktop.updateSettings', { notify: { failing: false }, keepRunningInBackground: true }],
      ['recentOrgs.list', {}],
      ['recentOrgs.pin', { path: org, pinned: true }],
      ['recentOrgs.forget', { path: org }],
    ];
    for (const [channel, input] of calls) {
      const result = await harness.dispatch(channel, input);
      expect(result.ok, `${channel}: ${JSON.stringify(result)}`).toBe(true);
      ipcResultSchema(contract[channel].output).parse(result);
    }
    const removed = harness.responses.find((entry) => entry.channel === 'org.removeAgent')!;
    await harness.dispatch('org.open', { path: org });
    const { seq } = valueOf<{ seq: number }>(await harness.dispatch('agent.rehearse', manager));
    const rehearsal = await harness.dispatch('inspector.rehearsal', { seq });
    expect(rehearsal).toMatchObject({ ok: true, value: { agent: 'manager' } });
    ipcResultSchema(contract['inspector.rehearsal'].output).parse(rehearsal);
    // The demo org runs nothing of its own; the model the person added in the app (models.add) kept it
    // trusted, and trusting it again as shown is recorded.
    const trust = valueOf<{ fingerprint: string; state: string }>(await harness.dispatch('trust.state', {}));
    expect(trust.state).toBe('trusted');
    const accepted = await harness.dispatch('trust.accept', { fingerprint: trust.fingerprint });
    ipcResultSchema(contract['trust.accept'].output).parse(accepted);
    expect(await harness.dispatch('trust.accept', { fingerprint: 'moved' })).toMatchObject({
      ok: false,
      error: { code: 'refused' },
    });
    const restored = await harness.dispatch('org.restoreAgent', {
      removedId: valueOf<{ removedId: string }>(removed.response).removedId,
    });
    expect(restored).toMatchObject({ ok: true, value: { name: 'editor', valid: true } });
    // The demo org has no MCP server: trusting one's hints says so.
    expect(
      await harness.dispatch('connectors.trustMcpHints', {
        server: 'files',
        identity: 'stdio ["x"]',
        trusted: true,
      }),
    ).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(
      await harness.dispatch('connectors.allowMcpSampling', {
        server: 'files',
        identity: 'stdio ["x"]',
        allowed: true,
      }),
    ).toMatchObject({ ok: false, error: { code: 'not_found' } });
    // The demo org's tools give no images: an attachment never kept is not found, in words.
    expect(await harness.dispatch('timeline.attachment', { sha256: '0'.repeat(64) })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    // Nor is there one to sign in to: the sign-in says so, and opens nothing.
    expect(await harness.dispatch('connectors.signIn', { server: 'remote' })).toMatchObject({
      ok: false,
      error: { code: 'refused', message: expect.stringContaining('there is no MCP server "remote"') },
    });
    // Nothing is waiting for approval here: an answer says so in words.
    expect(await harness.dispatch('approvals.answer', { id: 'gone', answer: 'deny' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    // No Claude Desktop here (an empty home): the import says where it looked, and adds nothing.
    const home = process.env.HOME;
    const emptyHome = mkdtempSync(join(tmpdir(), 'lemming-no-claude-'));
    process.env.HOME = emptyHome;
    try {
      const imported = await harness.dispatch('connectors.importMcp', { from: 'claude' });
      expect(imported).toMatchObject({ ok: false, error: { code: 'not_found' } });
      expect(JSON.stringify(imported)).toContain('claude_desktop_config.json');
    } finally {
      process.env.HOME = home;
      rmSync(emptyHome, { recursive: true });
    }
    const inbox = valueOf<{ messages: { seq: number }[] }>(await harness.dispatch('inbox.page', {}));
    expect(
      await harness.dispatch('inbox.reply', { seq: inbox.messages[0]!.seq, text: 'Thanks' }),
    ).toMatchObject({
      ok: true,
    });
    // The reply is read back under the message it answers.
    const answered = valueOf<{ messages: { seq: number; replies: { text: string }[] }[] }>(
      await harness.dispatch('inbox.page', {}),
    );
    expect(answered.messages.find((message) => message.seq === inbox.messages[0]!.seq)?.replies).toEqual([
      expect.objectContaining({ text: 'Thanks' }),
    ]);
    expect(await harness.dispatch('inbox.markRead', { all: true })).toMatchObject({ ok: true });

    const called = new Set(harness.responses.map((entry) => entry.channel));
    expect(channels.filter((channel) => !called.has(channel))).toEqual([]);
  });

  it('channels that need an org say to open one first', async () => {
    const { dispatch } = await harnesses.create();
    for (const [channel, input] of [
      ['org.agents', {}],
      ['org.graph', {}],
      ['agent.get', manager],
      ['timeline.page', {}],
      ['run.start', {}],
      ['credits.balances', {}],
      ['settings.get', {}],
    ] as const) {
      expect(await dispatch(channel, input)).toEqual({
        ok: false,
        error: { code: 'no_org_open', message: 'Open an org folder first.' },
      });
    }
  });

  it('an org with a malformed resume still opens and lists that agent as invalid with the reason', async () => {
    const harness = await harnesses.create();
    const org = harness.copy(EXAMPLE_ORG);
    writeFileSync(join(org, 'agents', 'manager', 'resume.json'), '{ "name": "manager", ');
    const opened = await harness.dispatch('org.open', { path: org });
    expect(opened).toMatchObject({ ok: true, value: { agentCount: 7, invalidAgentCount: 1 } });
    const agents = valueOf<
      { name: string; valid: boolean; problems: { message: string; line?: number }[] }[]
    >(await harness.dispatch('org.agents', {}));
    const broken = agents.find((agent) => agent.name === 'manager');
    expect(broken).toMatchObject({
      valid: false,
      problems: [{ file: 'agents/manager/resume.json', line: 1 }],
    });
    expect(broken?.problems[0]?.message).toMatch(/^invalid JSON/);
  });

  it('a path that is no folder is refused with the reason', async () => {
    const { dispatch } = await harnesses.create();
    expect(await dispatch('org.open', { path: '/definitely/not/here' })).toEqual({
      ok: false,
      error: { code: 'org_not_found', message: 'No folder at /definitely/not/here.' },
    });
  });
});

describe('bindIpc', () => {
  type Listener = Parameters<IpcMainLike['handle']>[1];
  function bound() {
    const listeners = new Map<string, Listener>();
    const dispatched: unknown[] = [];
    bindIpc(
      { handle: (channel, listener) => void listeners.set(channel, listener) },
      async (channel, input) => {
        dispatched.push([channel, input]);
        return { ok: true, value: 'reached main' };
      },
      [APP_ORIGIN],
    );
    return { listeners, dispatched };
  }

  it('registers exactly the contract channels', () => {
    expect([...bound().listeners.keys()].sort()).toEqual([...channels].sort());
  });

  it("lets the app's own main frame through", async () => {
    const { listeners, dispatched } = bound();
    const result = await listeners.get('app.info')!(
      { senderFrame: { url: `${APP_ORIGIN}/index.html`, parent: null } },
      {},
    );
    expect(result).toEqual({ ok: true, value: 'reached main' });
    expect(dispatched).toEqual([['app.info', {}]]);
  });

  const refused: [string, { url: string; parent: unknown } | null][] = [
    ['a subframe of the app', { url: `${APP_ORIGIN}/index.html`, parent: {} }],
    ['another origin', { url: 'https://evil.example/index.html', parent: null }],
    ['another app host', { url: 'app://other/index.html', parent: null }],
    ['a file: page', { url: 'file:///tmp/index.html', parent: null }],
    ['a look-alike origin', { url: 'app://lemming.evil/index.html', parent: null }],
    ['an unparsable URL', { url: 'not a url', parent: null }],
    ['a destroyed frame', null],
  ];
  for (const [what, senderFrame] of refused) {
    it(`refuses ${what}`, async () => {
      const { listeners, dispatched } = bound();
      const result = await listeners.get('org.open')!({ senderFrame }, { path: '/tmp' });
      expect(result).toEqual({
        ok: false,
        error: { code: 'forbidden_sender', message: 'This window may not call the LeMMing engine.' },
      });
      expect(dispatched).toEqual([]);
    });
  }
});
