import { describe, expect, it } from 'vitest';
import { notGranted } from '../trust/org-grants';
import { accountSecretName, createProvider, modelSetupProblem } from './create-provider';
import { chatCompletion } from './test-support/chat-completion';
import { sendJson } from './test-support/loopback-server';
import { modelEntry, testDeps, useLoopbackServers } from './test-support/provider-test-kit';

const serve = useLoopbackServers();

const ACCOUNT_KEY = 'sk-account-0f3b9c2d7e';

describe('one key per provider account', () => {
  it('names the account after the provider at its own address, else after the server host', () => {
    expect(accountSecretName('openai', undefined)).toBe('OPENAI_API_KEY');
    expect(accountSecretName('openai', 'https://api.openai.com/v1/')).toBe('OPENAI_API_KEY');
    expect(accountSecretName('anthropic', undefined)).toBe('ANTHROPIC_API_KEY');
    expect(accountSecretName('openrouter', undefined)).toBe('OPENROUTER_API_KEY');
    expect(accountSecretName('openai', 'https://api.together.xyz/v1')).toBe('API_TOGETHER_XYZ_API_KEY');
    expect(accountSecretName('openai-compatible', 'https://openrouter.ai/api/v1')).toBe('OPENROUTER_API_KEY');
    // A key is only ever sent where it was pasted for: another host is another account.
    expect(accountSecretName('openai', 'https://api.openai.com.evil.example/v1')).toBe(
      'API_OPENAI_COM_EVIL_EXAMPLE_API_KEY',
    );
    expect(accountSecretName('lmstudio', undefined)).toBe('LOCALHOST_1234_API_KEY');
    expect(accountSecretName('openai-compatible', 'http://127.0.0.1:8000/v1')).toBe(
      'HOST_127_0_0_1_8000_API_KEY',
    );
    expect(accountSecretName('openai-compatible', undefined)).toBeNull();
    expect(accountSecretName('cli', undefined)).toBeNull();
    expect(accountSecretName('scripted', undefined)).toBeNull();
  });

  it('sends the account key for every model of the account that names no key of its own', async () => {
    const server = await serve((_request, response) => sendJson(response, 200, chatCompletion('OK')));
    const account = accountSecretName('openai', server.url)!;
    const deps = testDeps([], { resolveSecret: (name) => (name === account ? ACCOUNT_KEY : undefined) });
    for (const key of ['gpt-4o', 'gpt-4o-mini']) {
      const provider = createProvider(
        modelEntry('openai', { base_url: server.url, max_retries: 0 }, key),
        deps,
      );
      await provider.complete({ model: key, messages: [{ role: 'user', content: 'hi' }] });
    }
    expect(server.received.map((request) => request.headers.authorization)).toEqual([
      `Bearer ${ACCOUNT_KEY}`,
      `Bearer ${ACCOUNT_KEY}`,
    ]);
  });

  it('keeps a model’s own secret first, and never uses an account key the org was not granted', () => {
    const entry = modelEntry('openai', {}, 'gpt-4o');
    const granted = testDeps([], { resolveSecret: (name) => (name === 'OPENAI_API_KEY' ? 'sk' : undefined) });
    expect(modelSetupProblem(entry, granted)).toBeNull();

    const refused = testDeps([], {
      resolveSecret: (name) => (name === 'OPENAI_API_KEY' ? 'sk' : undefined),
      refusal: (kind, name) => notGranted(kind, name, '/org'),
    });
    expect(modelSetupProblem(entry, refused)?.message).toContain('needs an API key');
    expect(modelSetupProblem(entry, refused)?.short).toBe('No API key for gpt-4o');
    expect(modelSetupProblem(entry, testDeps([]))?.short).toBe('No API key for gpt-4o');

    const own = modelEntry('openai', { api_key_secret: 'MY_OWN_KEY' }, 'gpt-4o');
    expect(modelSetupProblem(own, granted)?.message).toContain(
      'uses the secret "MY_OWN_KEY", which is not set',
    );
  });

  it('says in plain words where to paste a missing key', () => {
    const problem = modelSetupProblem(modelEntry('openai', {}, 'gpt-4o'), testDeps());
    expect(problem?.plain).toBe(
      'its model gpt-4o (OpenAI) has no API key yet: paste one in Settings, under Models and providers',
    );
    expect(problem?.plain).not.toMatch(/provider_config|api_key|environment variable/);
  });
});
