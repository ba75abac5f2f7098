import { describe, expect, it } from 'vitest';
import { createProvider } from './create-provider';
import { callError, modelEntry, testDeps } from './test-support/provider-test-kit';

describe('createProvider', () => {
  it('gives an unknown provider a stand-in whose calls fail with a model_setup error naming the known ones', async () => {
    for (const name of ['my-plugin', 'toString', 'constructor']) {
      const provider = createProvider(modelEntry(name, {}), testDeps());
      expect(provider.name).toBe(name);
      const error = await callError(provider.complete({ model: 'm', messages: [] }));
      expect(error).toMatchObject({ kind: 'model_setup', retryable: false });
      expect(error.message).toBe(
        `model "test-model" uses unknown provider "${name}"; use one of openai, openai-compatible, openrouter, lmstudio, vllm, llamacpp, anthropic, ollama, cli, scripted`,
      );
    }
  });

  it('names each provider after its models.json provider and says whether it calls tools natively', () => {
    const kinds = ['openai', 'openrouter', 'lmstudio', 'vllm', 'llamacpp', 'anthropic', 'ollama'].map(
      (name) => {
        const provider = createProvider(modelEntry(name, {}), testDeps());
        return [provider.name, provider.nativeTools];
      },
    );
    expect(kinds).toEqual([
      ['openai', true],
      ['openrouter', true],
      ['lmstudio', true],
      ['vllm', true],
      ['llamacpp', true],
      ['anthropic', true],
      ['ollama', true],
    ]);
    expect(createProvider(modelEntry('cli', { command: ['echo'] }), testDeps()).nativeTools).toBe(false);
    expect(createProvider(modelEntry('scripted', { script: 's.yaml' }), testDeps()).nativeTools).toBe(false);
  });
});
