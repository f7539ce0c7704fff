/**
 * Where the built viewer page lives and how its files are served: `dist/viewer/` in the
 * package (built by `npm run build:viewer` with Vite), found from this module in the package
 * layout (`dist/src/viewer/`) and in the repository (`src/viewer/`, run from source).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The page folders tried when none is given: the package's, then the repository's build. */
export function defaultPageDirs(): string[] {
  return [fileURLToPath(new URL('../../viewer/', import.meta.url)), fileURLToPath(new URL('../../dist/viewer/', import.meta.url))];
}

/** The first of `dirs` that holds a built page (an `index.html`), or undefined. */
export function findPageDir(dirs: readonly string[] = defaultPageDirs()): string | undefined {
  return dirs.find((dir) => existsSync(join(dir, 'index.html')));
}

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.map': 'application/json',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
};

/** A file of the page, by URL path (`/` is `index.html`); undefined outside `dir` or missing. */
export function pageFile(dir: string, urlPath: string): { readonly body: Buffer; readonly type: string } | undefined {
  let relative: string;
  try {
    relative = decodeURIComponent(urlPath === '/' ? '/index.html' : urlPath);
  } catch {
    return undefined;
  }
  const file = normalize(join(dir, relative));
  // Nothing outside the page's folder is served, whatever the URL says.
  if (!file.startsWith(normalize(dir.endsWith(sep) ? dir : dir + sep))) return undefined;
  if (!existsSync(file) || !statSync(file).isFile()) return undefined;
  return { body: readFileSync(file), type: TYPES[extname(file)] ?? 'application/octet-stream' };
}
