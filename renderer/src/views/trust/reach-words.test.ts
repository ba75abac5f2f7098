import { describe, expect, it } from 'vitest';
import type { ReachItem } from '../../../../engine/api';
import { becauseWords, placeOf, reachLines } from './reach-words';

const item = (kind: ReachItem['kind'], subject: string, because: string, field: string): ReachItem => ({
  kind,
  subject,
  because,
  file: 'lemming/config/models.json',
  field,
});

describe('the trust screen’s words', () => {
  it('lists a secret two models use once, with both reasons and both places the org names it', () => {
    const lines = reachLines([
      item('secret', 'OPENAI_API_KEY', 'the model “gpt”', 'gpt.provider_config.api_key_secret'),
      item('address', 'https://api.openai.com/v1', 'the model “gpt”', 'gpt.provider_config.base_url'),
      item('secret', 'OPENAI_API_KEY', 'the model “mini”', 'mini.provider_config.api_key_secret'),
    ]);
    expect(lines).toEqual([
      {
        kind: 'secret',
        subject: 'OPENAI_API_KEY',
        because: ['the model “gpt”', 'the model “mini”'],
        where: [
          'lemming/config/models.json (gpt.provider_config.api_key_secret)',
          'lemming/config/models.json (mini.provider_config.api_key_secret)',
        ],
      },
      {
        kind: 'address',
        subject: 'https://api.openai.com/v1',
        because: ['the model “gpt”'],
        where: ['lemming/config/models.json (gpt.provider_config.base_url)'],
      },
    ]);
    expect(becauseWords(lines[0]!)).toBe('for the model “gpt”, the model “mini”');
  });

  it('says where an address is: this computer, your network or the internet', () => {
    expect(placeOf('http://127.0.0.1:11434')).toBe('this computer');
    expect(placeOf('http://localhost:1234/v1')).toBe('this computer');
    expect(placeOf('http://[::1]:8080/')).toBe('this computer');
    expect(placeOf('http://192.168.1.20:8000/v1')).toBe('your network');
    expect(placeOf('http://10.0.0.7/')).toBe('your network');
    expect(placeOf('http://172.20.1.1/')).toBe('your network');
    expect(placeOf('http://nas.local/')).toBe('your network');
    expect(placeOf('http://printer/')).toBe('your network');
    expect(placeOf('http://[fd12:3456::1]/')).toBe('your network');
    expect(placeOf('https://api.openai.com/v1')).toBe('the internet');
    expect(placeOf('http://172.32.0.1/')).toBe('the internet');
    expect(placeOf('http://[2001:db8::1]/')).toBe('the internet');
    expect(placeOf('not an address')).toBeNull();
    expect(
      becauseWords({ kind: 'address', subject: 'http://127.0.0.1:11434', because: ['the model “local”'] }),
    ).toBe('on this computer, for the model “local”');
  });

  it('leaves an agent’s free hand to its own sentence, and says where a bare host is', () => {
    expect(
      becauseWords({
        kind: 'shell',
        subject: 'writer',
        because: ['writer may run any command its model writes'],
      }),
    ).toBeNull();
    expect(placeOf('nas.local')).toBe('your network');
    expect(placeOf('127.0.0.1:8080')).toBe('this computer');
  });
});
