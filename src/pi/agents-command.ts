/**
 * The text of Pi's `/agents` command: the roles the session can delegate to, each with its
 * file, model and tools, and under each file what is wrong with it.
 */
import { relative } from 'node:path';
import { resolveModelName, type ModelTable } from '../policy/model-alias.js';
import type { AgentFileProblem, PiAgentFiles } from './agent-files.js';

function problemLines(problems: readonly AgentFileProblem[], indent: string): string[] {
  return problems.map((problem) => `${indent}${problem.severity === 'error' ? 'error' : 'warning'}: ${problem.message}`);
}

function modelText(model: string | undefined, table: ModelTable): string {
  if (model === undefined) return 'inherit';
  const resolved = resolveModelName(model, table, 'inherit');
  if (!resolved.ok) return `${model} (unknown)`;
  return resolved.model === model ? model : `${model} → ${resolved.model}`;
}

/**
 * The `/agents` report.
 *
 * @example
 * ```ts
 * ctx.ui.notify(agentsReport(files, models, ctx.cwd), 'info');
 * // Subagent roles (2), from .pi/agents, .claude/agents:
 * //   reviewer — .claude/agents/reviewer.md — model sonnet → anthropic/claude-sonnet-5-5 — tools Read, Grep
 * ```
 */
export function agentsReport(files: PiAgentFiles, models: ModelTable, cwd: string): string {
  const lines: string[] = [];
  const byFile = new Map<string | undefined, AgentFileProblem[]>();
  for (const problem of files.problems) byFile.set(problem.file, [...(byFile.get(problem.file) ?? []), problem]);
  lines.push(files.roles.length === 0 ? `No subagent roles in ${files.dirs.join(', ')}.` : `Subagent roles (${files.roles.length}), from ${files.dirs.join(', ')}:`);
  const listed = new Set<string | undefined>();
  for (const role of files.roles) {
    const file = relative(cwd, role.source.file) || role.source.file;
    listed.add(file);
    const tools = role.tools === undefined ? 'every tool but Agent' : role.tools.length === 0 ? 'none' : role.tools.join(', ');
    lines.push(`  ${role.name} — ${file} — model ${modelText(role.model, models)} — tools ${tools}`);
    lines.push(...problemLines(byFile.get(file) ?? [], '    '));
  }
  const rest = [...byFile.entries()].filter(([file]) => !listed.has(file));
  if (rest.length > 0) {
    lines.push('Other problems:');
    for (const [file, problems] of rest) {
      if (file !== undefined) lines.push(`  ${file}`);
      lines.push(...problemLines(problems, '    '));
    }
  }
  return lines.join('\n');
}
