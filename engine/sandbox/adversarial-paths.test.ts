import { describe, expect, it } from 'vitest';
import {
  ADVERSARIAL_CASES,
  CASE_CATEGORIES,
  describeAdversarialPaths,
  SANDBOX_OPERATIONS,
} from './test-support/adversarial-paths';
import { portableDiskWorld, WORLDS } from './test-support/sandbox-world';

describe('the adversarial path corpus', () => {
  it('has at least 60 cases, in every category, with unique names', () => {
    expect(ADVERSARIAL_CASES.length).toBeGreaterThanOrEqual(60);
    const categories = new Set(ADVERSARIAL_CASES.map((testCase) => testCase.category));
    expect([...categories].sort()).toEqual([...CASE_CATEGORIES].sort());
    const ids = ADVERSARIAL_CASES.map((testCase) => `${testCase.category}: ${testCase.id}`);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describeAdversarialPaths('every AgentSandbox operation on every adversarial path', SANDBOX_OPERATIONS, {
  worlds: [...WORLDS, portableDiskWorld],
});
