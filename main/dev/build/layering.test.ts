/** The layering rules are enforced by lint: a wrong import fails `npm test`. */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

async function ruleMessages(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message);
}

describe('layering', () => {
  it('lets shared/ import only zod and shared/', async () => {
    expect(await ruleMessages('shared/example.ts', "import { z } from 'zod';\nimport { roleKey } from './roles';\nexport const a = [z, roleKey];\n")).toEqual([]);
    expect(await ruleMessages('shared/example.ts', "import { readFile } from 'node:fs';\nexport const a = readFile;\n")).not.toEqual([]);
    expect(await ruleMessages('shared/example.ts', "import { create } from 'zustand';\nexport const a = create;\n")).not.toEqual([]);
    expect(await ruleMessages('shared/example.ts', "import { APP_VERSION } from '../main/app';\nexport const a = APP_VERSION;\n")).not.toEqual([]);
  });

  it('keeps Node built-ins out of renderer/', async () => {
    expect(await ruleMessages('renderer/example.ts', "import { readFile } from 'node:fs';\nexport const a = readFile;\n")).not.toEqual([]);
    expect(await ruleMessages('renderer/example.ts', "import { join } from 'path';\nexport const a = join;\n")).not.toEqual([]);
    expect(await ruleMessages('renderer/example.ts', "import { Application } from 'pixi.js';\nexport const a = Application;\n")).toEqual([]);
  });

  it('lets only main/electron/ import electron', async () => {
    const code = "import { app } from 'electron';\nexport const a = app;\n";
    expect(await ruleMessages('main/core/fleet/example.ts', code)).not.toEqual([]);
    expect(await ruleMessages('renderer/example.ts', code)).not.toEqual([]);
    expect(await ruleMessages('shared/example.ts', code)).not.toEqual([]);
    expect(await ruleMessages('main/electron/example.ts', code)).toEqual([]);
  });
});
