/**
 * No import circles in src/ or components/, type-only ones included: a circle makes load order
 * matter (a value imported from a module still being evaluated is undefined) and blurs which
 * module owns what. dpdm reads the imports with the TypeScript parser.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCircular, parseDependencyTree, prettyCircular } from 'dpdm';

const ROOT = join(import.meta.dirname, '..', '..');

async function circlesIn(context: string, globs: string[]): Promise<string[][]> {
  const tree = await parseDependencyTree(globs, { context, tsconfig: join(ROOT, 'tsconfig.json'), transform: false, skipDynamicImports: false });
  return parseCircular(tree);
}

describe('import circles', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'coral-cycles-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('finds a planted circle, a type-only one included (the check can fail)', async () => {
    writeFileSync(join(scratch, 'a.ts'), "import { b } from './b.js';\nexport const a = () => b;\n");
    writeFileSync(join(scratch, 'b.ts'), "import type { C } from './c.js';\nexport const b: C | 1 = 1;\n");
    writeFileSync(join(scratch, 'c.ts'), "import { a } from './a.js';\nexport type C = ReturnType<typeof a>;\n");
    const circles = await circlesIn(scratch, [join(scratch, '*.ts')]);
    expect(circles.map((c) => [...c].sort())).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });

  it('there are none in src/ and components/', async () => {
    const globs = ['src/**/*.ts', 'src/**/*.tsx', 'components/**/*.ts', 'components/**/*.tsx'].map((g) => join(ROOT, g));
    const circles = await circlesIn(ROOT, globs);
    expect(circles.length, `import circles (move the shared type or constant into its own module):\n${prettyCircular(circles)}`).toBe(0);
  });
});
