import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'

/**
 * The house measures of the service's code (lib/, app/, middleware.ts, instrumentation.ts; *.ts and *.tsx):
 * the share of comment lines and the files over the size limit, as docs/development.md states them.
 * A comment line is one whose trimmed text starts with `//`, `/*`, `*` or `*\/`; blank lines count in
 * neither the comment lines nor the code lines. A file's size is its line count, blank lines included.
 */
export const SERVICE_CODE = ['lib', 'app', 'middleware.ts', 'instrumentation.ts']
/** The most comment lines may be of the non-blank lines (STYLE.md: comments say how to use a thing, and why). */
export const MAX_COMMENT_SHARE = 0.2
/** The most lines one file may hold (STYLE.md: one concern a file). */
export const MAX_FILE_LINES = 350

export type FileLines = { file: string; lines: number; nonBlank: number; comment: number }

/** Counts one file's lines: all of them, the non-blank ones, and the comment lines among those. */
export function countLines(file: string, text: string): FileLines {
  const all = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n')
  const nonBlank = all.map((l) => l.trim()).filter((l) => l !== '')
  const comment = nonBlank.filter((l) => l.startsWith('//') || l.startsWith('/*') || l.startsWith('*')).length
  return { file, lines: text === '' ? 0 : all.length, nonBlank: nonBlank.length, comment }
}

/** The *.ts and *.tsx files under the given paths (files or folders, relative to `root`), sorted. */
export function sourceFiles(root: string, paths: string[] = SERVICE_CODE): string[] {
  const walk = (path: string): string[] => {
    const full = join(root, path)
    let entries
    try {
      entries = readdirSync(full, { withFileTypes: true })
    } catch {
      return /\.tsx?$/.test(path) ? [path] : []
    }
    return entries.flatMap((e) => walk(relative(root, join(full, e.name))))
  }
  return paths.flatMap(walk).sort()
}

export type HouseReport = { files: FileLines[]; comment: number; nonBlank: number; share: number; oversized: FileLines[] }

/** The comment share over all `files` and the files over MAX_FILE_LINES. */
export function houseReport(files: FileLines[]): HouseReport {
  const comment = files.reduce((s, f) => s + f.comment, 0)
  const nonBlank = files.reduce((s, f) => s + f.nonBlank, 0)
  return {
    files,
    comment,
    nonBlank,
    share: nonBlank === 0 ? 0 : comment / nonBlank,
    oversized: files.filter((f) => f.lines > MAX_FILE_LINES),
  }
}

/** houseReport of the service's code under `root`, read from disk. */
export function readHouseReport(root: string): HouseReport {
  return houseReport(sourceFiles(root).map((f) => countLines(f, readFileSync(join(root, f), 'utf8'))))
}
