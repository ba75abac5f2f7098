import AxeBuilder from '@axe-core/playwright';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DEMO_ORG, REPO_ROOT, expect, test, type LemmingHarness } from '../harness/lemming-fixture';
import { addScriptedAgents } from '../harness/scripted-demo-org';

const CLAIMING_SERVER = join(REPO_ROOT, 'engine/tools/mcp/test-support/claiming-server.mjs');

/** scribe's model calls `tool` with `args` in the first round of every turn. */
function scribeSteps(tool: string, args: Record<string, unknown>) {
  return [
    { when: { round: 1 }, respond: { tool_calls: [{ tool, args }] } },
    { respond: { notes: 'read the tool results' } },
  ];
}

/**
 * A copy of the demo org with the MCP server `notes` (its save_note says it only reads, and writes
 * `notes.txt` beside the org) and the agent scribe, granted its tools. Returns the org, the file the
 * server writes, and how to change what scribe calls next.
 */
function notesOrg(lemming: LemmingHarness) {
  const org = lemming.copyOfFolder(DEMO_ORG);
  const marker = `${org}-notes.txt`;
  writeFileSync(
    join(org, 'lemming/config/mcp.json'),
    JSON.stringify({
      mcpServers: {
        notes: { command: process.execPath, args: [CLAIMING_SERVER], env: { NOTE_FILE: marker } },
      },
    }),
  );
  const scribe = (tool: string, args: Record<string, unknown>) =>
    addScriptedAgents(org, 'notes', {
      scribe: {
        title: 'Scribe',
        description: 'Keeps notes',
        instructions: 'You keep notes.',
        tools: ['group:mcp:notes'],
        steps: scribeSteps(tool, args),
      },
    });
  scribe('mcp__notes__save_note', { text: 'written unasked' });
  return { org, marker, scribe };
}

function timeline(org: string): Record<string, any>[] {
  const db = new Database(join(org, '.lemming', 'timeline.sqlite'), { readonly: true });
  try {
    return (db.prepare('SELECT json FROM events ORDER BY seq').all() as { json: string }[]).map(
      (row) => JSON.parse(row.json) as Record<string, any>,
    );
  } finally {
    db.close();
  }
}

test("an MCP tool's claim to only read does not skip asking; a tool renamed by its server asks again and says what changed", async ({
  lemming,
}, testInfo) => {
  const { org, marker, scribe } = notesOrg(lemming);
  await lemming.trustAsIs(org);
  await lemming.openOrgAt(org);
  const { page } = lemming;
  const step = page.getByRole('button', { name: 'Step one tick' });

  await step.click();
  const asking = page.getByRole('alertdialog', { name: 'scribe wants to use Save note (notes)' });
  await expect(asking).toContainText(
    'you have not chosen to trust what this one says about which tools only read',
  );
  await asking.getByRole('button', { name: 'Deny…' }).click();
  await asking.getByRole('button', { name: 'Deny', exact: true }).click();
  await expect(asking).toBeHidden();
  expect(existsSync(marker)).toBe(false);

  // The server renames the tool (scribe asks it to, and the person lets that call run once).
  scribe('mcp__notes__shapeshift', { into: 'renamed' });
  await step.click();
  const shapeshift = page.getByRole('alertdialog', { name: 'scribe wants to use Shapeshift (notes)' });
  await shapeshift.getByRole('button', { name: 'Allow once' }).click();
  await expect(shapeshift).toBeHidden();
  await expect
    .poll(() =>
      timeline(org).some((event) => event.kind === 'tool_result' && event.result?.output === 'now renamed'),
    )
    .toBe(true);

  scribe('mcp__notes__keep_note', { text: 'renamed' });
  await step.click();
  const renamed = page.getByRole('alertdialog', { name: 'scribe wants to use Keep note (notes)' });
  await expect(renamed).toContainText('It is new and may be a renamed tool');
  const changed = renamed.getByRole('group', { name: 'What changed' });
  await expect(changed).toContainText('It appeared when “save_note” disappeared from the same server');
  await renamed.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('mcp-approval-changed.png'), fullPage: true });
  await expect(renamed).toHaveScreenshot('mcp-approval-changed.png', {
    maxDiffPixelRatio: 0.02,
    mask: [renamed.getByText(/If you do not answer by/)],
  });
  const scan = await new AxeBuilder({ page }).include('.approval-cards').analyze();
  expect(
    scan.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
  ).toEqual([]);
  await renamed.getByRole('button', { name: 'Deny…' }).click();
  await renamed.getByRole('button', { name: 'Deny', exact: true }).click();
  await expect(renamed).toBeHidden();
  expect(existsSync(marker)).toBe(false);
  const requested = timeline(org).filter((event) => event.kind === 'approval_requested');
  expect(requested.at(-1)).toMatchObject({
    tool: 'mcp__notes__keep_note',
    changes: [expect.stringContaining('save_note')],
  });

  // The Tool Store's card says it too, next to the switch that is off until the person turns it on.
  await lemming.showView('Tool Store');
  const card = page.getByRole('listitem', { name: 'notes' });
  const keep = card.getByRole('note', { name: 'keep_note changed' });
  await expect(keep).toContainText('This tool changed.');
  const hints = card.getByRole('switch', { name: "Trust this server's hints about which tools only read" });
  await expect(hints).not.toBeChecked();
  await expect(card).toContainText('Off: every call of its tools asks you first');
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('mcp-card-changed.png'), fullPage: true });

  // Choosing again how it runs accepts the change.
  const section = page.getByRole('region', { name: 'Ask me first' });
  await section.getByLabel('Approval settings for agent').selectOption('scribe');
  const row = section.getByLabel('When Keep note (notes) runs for scribe');
  await expect(row).toHaveValue('changed');
  await expect(section.getByRole('list', { name: /What changed in/ })).toContainText('save_note');
  await row.selectOption('ask');
  await expect(row).toHaveValue('ask');
  await expect(keep).toBeHidden();

  // Trusting the server's hints is kept outside the org.
  const files = () =>
    ['mcp.json', 'approvals.json'].map((file) =>
      existsSync(join(org, 'lemming/config', file))
        ? readFileSync(join(org, 'lemming/config', file), 'utf8')
        : '',
    );
  const before = files();
  await hints.click();
  await expect(hints).toBeChecked();
  await expect(card).toContainText(
    'On: its tools that say they only read and stay on this computer run without asking.',
  );
  const rules = section.getByRole('table', { name: 'Approval settings for scribe' });
  await expect(rules.getByRole('row', { name: /Erase notes \(notes\)/ })).toContainText(
    'Asks before every call: its server says it may delete or overwrite things.',
  );
  await page.screenshot({ path: testInfo.outputPath('mcp-card-hints-trusted.png'), fullPage: true });
  expect(files()).toEqual(before);
});
