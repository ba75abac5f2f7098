import { ESLint } from 'eslint';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const repoRoot = resolve(import.meta.dirname, '..', '..');
const eslint = new ESLint({ cwd: repoRoot });

async function boundaryErrors(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: resolve(repoRoot, file) });
  return result!.messages
    .filter((message) => message.ruleId === 'lemming/layer-boundaries')
    .map((message) => message.message);
}

describe('import boundaries (ESLint)', () => {
  const forbidden: [string, string, RegExp][] = [
    [
      'renderer/src/views/Bad.tsx',
      "import { openOrg } from '../../../engine/org/open-org';",
      /renderer may not import engine/,
    ],
    [
      'renderer/src/Bad.ts',
      "import { x } from '../../engine/../engine/timeline/sqlite';",
      /renderer may not import engine/,
    ],
    [
      'renderer/src/Bad.ts',
      "import { createHandlers } from '../../main/ipc/handlers';",
      /renderer may not import main/,
    ],
    ['renderer/src/Bad.ts', "import { readFile } from 'node:fs/promises';", /renderer runs without Node/],
    ['renderer/src/Bad.ts', "import { ipcRenderer } from 'electron';", /renderer may not import "electron"/],
    ['renderer/src/Bad.ts', "const fs = require('fs');", /renderer runs without Node/],
    [
      'renderer/src/Bad.ts',
      "const m = await import('../../engine/org/discover');",
      /renderer may not import engine/,
    ],
    [
      'preload/bad.ts',
      "import { discoverAgents } from '../engine/org/discover';",
      /preload may not import engine/,
    ],
    ['engine/org/bad.ts', "import { app } from 'electron';", /engine may not import "electron"/],
    ['engine/run/bad.ts', "import { bindIpc } from '../../main/ipc/bind';", /engine may not import main/],
    ['engine/run/bad.ts', "export { App } from '../../renderer/src/App';", /engine may not import renderer/],
    ['engine/api/bad.ts', "import { readFile } from 'node:fs';", /engine\/api runs without Node/],
    ['engine/api/bad.ts', "import { openOrg } from '../org/open-org';", /engine\/api may not import engine/],
    ['engine/api/bad.ts', "import YAML from 'yaml';", /engine\/api may import only zod/],
    [
      'engine/org/bad.ts',
      "import { OrgEngine } from '../run/org-engine';",
      /engine\/org sits below engine\/run and may not import it/,
    ],
    [
      'engine/tools/bad.ts',
      "import { listConnectors } from '../app/connectors';",
      /engine\/tools sits below engine\/app/,
    ],
    [
      'engine/timeline/bad.ts',
      "import { SecretStore } from '../secrets/secret-store';",
      /engine\/timeline and engine\/secrets are parts of one layer/,
    ],
    [
      'engine/widgets/bad.ts',
      "import { openOrg } from '../org/open-org';",
      /engine\/widgets is not in the engine's layer order/,
    ],
    [
      'renderer/src/views/org/Bad.tsx',
      "import { ToolToggles } from '../agent/ToolToggles';",
      /the org view may not import the agent view; move what they share into renderer\/src\/shared/,
    ],
    [
      'renderer/src/views/first-run/Bad.tsx',
      "import { AgentList } from '../AgentList';",
      /the first-run view may not import the AgentList view/,
    ],
    [
      'renderer/src/components/Bad.tsx',
      "import { useQuery } from '../server-state/use-query';",
      /renderer\/src\/components sits below renderer\/src\/server-state/,
    ],
    [
      'renderer/src/server-state/bad.ts',
      "import { useRunState } from '../stores/run-store';",
      /renderer\/src\/server-state sits below renderer\/src\/stores/,
    ],
    [
      'renderer/src/shared/Bad.tsx',
      "import { OrgView } from '../views/org/OrgView';",
      /renderer\/src\/shared sits below renderer\/src\/views/,
    ],
    [
      'renderer/src/widgets/Bad.tsx',
      "import { ErrorAlert } from '../components/ErrorAlert';",
      /renderer\/src\/widgets is not in the renderer's layer order/,
    ],
  ];

  for (const [file, source, expected] of forbidden) {
    it(`${file}: ${source}  → error`, async () => {
      const errors = await boundaryErrors(file, source);
      expect(errors.length, `no boundary error for ${source}`).toBe(1);
      expect(errors[0]).toMatch(expected);
    });
  }

  const allowed: [string, string][] = [
    ['renderer/src/Ok.ts', "import { contract } from '../../engine/api/contract';"],
    ['renderer/src/Ok.ts', "import { create } from 'zustand';"],
    [
      'preload/ok.ts',
      "import { contextBridge } from 'electron';\nimport { buildLemmingApi } from '../engine/api/client';",
    ],
    [
      'engine/org/ok.ts',
      "import { readFile } from 'node:fs/promises';\nimport { AppInfo } from '../api/schemas';",
    ],
    ['main/ok.ts', "import { app } from 'electron';\nimport { openOrg } from '../engine/org/open-org';"],
    [
      'engine/run/ok.ts',
      "import { openOrg } from '../org/open-org';\nimport { toolCatalog } from '../tools/tool-catalog';",
    ],
    ['engine/cli/ok.ts', "import { listConnectors } from '../app/connectors';"],
    ['engine/org/ok.test.ts', "import { OrgEngine } from '../run/org-engine';"],
    [
      'renderer/src/views/org/Ok.tsx',
      "import { ToolToggles } from '../../shared/ToolToggles';\nimport { GraphLegend } from './GraphLegend';",
    ],
    ['renderer/src/shell/Ok.tsx', "import { OrgView } from '../views/org/OrgView';"],
    ['renderer/src/views/agent/Ok.tsx', "import '../org/org-view.css';"],
  ];
  for (const [file, source] of allowed) {
    it(`${file}: allowed`, async () => {
      expect(await boundaryErrors(file, source)).toEqual([]);
    });
  }
});
