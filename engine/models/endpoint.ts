import ipaddr from 'ipaddr.js';
import type { Dispatcher } from 'undici';
import type { ApiKeyLookup } from './api-key';
import { ModelCallError } from './model-call-error';
import type { RetryTiming } from './retry-timing';

/** Everything an HTTP provider needs to reach its server, settled from models.json and the deps. */
export interface HttpEndpoint {
  /** The models.json provider name, e.g. "openrouter". */
  providerName: string;
  /** The provider as people know it, for messages. */
  service: string;
  baseUrl: string;
  /** Looked up on every call, so a key added after start-up is picked up. */
  apiKey: () => ApiKeyLookup;
  headers: Record<string, string>;
  timeoutMs: number;
  maxRetries: number;
  nativeTools: boolean;
  /** Sampling settings from models.json; a resume's own setting wins over them. Absent ones are not sent. */
  sampling: { temperature?: number; topP?: number };
  /** Stream answers when the caller follows them (models.json `"stream"`, on unless false). */
  stream: boolean;
  timing: RetryTiming;
  dispatcher?: Dispatcher;
}

/** The key for this call, or a `missing_key` / `not_granted` error saying where to put one. */
export function requireApiKey(endpoint: HttpEndpoint): string | undefined {
  const lookup = endpoint.apiKey();
  if (!lookup.ok) throw new ModelCallError(lookup.error);
  return lookup.value;
}

export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/** Servers on this computer (Ollama, LM Studio, a llama.cpp server) need no API key. */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return false;
  }
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return ipaddr.isValid(host) && ipaddr.process(host).range() === 'loopback';
}
