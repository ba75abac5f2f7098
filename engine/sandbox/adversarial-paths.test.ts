import { describe, expect, it } from 'vitest';
import {
  ADVERSARIAL_CASES,
  CASE_CATEGORIES,
  describeAdversarialPaths,
  SANDBOX_OPERATIONS,
} from './test-support/adversarial-paths';
import { portableDiskWorld } from './test-support/sandbox-world';

describe('the adversarial path corpus', () => {
  it('has at least 60 cases, in every category, with unique names', () => {
    expect(ADVERSARIAL_CASES.length).toBeGreaterThanOrEqual(60);
    const categories = new Set(ADVERSARIAL_CASES.map((testCase) => testCase.category));
    expect([...categories].sort()).toEqual([...CASE_CATEGORIES].sort());
    const ids = ADVERSARIAL_CASES.map((testCase) => `${testCase.category}: ${testCase.id}`);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describeAdversarialPaths('every AgentSandbox operation on every adversarial path', SANDBOX_OPERATIONS);

// The disk without /proc differs only in how the I/O reaches a checked path, so it gets the cases
// where that matters: links, and links swapped in between the check and the I/O.
describeAdversarialPaths('every AgentSandbox operation on links, checked by path', SANDBOX_OPERATIONS, {
  worlds: [portableDiskWorld],
  cases: ADVERSARIAL_CASES.filter(
    (testCase) => testCase.category === 'symlink' || testCase.category === 'swap',
  ),
});
