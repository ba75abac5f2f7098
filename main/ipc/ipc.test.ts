import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { channels, contract, type Channel } from '../../engine/api/contract';
import { ipcResultSchema } from '../../engine/api/result';
import { APP_ORIGIN } from '../protocol/app-protocol';
import { bindIpc, type IpcMainLike } from './bind';
import { createDispatch } from './dispatch';
import { createHandlers } from './handlers';

const EXAMPLE_ORG = resolve(import.meta.dirname, '../../../shared/fixtures/lemming-upstream/example-org');

function handlersForTest(pickFolder: () => Promise<string | null> = async () => null) {
  return createHandlers({
    appInfo: () => ({
      name: 'LeMMing Desktop',
      version: '0.0.0',
      platform: 'test',
      runtime: { node: '20', electron: null, chrome: null, sqlite: '3' },
    }),
    pickFolder,
  });
}

/** Inputs no channel accepts: wrong types, unknown keys, missing fields. */
const INVALID_INPUTS: Record<Channel, unknown[]> = {
  'app.info': ['text', 42, null, [], { extra: true }],
  'org.pickFolder': ['text', 7, { path: '/tmp' }],
  'org.open': [{}, { path: '' }, { path: 42 }, 'a/path', { path: '/tmp', evil: 1 }, null],
  'org.agents': [{ path: '/tmp' }, 'x', 3],
};

const tempDirs: string[] = [];
afterEach(() => {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function copyOfExampleOrg(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lemming-ipc-'));
  tempDirs.push(dir);
  cpSync(EXAMPLE_ORG, join(dir, 'org'), { recursive: true });
  return join(dir, 'org');
}

describe('dispatch', () => {
  it('covers every channel of the contract in the invalid-input table', () => {
    expect(Object.keys(INVALID_INPUTS).sort()).toEqual([...channels].sort());
  });

  for (const channel of channels) {
    it(`answers invalid input to ${channel} with a typed validation error`, async () => {
      const dispatch = createDispatch(handlersForTest());
      for (const input of INVALID_INPUTS[channel]) {
        const result = await dispatch(channel, input);
        expect(ipcResultSchema(contract[channel].output).parse(result)).toMatchObject({
          ok: false,
          error: { code: 'invalid_input', message: `Invalid input for ${channel}.` },
        });
        if (!result.ok) expect(result.error.issues?.length).toBeGreaterThan(0);
      }
    });
  }

  it('refuses a channel that is not in the contract', async () => {
    const result = await createDispatch(handlersForTest())('fs.readFile', { path: '/etc/passwd' });
    expect(result).toEqual({
      ok: false,
      error: { code: 'unknown_channel', message: 'There is no channel named "fs.readFile".' },
    });
  });

  it('turns an unexpected handler failure into an internal error without its details', async () => {
    const logged: unknown[] = [];
    const dispatch = createDispatch(
      { ...handlersForTest(), 'app.info': async () => Promise.reject(new Error('secret stack detail')) },
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

  it('every valid answer matches the output schema of its channel', async () => {
    const org = copyOfExampleOrg();
    const dispatch = createDispatch(handlersForTest(async () => org));
    const calls: [Channel, unknown][] = [
      ['app.info', {}],
      ['org.pickFolder', {}],
      ['org.open', { path: org }],
      ['org.agents', {}],
    ];
    for (const [channel, input] of calls) {
      const result = await dispatch(channel, input);
      expect(result.ok, `${channel}: ${JSON.stringify(result)}`).toBe(true);
      ipcResultSchema(contract[channel].output).parse(result);
    }
  });

  it('org.agents before any org is open says to open one', async () => {
    expect(await createDispatch(handlersForTest())('org.agents', {})).toEqual({
      ok: false,
      error: { code: 'no_org_open', message: 'Open an org folder first.' },
    });
  });

  it('an org with a malformed resume still opens and lists that agent as invalid with the reason', async () => {
    const org = copyOfExampleOrg();
    writeFileSync(join(org, 'agents', 'manager', 'resume.json'), '{ "name": "manager", ');
    const dispatch = createDispatch(handlersForTest());
    const opened = await dispatch('org.open', { path: org });
    expect(opened).toMatchObject({ ok: true, value: { agentCount: 7, invalidAgentCount: 1 } });
    const agents = await dispatch('org.agents', {});
    if (!agents.ok) throw new Error(agents.error.message);
    const manager = (
      agents.value as { name: string; valid: boolean; problems: { message: string; line?: number }[] }[]
    ).find((agent) => agent.name === 'manager');
    expect(manager).toMatchObject({
      valid: false,
      problems: [{ file: 'agents/manager/resume.json', line: 1 }],
    });
    expect(manager?.problems[0]?.message).toMatch(/^invalid JSON/);
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
