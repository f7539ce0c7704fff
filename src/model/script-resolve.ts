/**
 * Looks up the step or summary a script gives for an agent path.
 */
import type { PathMatcher, PathScript, Script, ScriptFn, ScriptRule, ScriptStep, SummaryScript } from './script.js';

/** A rule with its matcher compiled once. */
interface CompiledRule {
  readonly test: (agentPath: string) => boolean;
  readonly script: PathScript;
}

const GLOB_CHARS = /[*?]/;

/** Compiles a path glob to an anchored RegExp (`**` any, `*` no slash, `?` one non-slash). */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob.charAt(i);
    if (ch === '*' && glob.charAt(i + 1) === '*') {
      source += '.*';
      i++;
    } else if (ch === '*') source += '[^/]*';
    else if (ch === '?') source += '[^/]';
    else source += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

function compileMatcher(match: PathMatcher): (agentPath: string) => boolean {
  if (typeof match === 'function') return match;
  if (!GLOB_CHARS.test(match)) return (p) => p === match;
  const re = globToRegExp(match);
  return (p) => re.test(p);
}

/** Orders a script's rules: array order, or exact record keys first, then globs. */
function toRules(script: Script): readonly ScriptRule[] {
  if (Array.isArray(script)) return script as readonly ScriptRule[];
  const entries = Object.entries(script as { readonly [path: string]: PathScript });
  const exact = entries.filter(([k]) => !GLOB_CHARS.test(k));
  const globs = entries.filter(([k]) => GLOB_CHARS.test(k));
  return [...exact, ...globs].map(([match, s]) => ({ match, script: s }));
}

/** A compiled script. Lookups cost O(rules). */
export interface ScriptIndex {
  /** The step scripted for `(agentPath, turn, step)`, if any. */
  step(agentPath: string, turn: number, step: number): ScriptStep | undefined;
  /** The summary scripted for `agentPath`, if any. */
  summary(agentPath: string): SummaryScript | undefined;
}

/** Compiles `script` for lookups. */
export function compileScript(script: Script): ScriptIndex {
  const rules: readonly CompiledRule[] = toRules(script).map((r) => ({ test: compileMatcher(r.match), script: r.script }));
  return {
    step(agentPath, turn, step) {
      for (const rule of rules) {
        if (!rule.test(agentPath)) continue;
        if (typeof rule.script === 'function') return rule.script;
        const turnScript = rule.script[turn];
        if (turnScript === undefined) continue;
        if (typeof turnScript === 'function') return turnScript as ScriptFn;
        return (turnScript as readonly ScriptStep[])[step];
      }
      return undefined;
    },
    summary(agentPath) {
      for (const rule of rules) {
        if (typeof rule.script === 'function' || !rule.test(agentPath)) continue;
        if (rule.script.summary !== undefined) return rule.script.summary;
      }
      return undefined;
    },
  };
}
