import { ADVERSARIAL_CASES, describeAdversarialPaths } from '../../../sandbox/test-support/adversarial-paths';
import { portableDiskWorld } from '../../../sandbox/test-support/sandbox-world';
import { APPLY_PATCH_OPERATIONS, asPatchPaths, CODEX_OPERATIONS } from '../test-support/profile-operations';

const LINK_CASES = ADVERSARIAL_CASES.filter(
  (testCase) => testCase.category === 'symlink' || testCase.category === 'swap',
);

describeAdversarialPaths('every codex read tool on every adversarial path', CODEX_OPERATIONS);
describeAdversarialPaths('apply_patch on every adversarial path', APPLY_PATCH_OPERATIONS, {
  cases: asPatchPaths(ADVERSARIAL_CASES),
});

// The disk without /proc differs only in how the I/O reaches a checked path: links, and links swapped
// in between the check and the I/O.
describeAdversarialPaths(
  'every codex tool on links, checked by path',
  [...CODEX_OPERATIONS, ...APPLY_PATCH_OPERATIONS],
  {
    worlds: [portableDiskWorld],
    cases: LINK_CASES,
  },
);
