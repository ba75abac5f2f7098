import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRedactor } from '../../secrets/redactor';
import { WORLDS } from '../../sandbox/test-support/sandbox-world';
import { codexReadFileTool, MAX_LINE_LENGTH } from './codex/read-file';
import { geminiGrepSearchTool, MAX_MATCH_LINE_CHARACTERS } from './gemini/grep-search';
import { geminiReadFileTool, MAX_LINE_CHARACTERS } from './gemini/read-file';
import { openToolWorld, type ToolWorld } from './test-support/tool-world';

const TOKEN = 'tok-file-Hs5Wq9Zc2Mv7';
const SPELLINGS = [TOKEN, Buffer.from(TOKEN).toString('base64')];
/** How many of a spelling's first characters a long line's cut would keep. */
const KEPT = [8, 13, TOKEN.length - 1];

describe.each(WORLDS)('a long line cut by a profile tool ($name file system)', (factory) => {
  let tools: ToolWorld;
  beforeEach(async () => {
    tools = await openToolWorld(factory, {
      redaction: createRedactor([{ name: 'SERVICE_TOKEN', value: TOKEN }]),
    });
  });
  afterEach(() => tools.dispose());

  /** Each spelling, at each position of the cut, in a line `limit − kept` characters in. */
  async function expectNoSecretAtCut(limit: number, read: (file: string) => Promise<string>) {
    for (const [index, spelling] of SPELLINGS.entries())
      for (const kept of KEPT) {
        const file = `long-${index}-${kept}.txt`;
        await tools.put(file, `${'x'.repeat(limit - kept)}${spelling} and more\n`);
        const shown = await read(file);
        expect(shown).toContain('x'.repeat(limit - kept));
        expect(shown, `${spelling} cut after ${kept}`).not.toContain(spelling.slice(0, 8));
      }
  }

  it('codex read_file (500 characters) leaves no first characters of a stored secret, plain or base64', async () => {
    await expectNoSecretAtCut(
      MAX_LINE_LENGTH,
      async (file) =>
        (await tools.call(codexReadFileTool, { file_path: tools.inWorkspace(file) })).output ?? '',
    );
  });

  it('gemini read_file (2,000 characters) leaves none either', async () => {
    await expectNoSecretAtCut(
      MAX_LINE_CHARACTERS,
      async (file) => (await tools.call(geminiReadFileTool, { file_path: file })).output ?? '',
    );
  });

  it('nor does a gemini grep_search match line (2,000 characters)', async () => {
    await expectNoSecretAtCut(
      MAX_MATCH_LINE_CHARACTERS,
      async (file) =>
        (await tools.call(geminiGrepSearchTool, { pattern: 'and more', include_pattern: file })).output ?? '',
    );
  });
});
