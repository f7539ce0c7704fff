/**
 * The demo's `--view`: the local viewer, served on 127.0.0.1 while the session runs. Loaded
 * on demand like the inspector, so a missing page (not built) is a note, not a crash.
 */
import type { ServedViewer } from '../viewer/server.js';
import type { LiveFeed } from '../viewer/live.js';
import type { Unavailable } from './optional.js';

/** A started live viewer. */
export interface LiveViewer {
  readonly live: LiveFeed;
  readonly viewer: ServedViewer;
  /** A line for people: where to look. */
  readonly note: string;
}

/** Options of {@link startLiveViewer}. */
export interface LiveViewerOptions {
  readonly sessionId: string;
  /** The built page's folder (default: the package's). */
  readonly pageDir?: string;
  /** The clock events are stamped with (default `Date.now`). */
  readonly now?: () => number;
}

/** Serves a live feed of the session in the local viewer. */
export async function startLiveViewer(options: LiveViewerOptions): Promise<LiveViewer | Unavailable> {
  try {
    const [{ liveFeed }, { serveViewer }] = await Promise.all([import('../viewer/live.js'), import('../viewer/server.js')]);
    const live = liveFeed({ sessionId: options.sessionId, label: 'live demo', ...(options.now ? { now: options.now } : {}) });
    const viewer = await serveViewer({ feed: live.feed, title: 'subagent-actors viewer · live demo', ...(options.pageDir !== undefined ? { pageDir: options.pageDir } : {}) });
    return { live, viewer, note: `local viewer: open ${viewer.url} in a browser (no internet needed; it follows the session live)` };
  } catch (error) {
    return { unavailable: `the local viewer is unavailable (${error instanceof Error ? error.message : String(error)}); running without it.` };
  }
}
