import { describe, expect, it } from 'vitest';
import { until } from '../test-support/until';

describe('until', () => {
  it('returns what the check found once it finds something', async () => {
    let asked = 0;
    const found = await until(() => (++asked >= 3 ? { asked } : undefined), 'the third asking', {
      everyMs: 1,
    });
    expect(found).toEqual({ asked: 3 });
  });

  it('fails naming what it waited for', async () => {
    await expect(until(() => false, 'the door to open', { timeoutMs: 20, everyMs: 5 })).rejects.toThrow(
      'timed out after 20 ms waiting for the door to open',
    );
  });
});
