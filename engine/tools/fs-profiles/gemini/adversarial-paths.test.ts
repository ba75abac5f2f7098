import { ADVERSARIAL_CASES, describeAdversarialPaths } from '../../../sandbox/test-support/adversarial-paths';
import { portableDiskWorld } from '../../../sandbox/test-support/sandbox-world';
import { GEMINI_OPERATIONS } from '../test-support/profile-operations';

describeAdversarialPaths('every gemini tool on every adversarial path', GEMINI_OPERATIONS);

// The disk without /proc differs only in how the I/O reaches a checked path: links, and links swapped
// in between the check and the I/O.
describeAdversarialPaths('every gemini tool on links, checked by path', GEMINI_OPERATIONS, {
  worlds: [portableDiskWorld],
  cases: ADVERSARIAL_CASES.filter(
    (testCase) => testCase.category === 'symlink' || testCase.category === 'swap',
  ),
});
