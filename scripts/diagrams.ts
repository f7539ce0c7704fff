/**
 * Writes a Mermaid diagram of every machine in `machines/` to `docs/machines/<name>.md`.
 * Run with `npm run diagrams`; `test/inspect/diagrams.test.ts` fails when a file is stale.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadMachines } from '../src/inspect/machine-modules.js';
import { machineMarkdown } from '../src/inspect/mermaid.js';

/** The project root (this script's parent folder). */
export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The folder the diagrams are written to, relative to the project root. */
export const DIAGRAMS_DIR = 'docs/machines';

/** Every diagram file's content, keyed by its path relative to `root` (`docs/machines/agent.md`). */
export async function renderDiagrams(root: string = PROJECT_ROOT): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const m of await loadMachines(join(root, 'machines'))) {
    const name = m.name.replace(/\.machine(?=$|:)/, '').replace(/:/g, '.');
    files.set(`${DIAGRAMS_DIR}/${name}.md`, machineMarkdown(m.name, m.machine, `machines/${m.file}`));
  }
  return files;
}

async function main(): Promise<void> {
  for (const [file, content] of await renderDiagrams()) {
    const path = join(PROJECT_ROOT, file);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, content);
    console.log(`wrote ${relative(process.cwd(), path)}`);
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
