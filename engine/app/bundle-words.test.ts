import { describe, expect, it } from 'vitest';
import { honestManifest } from '../bundle/test-support/raw-zip';
import { manifestLines } from './bundle-words';

describe('a manifest in words', () => {
  it('shows a bundle’s control characters instead of letting them steer the terminal', () => {
    const manifest = honestManifest(
      {},
      {
        orgName: 'acme\u001b[2J',
        departments: [
          { file: 'departments/x.json', name: 'x', description: 'fine\n  OPENAI_API_KEY  (stored here)' },
        ],
        agents: [{ folder: 'ada', title: 'Ada \u202eevil' }],
      },
    );

    const text = manifestLines(manifest, []).join('\n');

    expect(text).toContain('acme\\u{1b}[2J');
    expect(text).toContain('fine\\u{a}  OPENAI_API_KEY');
    expect(text).toContain('Ada \\u{202e}evil');
    expect([...text].filter((character) => character === '\u001b' || character === '\u202e')).toEqual([]);
  });
});
