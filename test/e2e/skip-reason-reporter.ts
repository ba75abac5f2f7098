import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/** Prints why each skipped test was skipped, one line each, so a skip can never pass silently. */
export default class SkipReasonReporter implements Reporter {
  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.status !== 'skipped') return;
    const reason =
      test.annotations.find((annotation) => annotation.type === 'skip')?.description ?? 'no reason given';
    console.log(`  skipped: ${test.titlePath().filter(Boolean).join(' › ')} — ${reason}`);
  }
}
