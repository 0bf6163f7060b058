// The modules of src/ and the imports between them, read with TypeScript's own parser: the shape of the
// house as the layer, import-circle and lazy-import tests check it.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import ts from 'typescript'

export const SRC = resolve('src')

export function sourceFiles(dir: string = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') ? [path] : []
  })
}

/** Relative module names as the paths of the .ts files they name (`./a.js` from src/b.ts: src/a.ts). */
function sourcePaths(file: string, names: string[]): string[] {
  return names
    .filter((name) => name.startsWith('.'))
    .map((name) => resolve(dirname(file), name.replace(/\.js$/, '.ts')))
}

/** Each module's relative imports and re-exports, type-only and `import()` included, among `files`. */
export function importGraph(files: string[]): Map<string, string[]> {
  const known = new Set(files)
  return new Map(
    files.map((file) => [
      file,
      sourcePaths(
        file,
        ts
          .preProcessFile(readFileSync(file, 'utf8'), true, true)
          .importedFiles.map((entry) => entry.fileName),
      ).filter((path) => known.has(path)),
    ]),
  )
}

/** The modules of src/ a module loads before it runs: its value imports and re-exports, not `import()`. */
export function staticValueImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest)
  const named: string[] = []
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && !statement.importClause?.isTypeOnly) {
      named.push((statement.moduleSpecifier as ts.StringLiteral).text)
    } else if (ts.isExportDeclaration(statement) && !statement.isTypeOnly && statement.moduleSpecifier) {
      named.push((statement.moduleSpecifier as ts.StringLiteral).text)
    }
  }
  return sourcePaths(file, named).filter((path) => existsSync(path))
}
