/**
 * What the viewer's end-to-end tests need: the page built from source with Vite (into a
 * scratch folder, so the repository's dist/ is left alone) and Debian's Chromium, driven by
 * playwright-core, headless with a fresh profile. Every browser started here is closed by
 * the caller's `close()`.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/**
 * Where a test's screenshot goes: docs/ (the viewer page's pictures) when
 * `SUBAGENT_ACTORS_SCREENSHOTS=docs` is set (`npm run docs:screenshots`), else a scratch
 * folder, so an ordinary test run leaves the work tree as it found it.
 */
export function screenshotPath(name: string): string {
  if (process.env.SUBAGENT_ACTORS_SCREENSHOTS === 'docs') return fileURLToPath(new URL(`../../docs/${name}`, import.meta.url));
  // One fixed scratch folder, overwritten by each run, rather than a new one per run.
  const dir = join(tmpdir(), 'subagent-actors-viewer-shots');
  mkdirSync(dir, { recursive: true });
  return join(dir, name);
}

/** Where `.ci/run` installs Chromium (Debian's package). */
export const CHROMIUM = '/usr/bin/chromium';

/** Builds the viewer page into a new scratch folder; returns the folder. */
export async function buildPage(): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), 'viewer-page-'));
  const { build } = await import('vite');
  await build({ configFile: fileURLToPath(new URL('../../vite.viewer.config.ts', import.meta.url)), logLevel: 'error', build: { outDir, emptyOutDir: true } });
  return outDir;
}

/** A headless Chromium with a fresh profile, and one page in it. */
export interface Browser {
  readonly page: Page;
  readonly context: BrowserContext;
  /** Page errors and failed console messages seen so far (a working page has none). */
  readonly problems: string[];
  close(): Promise<void>;
}

/** Starts Chromium as the issue asks: headless, no sandbox, no GPU, no background traffic. */
export async function openBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does)`);
  const profile = mkdtempSync(join(tmpdir(), 'viewer-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1400, height: 1000 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  return {
    page,
    context,
    problems,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
