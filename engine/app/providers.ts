import type { ProviderInfo } from '../api/settings-schemas';

/** The model providers the engine runs (engine/models/create-provider.ts), described for the settings view. */
export const PROVIDERS: readonly ProviderInfo[] = [
  {
    name: 'openai',
    service: 'OpenAI',
    defaultBaseUrl: 'https://api.openai.com/v1',
    needsApiKey: true,
    local: false,
  },
  {
    name: 'anthropic',
    service: 'Anthropic',
    defaultBaseUrl: 'https://api.anthropic.com',
    needsApiKey: true,
    local: false,
  },
  {
    name: 'openrouter',
    service: 'OpenRouter',
    defaultBaseUrl: 'https://openrouter.ai/api/v1',
    needsApiKey: true,
    local: false,
  },
  {
    name: 'openai-compatible',
    service: 'OpenAI-compatible server',
    defaultBaseUrl: null,
    needsApiKey: false,
    local: false,
  },
  {
    name: 'ollama',
    service: 'Ollama',
    defaultBaseUrl: 'http://localhost:11434',
    needsApiKey: false,
    local: true,
  },
  {
    name: 'lmstudio',
    service: 'LM Studio',
    defaultBaseUrl: 'http://localhost:1234/v1',
    needsApiKey: false,
    local: true,
  },
  {
    name: 'vllm',
    service: 'vLLM',
    defaultBaseUrl: 'http://localhost:8000/v1',
    needsApiKey: false,
    local: true,
  },
  {
    name: 'llamacpp',
    service: 'llama.cpp server',
    defaultBaseUrl: 'http://localhost:8080/v1',
    needsApiKey: false,
    local: true,
  },
  {
    name: 'cli',
    service: 'A command on this computer',
    defaultBaseUrl: null,
    needsApiKey: false,
    local: true,
  },
  {
    name: 'scripted',
    service: 'Scripted answers (offline demo and tests)',
    defaultBaseUrl: null,
    needsApiKey: false,
    local: true,
  },
];
