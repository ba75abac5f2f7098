import { DEMO_ORG, expect, test } from '../harness/lemming-fixture';

declare global {
  interface Window {
    __heard: [string, unknown][];
  }
}

test("main's events reach the page through the same event hub preload uses", async ({ lemming }) => {
  const org = lemming.copyOfFolder(DEMO_ORG);
  await lemming.gotoApp();
  const { page } = lemming;
  await page.evaluate(() => {
    window.__heard = [];
    window.lemming.on('org.changed', ({ path }) => window.__heard.push(['org.changed', path]));
    window.lemming.on('run.state', ({ phase }) => window.__heard.push(['run.state', phase]));
    window.lemming.on('timeline.appended', ({ lastSeq }) =>
      window.__heard.push(['timeline.appended', lastSeq]),
    );
    window.lemming.on('agents.changed', ({ names }) => window.__heard.push(['agents.changed', names]));
  });

  expect(await page.evaluate((path) => window.lemming.org.open({ path }), org)).toMatchObject({ ok: true });
  await expect
    .poll(() => page.evaluate(() => window.__heard.find(([name]) => name === 'org.changed')))
    .toEqual(['org.changed', org]);

  const step = await page.evaluate(() => window.lemming.run.step());
  expect(step).toMatchObject({ ok: true, value: { report: { tick: 1 } } });
  const summary = await page.evaluate(() => window.lemming.org.summary());
  if (!summary.ok) throw new Error(summary.error.message);
  await expect
    .poll(() =>
      page.evaluate(() => window.__heard.filter(([name]) => name === 'timeline.appended').at(-1)?.[1]),
    )
    .toBe(summary.value.latestSeq);
  const heard = await page.evaluate(() => window.__heard);
  const phases = heard.filter(([name]) => name === 'run.state').map(([, phase]) => phase);
  expect(phases.filter((phase, index) => phase !== phases[index - 1])).toEqual(['idle', 'stepping', 'idle']);
  expect(
    heard.some(([name, names]) => name === 'agents.changed' && (names as string[]).includes('manager')),
  ).toBe(true);
  expect(heard.length).toBe(lemming.events.length);

  // The live tail: after the last seq it saw, the page pulls exactly the rows it has not shown.
  const tail = await page.evaluate(async (lastSeq) => {
    const page = await window.lemming.timeline.page({ direction: 'asc', cursor: lastSeq - 3, limit: 10 });
    return page.ok ? page.value.rows.map((row) => row.seq) : [];
  }, summary.value.latestSeq);
  expect(tail).toEqual([summary.value.latestSeq - 2, summary.value.latestSeq - 1, summary.value.latestSeq]);
});

test('a listener can unsubscribe, and an event that breaks the contract never reaches one', async ({
  lemming,
}) => {
  await lemming.gotoApp();
  const { page } = lemming;
  const heard = await page.evaluate(async () => {
    const seen: unknown[] = [];
    const stop = window.lemming.on('run.state', (state) => seen.push(state.phase));
    window.__lemmingDeliver({ name: 'run.state', payload: { phase: 'flying' } });
    window.__lemmingDeliver({ name: 'org.deleted', payload: {} });
    window.__lemmingDeliver('not a message');
    const opened = await window.lemming.firstRun.openDemo();
    for (let waited = 0; seen.length === 0 && waited < 5000; waited += 10)
      await new Promise((resolve) => setTimeout(resolve, 10));
    stop();
    await window.lemming.run.step();
    return { seen, opened: opened.ok };
  });
  expect(heard.opened).toBe(true);
  expect(new Set(heard.seen)).toEqual(new Set(['idle']));
  expect(
    await page.evaluate(() => {
      try {
        window.lemming.on('nonsense' as never, () => undefined);
        return 'subscribed';
      } catch (error) {
        return (error as Error).message;
      }
    }),
  ).toBe('There is no event named "nonsense".');
});
